/**
 * The round-proposer oracle on four equal validators A < B < C < D (Tendermint's rotation gives
 * A, B, C, D, A, … — the public vector of sidechain.md §2.3): the proposer of round r at height h
 * is the (h − 1 + r)-th. Silent on correct proposals and on proposals a node only passes on;
 * fires on a node proposing in a round that is not its own; follows a validator update.
 */
import { describe, expect, it } from 'vitest';
import { type Observation } from '../../src/node/observations';
import { ConsensusSets } from './model/consensusSets';
import { RoundProposerOracle } from './roundProposer';
import { VALIDATORS, commit, hash, rec } from './testing/observations';

const ADDR = VALIDATORS.map((v) => v.signer);
const addressOf = (node: string) => ADDR[Number(node.slice(4)) - 1];

function harness() {
  const oracle = new RoundProposerOracle(addressOf);
  let t = 0;
  const feed = (node: string, obs: Observation) => oracle.observe(rec(++t, node, obs));
  feed('svc-1', {
    kind: 'consensus.setChange',
    height: 1n,
    changes: VALIDATORS.map((v) => ({ address: v.signer, power: v.power })),
  });
  return { oracle, feed };
}

const proposal = (height: bigint, round: number, by: number): Observation => ({
  kind: 'consensus.proposal',
  height,
  round,
  blockHash: hash(`b${height}/${round}`),
  polRound: -1,
  proposer: ADDR[by - 1]!,
});

describe('round-proposer oracle', () => {
  it('is silent on each round proposed by its proposer, across heights', () => {
    const { oracle, feed } = harness();
    feed('svc-1', proposal(1n, 0, 1));
    feed('svc-2', proposal(1n, 1, 2));
    feed('svc-4', proposal(1n, 3, 4));
    feed('svc-1', commit(1n));
    feed('svc-2', proposal(2n, 0, 2));
    feed('svc-4', proposal(2n, 2, 4));
    // A proposal svc-3 only passes on (a Byzantine one, in a round B does not own) is not judged.
    feed('svc-3', proposal(2n, 0, 1));
    expect(oracle.violation).toBeNull();
    expect(oracle.exercised.has('consensus.proposer.round-rotation')).toBe(true);
  });

  it('fires on a node proposing in a round whose proposer is another', () => {
    const { oracle, feed } = harness();
    feed('svc-3', proposal(1n, 1, 3));
    expect(oracle.violation).toMatchObject({ oracle: 'round-proposer', class: 'safety', node: 'svc-3' });
    expect(oracle.violation!.message).toMatch(
      new RegExp(`proposed at height 1 round 1, whose proposer by priority is ${ADDR[1]}`),
    );
  });

  it('takes in a validator update for the next height (a new member enters behind the others)', () => {
    const sets = new ConsensusSets();
    const feed = (obs: Observation) => sets.observe(rec(1, 'svc-1', obs));
    feed({
      kind: 'consensus.setChange',
      height: 1n,
      changes: VALIDATORS.map((v) => ({ address: v.signer, power: v.power })),
    });
    feed(commit(1n));
    feed({ kind: 'consensus.setChange', height: 2n, changes: [{ address: ADDR[0]!, power: 0n }] });
    expect(sets.at(2n)?.validators.map((v) => v.address)).toEqual(ADDR.slice(1));
    expect(sets.proposerOf(2n, 0)).toBe(ADDR[1]);
    // Height 3 is not known until block 2 is committed.
    expect(sets.at(3n)).toBeUndefined();
    feed(commit(2n));
    expect(sets.proposerOf(3n, 0)).toBe(ADDR[2]);
  });
});
