import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ddmin, shrinkScenario } from './shrink';
import { swarmBase } from './swarm';
import { type FaultSpec } from '../scenario/scenario';
import { decodeScenario } from '../scenario/decodeScenario';
import { encodeScenario } from '../scenario/encodeScenario';

describe('ddmin', () => {
  it('finds a 1-minimal failing subset', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 1, max: 3 }),
        (items, k) => {
          const culprits = items.slice(0, Math.min(k, items.length));
          const fails = (s: number[]) => culprits.every((c) => s.includes(c));
          const min = ddmin(items, fails);
          expect(fails(min)).toBe(true);
          expect([...min].sort((a, b) => a - b)).toEqual([...culprits].sort((a, b) => a - b));
        },
      ),
    );
  });
});

describe('shrinkScenario', () => {
  it('keeps only the faults that make the same oracle fail, and cuts the duration', () => {
    const base = swarmBase(600_000);
    const fault = (kind: 'crash' | 'pause' | 'clockSkew', atMs: number): FaultSpec =>
      kind === 'clockSkew'
        ? { kind, atMs, forMs: 10_000, node: 'svc-1', skewMs: 1000 }
        : { kind, atMs, forMs: 10_000, node: 'svc-1' };
    const s = {
      ...base,
      faults: [fault('crash', 10_000), fault('pause', 50_000), fault('clockSkew', 90_000), fault('pause', 120_000)],
      workload: { ...base.workload, stateSyncs: [{ atMs: 5_000, count: 3 }] },
    };
    // A stand-in failure: fires when a pause at 50 s and the skew are present and the run lasts 100 s.
    const check = (x: typeof s) =>
      x.faults.some((f) => f.kind === 'pause' && f.atMs === 50_000) &&
      x.faults.some((f) => f.kind === 'clockSkew') &&
      x.durationMs >= 100_000
        ? 'planted'
        : null;
    const { scenario, stats } = shrinkScenario(s, 'planted', check);
    expect(scenario.faults.map((f) => f.kind).sort()).toEqual(['clockSkew', 'pause']);
    expect(scenario.workload.stateSyncs).toEqual([]);
    expect(scenario.durationMs).toBe(100_000);
    expect(stats.faultsAfter).toBe(2);
  });

  it('a cut duration takes the faults after the new end with it (a scenario file may not hold them)', () => {
    const base = swarmBase(600_000);
    const fault = (atMs: number): FaultSpec => ({ kind: 'pause', atMs, forMs: 10_000, node: 'svc-1' });
    // A stand-in failure that needs all three faults in a long run, but shows by 100 s with the
    // first two: ddmin keeps all three, and the cut to 100 s must drop the one at 200 s.
    const s = { ...base, faults: [fault(10_000), fault(50_000), fault(200_000)] };
    const has = (x: typeof s, atMs: number) => x.faults.some((f) => f.atMs === atMs);
    const check = (x: typeof s) =>
      has(x, 10_000) && has(x, 50_000) && x.durationMs >= 100_000 && (x.durationMs <= 200_000 || has(x, 200_000))
        ? 'planted'
        : null;
    const { scenario } = shrinkScenario(s, 'planted', check);
    expect(scenario.durationMs).toBe(100_000);
    expect(scenario.faults.map((f) => f.atMs)).toEqual([10_000, 50_000]);
    expect(decodeScenario(JSON.parse(JSON.stringify(encodeScenario(scenario))))).toEqual(scenario);
  });
});
