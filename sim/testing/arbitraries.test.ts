/**
 * The arbitraries draw only scenarios a file could hold (the decoder accepts every one, with every
 * fault kind they know), faults start inside the run, and shrinking goes toward the simple: the
 * smallest value is the base with the rule's own fault at 0 s, a calm network and no workload.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Scenario } from '../scenario/scenario';
import { ARBITRARY_FAULT_KINDS, faultSchedule, network, scenario, workload } from './arbitraries';

describe('arbitraries', () => {
  it('every drawn scenario decodes, with every fault kind, within the run', () => {
    for (const base of ['smoke', 'default']) {
      const arb = scenario({
        base,
        durationMs: 300_000,
        faults: { kinds: ARBITRARY_FAULT_KINDS, maxFaults: 4 },
        network: true,
        workload: true,
        params: { sprint: [16, 32], checkpointBufferTime: ['60s', '5m'] },
      });
      for (const s of fc.sample(arb, { numRuns: 150, seed: 7 })) {
        expect(s.durationMs).toBe(300_000);
        expect(s.seed).toBeGreaterThanOrEqual(1);
        for (const f of s.faults) expect(f.atMs!).toBeLessThan(300_000 * 0.9);
      }
    }
    const kinds = new Set(
      fc
        .sample(faultSchedule({ validators: 5, durationMs: 60_000, kinds: ARBITRARY_FAULT_KINDS, maxFaults: 5 }), {
          numRuns: 200,
          seed: 3,
        })
        .flat()
        .map((f) => f.kind),
    );
    expect(kinds).toEqual(new Set(ARBITRARY_FAULT_KINDS));
    for (const n of fc.sample(network({ maxLoss: 0.1 }), { numRuns: 50, seed: 1 }))
      expect(n.loss).toBeLessThanOrEqual(0.1);
    expect(fc.sample(workload({ validators: 4, durationMs: 60_000 }), { numRuns: 20, seed: 1 }).length).toBe(20);
  });

  it('shrinks toward the base: the fault every schedule keeps at 0 s, a calm network, no workload, seed 1', () => {
    const arb = scenario({
      base: 'smoke',
      durationMs: 120_000,
      faults: { always: ['offlineProducer'], maxFaults: 3 },
      network: true,
      workload: true,
    });
    // Every scenario "fails": fast-check shrinks the first one as far as it goes.
    const r = fc.check(
      fc.property(arb, () => false),
      { numRuns: 1, seed: 11 },
    );
    const s = r.counterexample![0] as Scenario;
    expect(s.faults).toHaveLength(1);
    expect(s.faults[0]).toMatchObject({ kind: 'offlineProducer', atMs: 0, validator: 'inTurn' });
    expect(s.network).toMatchObject({ latencyMinMs: 20, latencyMaxMs: 80, loss: 0, duplicate: 0, reorder: 0 });
    expect(s.workload.transfers).toBeNull();
    expect(s.seed).toBe(1);
  });
});
