/**
 * Oracles that keep a model per node share it between the nodes whose models are equal
 * (nodeStates.ts). Sharing must change nothing an oracle concludes: an oracle fed a run's records
 * judges as the same oracle kept once per node (each instance fed one node's records of the
 * service and everything that is not a node's service record), in passing runs and in runs with
 * a planted bug the oracle guards: the same rules exercised, the same first violation.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../scenario/load';
import { runScenario } from '../../run/run';
import { type PlantName } from '../../../src/core/plants';
import { type Oracle, type RunRecord, type Violation } from '../oracle';
import { AccountsOracle, SupplyOracle, TopupIdempotencyOracle } from '../accounts';
import { CheckpointOracle } from '../checkpoints';
import { NodeStates, equalFacts } from './nodeStates';

const ORACLES: Array<() => Oracle> = [
  () => new AccountsOracle(),
  () => new SupplyOracle(),
  () => new TopupIdempotencyOracle(),
  () => new CheckpointOracle(),
];

const RUNS: Array<{ scenario: string; untilS: number; plant?: PlantName }> = [
  { scenario: 'every-message', untilS: 300 },
  { scenario: 'join-exit', untilS: 300 },
  { scenario: 'signer-rotation', untilS: 300 },
  { scenario: 'checkpoint-proposer-offline', untilS: 600 },
  { scenario: 'bft-two-partitioned', untilS: 300 },
  { scenario: 'smoke', untilS: 60, plant: 'send-debit' },
  { scenario: 'byzantine-sender', untilS: 120, plant: 'sequence-on-failure' },
  { scenario: 'bridge-relays', untilS: 60, plant: 'topup-replay' },
  { scenario: 'smoke', untilS: 150, plant: 'rotation-on-ack' },
  { scenario: 'checkpoint-proposer-offline', untilS: 540, plant: 'rotation-on-noack' },
];

function recordsOf(run: (typeof RUNS)[number]): RunRecord[] {
  const scenario = { ...loadScenario(run.scenario).scenario, crypto: 'fast' as const, plant: run.plant };
  const records: RunRecord[] = [];
  runScenario(scenario, { seed: 1, untilMs: run.untilS * 1000, onRecord: (r) => void records.push(r) });
  // The plant is off again for whatever runs next in this thread.
  if (run.plant) runScenario({ ...scenario, plant: undefined }, { seed: 1, untilMs: 1000 });
  return records;
}

const isNodeService = (r: RunRecord) => r.obs.kind.startsWith('service.');

/** The oracle once per service node, each fed its node's service records and every other record. */
function perNode(make: () => Oracle, records: RunRecord[]): { exercised: string[]; first: Violation | null } {
  const nodes = [...new Set(records.filter(isNodeService).map((r) => r.node))];
  const byNode = new Map(nodes.map((n) => [n, make()]));
  let first = null as { v: Violation; at: number } | null;
  records.forEach((r, i) => {
    for (const [n, o] of byNode) {
      if (isNodeService(r) && r.node !== n) continue;
      const before = o.violation;
      o.observe(r);
      if (before === null && o.violation !== null && first === null) first = { v: o.violation, at: i };
    }
  });
  const exercised = new Set<string>();
  for (const o of byNode.values()) for (const id of o.exercised) exercised.add(id);
  return { exercised: [...exercised].sort(), first: first?.v ?? null };
}

describe('node states shared between equal nodes', () => {
  it('change nothing the oracles that keep a model per node conclude', { timeout: 240_000 }, () => {
    for (const run of RUNS) {
      const records = recordsOf(run);
      let fired = false;
      for (const make of ORACLES) {
        const shared = make();
        for (const r of records) shared.observe(r);
        const label = `${shared.name} on ${run.scenario}${run.plant ? ` with ${run.plant}` : ''}`;
        expect({ exercised: [...shared.exercised].sort(), first: shared.violation }, label).toEqual(
          perNode(make, records),
        );
        fired ||= shared.violation !== null;
      }
      // A planted run must break one of these oracles' rules: the failing path is compared too.
      if (run.plant) expect(fired, `${run.plant} on ${run.scenario}`).toBe(true);
    }
  });

  it('a step is taken once per state and inputs; a node that steps apart gets its own copy', () => {
    const copies: number[] = [];
    const states = new NodeStates<{ n: number; steps: number }>((s) => {
      copies.push(s.n);
      return { ...s };
    });
    const genesis = { n: 0, steps: 0 };
    for (const node of ['a', 'b', 'c', 'd']) states.set(node, genesis);
    const x = {};
    const y = {};
    const step = (s: { n: number; steps: number }) => {
      s.n++;
      s.steps++;
    };
    expect(states.advance('a', [x, 1n], step)).toBe(true);
    expect(states.advance('b', [x, 1n], step)).toBe(false);
    expect(states.get('b')).toBe(states.get('a'));
    expect(genesis).toEqual({ n: 0, steps: 0 });
    // c takes another step from the genesis, which d still holds: a copy of its own.
    expect(states.advance('c', [y, 1n], step)).toBe(true);
    expect(states.get('c')).not.toBe(states.get('a'));
    expect(states.get('d')).toBe(genesis);
    expect(genesis).toEqual({ n: 0, steps: 0 });
    // c's state is the result d may still take (the step is held for it): c's next step copies it.
    const mine = states.get('c');
    expect(states.advance('c', [x, 2n], step)).toBe(true);
    expect(states.get('c')).not.toBe(mine);
    expect(mine).toEqual({ n: 1, steps: 1 });
    // Once d has moved on, nobody can take the step to c's state: c then steps in place.
    expect(states.advance('d', [x, 1n], step)).toBe(false);
    const now = states.get('c');
    expect(states.advance('c', [y, 3n], step)).toBe(true);
    expect(states.get('c')).toBe(now);
    // a and b share a state: a's next step copies it, b then takes a's result.
    expect(states.advance('a', [x, 2n], step)).toBe(true);
    expect(states.advance('b', [x, 2n], step)).toBe(false);
    expect(states.get('a')).toEqual({ n: 2, steps: 2 });
    expect(copies).toEqual([0, 0, 1, 1]);
  });

  it('a node that stepped ahead never changes the state a node behind it takes next', () => {
    const states = new NodeStates<{ n: number }>((s) => ({ ...s }));
    const genesis = { n: 0 };
    states.set('a', genesis);
    states.set('b', genesis);
    const [h1, h2, h3] = [{}, {}, {}];
    const step = (s: { n: number }) => void s.n++;
    // a runs two heights ahead of b; b then takes a's first result, and steps on from it itself.
    expect(states.advance('a', [h1], step)).toBe(true);
    expect(states.advance('a', [h2], step)).toBe(true);
    expect(states.get('a')).toEqual({ n: 2 });
    expect(states.advance('b', [h1], step)).toBe(false);
    expect(states.get('b')).toEqual({ n: 1 });
    expect(states.advance('b', [h2], step)).toBe(false);
    expect(states.get('b')).toEqual({ n: 2 });
    expect(states.advance('a', [h3], step)).toBe(true);
    expect(states.get('a')).toEqual({ n: 3 });
    expect(states.get('b')).toEqual({ n: 2 });
  });

  it('equalFacts is exact deep equality of plain facts', () => {
    expect(equalFacts({ a: [1n, 'x', null] }, { a: [1n, 'x', null] })).toBe(true);
    expect(equalFacts({ a: 'X' }, { a: 'x' })).toBe(false);
    expect(equalFacts({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(equalFacts([1, 2], [1, 2, 3])).toBe(false);
    expect(equalFacts({ a: undefined }, {})).toBe(false);
  });
});
