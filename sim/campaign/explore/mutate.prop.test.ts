/**
 * The mutation operators produce valid scenarios: from any fresh draw, chains of mutations (with
 * splicing from another draw) give, before any check, a scenario the decoder takes and gives back
 * unchanged (what the explorer runs is what its repro file replays), with its validator indexes and
 * node ids in the set, the Byzantine coalition below a third of the power even after the largest
 * honest exit, stake added only outside it, at most one exit, and whole sprints in every span.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../env/rng';
import { type Scenario } from '../../scenario/scenario';
import { decodeScenario } from '../../scenario/decodeScenario';
import { encodeScenario } from '../../scenario/encodeScenario';
import { freshScenario } from './explorer';
import { coalitionOf, mutateFitted } from './mutate';
import { coalitionOk } from './faultDraws';

const roundTrip = (s: Scenario): Scenario => decodeScenario(JSON.parse(JSON.stringify(encodeScenario(s))));

function checkRules(s: Scenario): void {
  const n = s.validators.length;
  const nodes = new Set(['parent', ...s.validators.flatMap((_, i) => [`svc-${i + 1}`, `sc-${i + 1}`])]);
  const coalition = coalitionOf(s);
  expect(
    coalitionOk(
      coalition,
      s.validators.map((v) => v.stakeTokens),
    ),
  ).toBe(true);
  for (const u of s.workload.stakeUpdates) expect(coalition).not.toContain(u.validator);
  expect(s.workload.exits.reduce((k, e) => k + (e.repeat ?? 1), 0)).toBeLessThanOrEqual(1);
  expect(s.params.spanDuration % s.params.sprint).toBe(0);
  expect(s.params.firstSpanDuration % s.params.sprint).toBe(0);
  expect(s.params.producerCount).toBeLessThanOrEqual(n);
  for (const f of s.faults) {
    const text = JSON.stringify(f, (_k, v) => (typeof v === 'bigint' ? Number(v) : v));
    for (const id of text.match(/"(svc|sc)-\d+"/g) ?? []) expect(nodes.has(JSON.parse(id) as string), text).toBe(true);
    if (f.atMs !== undefined) expect(f.atMs).toBeLessThan(s.durationMs);
  }
}

describe('mutation operators', () => {
  it('every mutated scenario decodes, round-trips and keeps the space rules', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 1, max: 6 }), (seed, steps) => {
        const rng = Rng.forSeed(`mutate-prop/${seed}`);
        let s = freshScenario(rng.fork('parent'));
        const donor = freshScenario(rng.fork('donor'));
        for (let i = 0; i < steps; i++) {
          const m = mutateFitted(rng.fork(`step${i}`), s, donor);
          if (m === null) continue;
          expect(m.ops.length).toBeGreaterThan(0);
          const back = roundTrip(m.scenario);
          checkRules(back);
          expect(roundTrip(back)).toEqual(back);
          s = back;
        }
      }),
      { numRuns: 300 },
    );
  });
});
