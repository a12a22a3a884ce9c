/**
 * The Byzantine fault kinds do what they say on a running network, and a correct network shrugs
 * them off: the mutated consensus messages are sent (signed by the Byzantine validator) and
 * honest nodes keep agreeing and committing; every transaction a Byzantine sender makes is
 * refused; every block an outsider seals is refused by every sidechain node.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../scenario/load';
import { type Scenario } from '../scenario/scenario';
import { decodeScenario } from '../scenario/decodeScenario';
import { encodeScenario } from '../scenario/encodeScenario';
import { type RunRecord } from '../core/record';
import { runScenario } from '../run/run';

/** The smoke network (4 equal validators, fast crypto) with these faults and a top-up. */
function smokeWith(faults: unknown[], duration: string, params: Record<string, unknown> = {}): Scenario {
  const base = encodeScenario(loadScenario('smoke').scenario);
  return decodeScenario({
    ...base,
    name: 'byzantine',
    duration,
    params: { ...(base.params as object), ...params },
    faults,
    expect: { verdict: 'pass' },
  });
}

function run(s: Scenario, seed = 1): { records: RunRecord[]; r: ReturnType<typeof runScenario> } {
  const records: RunRecord[] = [];
  const r = runScenario(s, { seed, onRecord: (x) => void records.push(x) });
  return { records, r };
}

describe('Byzantine faults on a running network', () => {
  it('consensus mutations by a quarter of the power: sent, signed by their validator, and honest nodes still agree', () => {
    const s = smokeWith(
      [
        { kind: 'roundShift', validators: [2], at: '5s', for: '25s' },
        { kind: 'splitVote', validators: [2], at: '30s', for: '25s' },
        { kind: 'replayMessages', validators: [2], at: '55s', for: '25s' },
      ],
      '90s',
    );
    const { records, r } = run(s);
    expect(r.verdict, r.message).toBe('pass');
    const v2 = r.main.validators[1]!.signer;
    const wrapper = records.filter((x) => x.obs.kind === 'consensus.vote' && x.obs.origin === 'wrapper');
    // Shifted and split votes are signed with validator 2's key, on its node, and nobody else's.
    expect(wrapper.length).toBeGreaterThan(10);
    for (const w of wrapper) {
      expect(w.node).toBe('svc-2');
      expect(w.obs.kind === 'consensus.vote' && w.obs.vote.validator).toBe(v2);
    }
    // Each is the validator's own vote moved by one round (roundShift) or for another block (splitVote).
    const own = records.flatMap((x) =>
      x.obs.kind === 'consensus.vote' && x.obs.origin === 'consensus' && x.node === 'svc-2' ? [x.obs.vote] : [],
    );
    const shifted = wrapper.filter((w) => w.t < 30_000);
    const split = wrapper.filter((w) => w.t >= 30_000 && w.t < 55_000);
    expect(shifted.length).toBeGreaterThan(0);
    expect(split.length).toBeGreaterThan(0);
    for (const w of shifted) {
      const v = w.obs.kind === 'consensus.vote' ? w.obs.vote : null;
      expect(
        own.some(
          (o) =>
            o.height === v!.height &&
            o.type === v!.type &&
            o.blockHash === v!.blockHash &&
            Math.abs(o.round - v!.round) === 1,
        ),
      ).toBe(true);
    }
    for (const w of split) {
      const v = w.obs.kind === 'consensus.vote' ? w.obs.vote : null;
      expect(
        own.some(
          (o) => o.height === v!.height && o.type === v!.type && o.round === v!.round && o.blockHash !== v!.blockHash,
        ),
      ).toBe(true);
    }
    // Blocks kept coming while the faults were on.
    const commits = records.filter((x) => x.obs.kind === 'service.commit' && x.node === 'svc-1' && x.t > 5_000);
    expect(commits.length).toBeGreaterThan(20);
  }, 60_000);

  it('a Byzantine sender: what it puts in its own blocks is delivered and refused with the reference code', () => {
    const s = smokeWith(
      [{ kind: 'byzantineTxs', validator: 3, at: '10s', everyBlocks: 1, perBlock: 4 }],
      '150s',
      // A long buffer time: a no-ack is early whenever it comes.
      { checkpointBufferTime: '20m' },
    );
    const { records, r } = run(s);
    expect(r.verdict, r.message).toBe('pass');
    // Crafted into the blocks validator 3 proposed, and gossiped.
    const crafted = records.filter((x) => x.obs.kind === 'byzantine.tx');
    expect(crafted.every((x) => x.node === 'svc-3')).toBe(true);
    expect(crafted.some((x) => x.obs.kind === 'byzantine.tx' && x.obs.via === 'gossip')).toBe(true);
    // Every judged tx its committed blocks delivered got the reference's answer; many kinds got there.
    const kinds = Object.entries(r.reach.byzantine).filter(([k]) => !k.endsWith('/setup'));
    for (const [kind, b] of kinds) expect(b.asExpected + b.unjudged + b.pending, kind).toBe(b.delivered);
    expect(kinds.filter(([, b]) => b.asExpected > 0).length).toBeGreaterThan(30);
  }, 60_000);

  it('an outsider sealing blocks: every sidechain node refuses every one of them', () => {
    const s = smokeWith([{ kind: 'outsiderBlocks', at: '5s', for: '60s', everyBlocks: 2 }], '80s');
    const { records, r } = run(s);
    expect(r.verdict, r.message).toBe('pass');
    const rejected = records.filter(
      (x) => x.obs.kind === 'sidechain.rejected' && /is not a part of the producer set/.test(x.obs.reason),
    );
    expect(new Set(rejected.map((x) => x.node))).toEqual(new Set(['sc-1', 'sc-2', 'sc-3', 'sc-4']));
    expect(new Set(rejected.map((x) => (x.obs.kind === 'sidechain.rejected' ? x.obs.hash : ''))).size).toBeGreaterThan(
      5,
    );
    const producers = new Set(r.main.validators.map((k) => k.signer));
    for (const x of records)
      if (x.obs.kind === 'sidechain.imported') expect(producers.has(x.obs.block.signer)).toBe(true);
  }, 60_000);
});
