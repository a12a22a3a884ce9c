/**
 * Each planted bug (src/core/plants.ts) is caught by the oracle guarding its rule, on a short
 * targeted scenario (the same scenario files pass without the plant: scenarios/suite.test.ts),
 * and a plant works in both placements. `npm run bench -- oracles` measures the same over the
 * whole scenario suite and a swarm campaign.
 */
import { describe, expect, it } from 'vitest';
import {
  PLANTS,
  PLANT_NAMES,
  type PlantName,
  isPlanted,
  parsePlant,
  plantGuards,
  withPlant,
} from '../../src/core/plants';
import { loadScenario } from '../scenario/load';
import { decodeScenario } from '../scenario/decodeScenario';
import { encodeScenario } from '../scenario/encodeScenario';
import { runScenario, runScenarioAsync } from '../run/run';
import { OracleSuite } from '../oracles/suite';

/** Where each plant shows first, and how much of the scenario it takes (simulated seconds). */
const TARGETS: Record<PlantName, { scenario: string; untilS: number }> = {
  'producer-delay': { scenario: 'smoke', untilS: 20 },
  succession: { scenario: 'producer-offline-sprint', untilS: 90 },
  'fork-choice-length': { scenario: 'sidechain-partition', untilS: 120 },
  'fork-choice-tiebreak': { scenario: 'equivocating-producer', untilS: 60 },
  'span-window': { scenario: 'byzantine-sender', untilS: 120 },
  'span-continuity': { scenario: 'byzantine-sender', untilS: 120 },
  'noack-timing': { scenario: 'byzantine-sender', untilS: 180 },
  'rotation-on-ack': { scenario: 'smoke', untilS: 150 },
  'rotation-on-noack': { scenario: 'checkpoint-proposer-offline', untilS: 540 },
  'topup-replay': { scenario: 'bridge-relays', untilS: 60 },
  'send-debit': { scenario: 'smoke', untilS: 30 },
  'sequence-on-failure': { scenario: 'byzantine-sender', untilS: 120 },
  'quorum-threshold': { scenario: 'bft-two-crashed', untilS: 10 },
  'lock-rule': { scenario: 'byzantine-consensus', untilS: 300 },
  'unauthorised-signer': { scenario: 'outsider-blocks', untilS: 60 },
  'early-block': { scenario: 'early-seal', untilS: 60 },
  'sprint-start-syscalls': { scenario: 'smoke', untilS: 90 },
  'sticky-head': { scenario: 'regressions/planted-sticky-head-fork-choice', untilS: 40 },
  'span-commit-late': { scenario: 'smoke', untilS: 240 },
  'floor-unmoved': { scenario: 'smoke', untilS: 130 },
  'relay-confirmations': { scenario: 'smoke', untilS: 40 },
  'round-proposer': { scenario: 'bft-two-crashed', untilS: 60 },
  'round-skip': { scenario: 'bft-round-skip', untilS: 170 },
  'backup-wiggle': { scenario: 'producer-offline-sprint', untilS: 200 },
  'base-fee-to-author': { scenario: 'default', untilS: 30 },
  'pool-price-bump': { scenario: 'pool-probes', untilS: 130 },
};

const file = (name: string) => (name.includes('/') ? `scenarios/${name}.json` : name);

describe('planted bugs', () => {
  it('are off unless a run or a test switches one on; names are checked', () => {
    for (const p of PLANT_NAMES) expect(isPlanted(p)).toBe(false);
    expect(withPlant('send-debit', () => isPlanted('send-debit'))).toBe(true);
    expect(isPlanted('send-debit')).toBe(false);
    expect(() => parsePlant('bogus', '--plant')).toThrow(
      /^--plant: unknown planted bug "bogus"; known: producer-delay, /,
    );
    const base = encodeScenario(loadScenario('smoke').scenario);
    expect(() => decodeScenario({ ...base, plant: 'nope' })).toThrow(/^plant: unknown planted bug "nope"/);
    expect(decodeScenario({ ...base, plant: 'lock-rule' }).plant).toBe('lock-rule');
  });

  it("every plant names an oracle of the suite as its rule's guard", () => {
    const names = new Set(new OracleSuite(loadScenario('smoke').scenario).oracles.map((o) => o.name));
    for (const p of PLANT_NAMES) for (const guard of plantGuards(p)) expect(names, p).toContain(guard);
    expect(Object.keys(TARGETS).sort()).toEqual([...PLANT_NAMES].sort());
  });

  // Grouped by scenario file, so each group reads its scenario once.
  for (const p of PLANT_NAMES) {
    const t = TARGETS[p];
    it(`${p}: caught by ${PLANTS[p].oracle} in ${t.scenario}`, () => {
      const { scenario } = loadScenario(file(t.scenario));
      const r = runScenario({ ...scenario, plant: p }, { seed: scenario.seed ?? 1, untilMs: t.untilS * 1000 });
      expect(r.violation?.oracle, `${r.verdict}: ${r.message}`).toBe(PLANTS[p].oracle);
      // The planted code is off again for whatever runs next in this thread without a plant.
      expect(isPlanted(p)).toBe(true);
      runScenario({ ...scenario, plant: undefined }, { seed: 1, untilMs: 1000 });
      expect(isPlanted(p)).toBe(false);
    }, 30_000);
  }

  it('round-skip: also caught in the stall a round trigger aims (bft-round-skip-aimed), which passes without it', () => {
    const { scenario } = loadScenario('bft-round-skip-aimed');
    const seed = scenario.seed ?? 1;
    const planted = runScenario({ ...scenario, plant: 'round-skip' }, { seed, untilMs: 150_000 });
    expect(planted.violation?.oracle, `${planted.verdict}: ${planted.message}`).toBe('bft-progress');
    expect(planted.violation?.message).toMatch(/round skip/);
    const clean = runScenario({ ...scenario, plant: undefined }, { seed, untilMs: 150_000 });
    expect(clean.violation, clean.message).toBeNull();
    // The crashes fired at the round, not at their time.
    expect(clean.faultsFired.filter((f) => / round 2 \(svc-\d\)$/.test(f.detail))).toHaveLength(3);
  }, 30_000);

  it('a plant of the sidechain works in the worker placement too, with the same trace', async () => {
    const { scenario } = loadScenario('equivocating-producer');
    const s = { ...scenario, plant: 'fork-choice-tiebreak' as const };
    const inline = await runScenarioAsync(s, { seed: 1, untilMs: 60_000 });
    const worker = await runScenarioAsync(s, { seed: 1, untilMs: 60_000, placement: 'worker' });
    expect(inline.violation?.oracle).toBe('fork-choice');
    expect(worker.violation).toEqual(inline.violation);
    expect(worker.traceHash).toBe(inline.traceHash);
  }, 60_000);
});
