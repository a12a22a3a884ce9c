/**
 * The bft-progress oracle on four equal validators, with the default timings and a 100 ms worst
 * latency: a calm height must commit in round 0 within commitTimeout + 4L = 2400 ms of the
 * previous commit; once validators with more than 1/3 of the power voted in a later round, every
 * node still deciding the height must be there within gossip + L = 3100 ms.
 */
import { describe, expect, it } from 'vitest';
import { type RunObservation } from '../core/record';
import { type Observation } from '../../src/node/observations';
import { BftProgressOracle, bftProgressBounds } from './bftProgress';
import { ConsensusSets } from './model/consensusSets';
import { DEFAULT_ORACLE_TIMINGS } from './timings';
import { VALIDATORS, commit, commitFactOf, hash, precommits, rec } from './testing/observations';

const ADDR = VALIDATORS.map((v) => v.signer);
const NODES = ['svc-1', 'svc-2', 'svc-3', 'svc-4'];
const addressOf = (node: string) => ADDR[Number(node.slice(4)) - 1];

/** The round-0 proposer of `height` (as the oracle's own model has it), by signer address. */
function roundZeroProposer(height: bigint): (typeof ADDR)[number] {
  const sets = new ConsensusSets();
  sets.observe(
    rec(0, 'svc-1', {
      kind: 'consensus.setChange',
      height: 1n,
      changes: VALIDATORS.map((v) => ({ address: v.signer, power: v.power })),
    }),
  );
  sets.observe(rec(0, 'svc-1', commit(height - 1n)));
  const p = sets.proposerOf(height, 0)!;
  return ADDR.find((a) => a.toLowerCase() === p)!;
}

function harness(loss = 0) {
  const bounds = bftProgressBounds(DEFAULT_ORACLE_TIMINGS, 100, loss);
  const oracle = new BftProgressOracle(bounds, addressOf);
  const feed = (t: number, node: string, obs: RunObservation) => oracle.observe(rec(t, node, obs));
  feed(0, 'svc-1', {
    kind: 'consensus.setChange',
    height: 1n,
    changes: VALIDATORS.map((v) => ({ address: v.signer, power: v.power })),
  });
  for (const n of NODES) feed(0, n, { kind: 'service.started', height: 0n });
  /** Every node commits `height` (in `round`) at `t`; `live`: each took in a proposal of it first (it decided the height). */
  const commitAll = (t: number, height: bigint, round = 0, live = true) => {
    const blockHash = hash(`block${height}`);
    for (const n of NODES) {
      if (live) feed(t, n, { kind: 'consensus.proposal', height, round, blockHash, polRound: -1, proposer: ADDR[0]! });
      feed(
        t,
        n,
        commit(height, {
          blockHash,
          commit: commitFactOf(height, blockHash, precommits(height, round, blockHash, ADDR), ADDR),
        }),
      );
    }
  };
  return { oracle, feed, commitAll, bounds };
}

describe('bft-progress oracle', () => {
  it('derives its bounds from the timings and the latency', () => {
    expect(harness().bounds).toEqual({
      heightMs: 2400,
      skipMs: 3100,
      marginMs: 3100 + 2 * (2000 + 5400),
      lossy: false,
      startSkewMs: 100,
    });
  });

  it('is silent on calm heights committed in round 0 in time', () => {
    const { oracle, commitAll } = harness();
    for (let h = 1; h <= 5; h++) commitAll(h * 2300, BigInt(h));
    oracle.finish(20_000);
    expect(oracle.violation).toBeNull();
    expect(oracle.exercised.has('consensus.progress.calm-round-zero')).toBe(true);
  });

  it('fires on a calm height committed in a later round, or too slowly', () => {
    const a = harness();
    a.commitAll(2300, 1n);
    a.commitAll(4600, 2n, 1);
    expect(a.oracle.violation).toMatchObject({ oracle: 'bft-progress', class: 'liveness' });
    expect(a.oracle.violation!.message).toMatch(/height 2 committed in round 1 on a calm network/);
    const b = harness();
    b.commitAll(2300, 1n);
    b.commitAll(4800, 2n);
    expect(b.oracle.violation!.message).toMatch(/height 2 took 2500 ms .* \(bound 2400 ms\)/);
  });

  it('does not judge a height a node only fetched (a block sync decided by the others)', () => {
    const { oracle, commitAll } = harness();
    commitAll(2300, 1n);
    // Heights 2 and 3 arrive in one sync batch: no proposal of them reached the nodes' consensus.
    commitAll(4600, 2n, 1, false);
    commitAll(4600, 3n, 2, false);
    expect(oracle.violation).toBeNull();
    commitAll(6900, 4n, 1);
    expect(oracle.violation!.message).toMatch(/height 4 committed in round 1 on a calm network/);
  });

  it('does not judge a height whose round-0 proposer was still catching up (began it late)', () => {
    // The false alarm of an 8-minute checkpoint-proposer outage: the proposer's node came back,
    // was still fetching the heights it missed when the others began the height, and proposed
    // after their propose timeout; they moved to round 1, as CometBFT does while a node is in
    // block sync. Found as scenarios/regressions/bft-progress-proposer-catching-up.json.
    const { oracle, feed, commitAll } = harness();
    commitAll(2300, 1n);
    const proposer = NODES[ADDR.indexOf(roundZeroProposer(2n))]!;
    const others = NODES.filter((n) => n !== proposer);
    const blockHash = hash('block2');
    // The proposer syncs to height 1 only at 7000 ms (its position for height 2 begins then).
    feed(2300, proposer, { kind: 'service.synced', height: 0n });
    feed(7000, proposer, { kind: 'service.synced', height: 1n });
    for (const n of [...others, proposer]) {
      feed(7100, n, { kind: 'consensus.proposal', height: 2n, round: 1, blockHash, polRound: -1, proposer: ADDR[0]! });
      feed(
        7200,
        n,
        commit(2n, { blockHash, commit: commitFactOf(2n, blockHash, precommits(2n, 1, blockHash, ADDR), ADDR) }),
      );
    }
    expect(oracle.violation).toBeNull();
    // A proposer that began the height as late but without a sync (it committed the previous
    // height late itself) is slow consensus: judged.
    const b = harness();
    const hash1 = hash('block1');
    const commit1 = commit(1n, {
      blockHash: hash1,
      commit: commitFactOf(1n, hash1, precommits(1n, 0, hash1, ADDR), ADDR),
    });
    for (const n of others) {
      b.feed(2300, n, {
        kind: 'consensus.proposal',
        height: 1n,
        round: 0,
        blockHash: hash1,
        polRound: -1,
        proposer: ADDR[0]!,
      });
      b.feed(2300, n, commit1);
    }
    b.feed(7000, proposer, {
      kind: 'consensus.proposal',
      height: 1n,
      round: 0,
      blockHash: hash1,
      polRound: -1,
      proposer: ADDR[0]!,
    });
    b.feed(7000, proposer, commit1);
    for (const n of [...others, proposer]) {
      b.feed(7100, n, {
        kind: 'consensus.proposal',
        height: 2n,
        round: 1,
        blockHash,
        polRound: -1,
        proposer: ADDR[0]!,
      });
      b.feed(
        7200,
        n,
        commit(2n, { blockHash, commit: commitFactOf(2n, blockHash, precommits(2n, 1, blockHash, ADDR), ADDR) }),
      );
    }
    expect(b.oracle.violation!.message).toMatch(/height 2 committed in round 1/);
  });

  it('does not judge heights near a fault, nor on a lossy network', () => {
    const a = harness();
    const f = { index: 0, fault: 'crash', detail: 'svc-2', permanent: false, atHeight: null };
    a.feed(1000, '', { kind: 'fault.start', ...f });
    a.commitAll(2300, 1n);
    a.feed(3000, '', { kind: 'fault.end', ...f });
    a.commitAll(6000, 2n, 2);
    expect(a.oracle.violation).toBeNull();
    const b = harness(0.01);
    b.commitAll(2300, 1n);
    b.commitAll(9000, 2n, 3);
    expect(b.oracle.violation).toBeNull();
  });

  const vote = (height: bigint, round: number, by: number): Observation => ({
    kind: 'consensus.vote',
    vote: { type: 'prevote', height, round, blockHash: null, validator: ADDR[by - 1]! },
    origin: 'consensus',
  });

  /**
   * svc-1 and svc-2 (half the power) vote in round 2 of height 2 at 5000 and svc-3 follows them;
   * svc-4 stays in round 0. `probe(t)` feeds a record the oracle reads (its due skips are judged at
   * such records): a proposal of a node it does not place.
   */
  function stuckInRound2() {
    const h = harness();
    h.commitAll(2300, 1n);
    for (const n of [1, 2]) {
      h.feed(5000, `svc-${n}`, { kind: 'consensus.round', height: 2n, round: 2 });
      h.feed(5000, `svc-${n}`, vote(2n, 2, n));
    }
    h.feed(5500, 'svc-3', { kind: 'consensus.round', height: 2n, round: 2 });
    const probe = (t: number) =>
      h.feed(t, 'svc-9', {
        kind: 'consensus.proposal',
        height: 9n,
        round: 0,
        blockHash: hash('b9'),
        polRound: -1,
        proposer: ADDR[0]!,
      });
    return { ...h, probe };
  }

  it('fires when a node stays below a round f + 1 of the power voted in (no round skip)', () => {
    const { oracle, probe } = stuckInRound2();
    expect(oracle.violation).toBeNull();
    probe(8200);
    expect(oracle.violation).toMatchObject({ oracle: 'bft-progress', node: 'svc-4', atMs: 8100 });
    expect(oracle.violation!.message).toMatch(/still in round 0 of height 2 3100 ms after .* voted in round 2/);
  });

  it('gives a node that comes to the height late its own skip period, counted from its arrival', () => {
    const { oracle, feed, probe } = stuckInRound2();
    // svc-4 restarts (at height 1) and comes to height 2 after a block sync, well after the votes.
    feed(7000, 'svc-4', { kind: 'service.started', height: 1n });
    // The votes' own deadline (8100) has passed, but svc-4's (7000 + 3100) has not.
    probe(9000);
    expect(oracle.violation).toBeNull();
    probe(10_200);
    expect(oracle.violation).toMatchObject({ oracle: 'bft-progress', node: 'svc-4', atMs: 10_100 });
    expect(oracle.violation!.message).toMatch(
      /still in round 0 of height 2 3100 ms after it came to the height, where .* round 2/,
    );
  });

  it('does not ask for a skip before f + 1 voted, or once the height was committed', () => {
    const a = harness();
    a.commitAll(2300, 1n);
    a.feed(5000, 'svc-1', vote(2n, 2, 1));
    a.oracle.finish(20_000);
    expect(a.oracle.violation).toBeNull();
    const b = harness();
    b.commitAll(2300, 1n);
    // (A short fault keeps the height itself from being judged as a calm one.)
    const f = { index: 0, fault: 'pause', detail: 'svc-4', permanent: false, atHeight: null };
    b.feed(2400, '', { kind: 'fault.start', ...f });
    b.feed(2500, '', { kind: 'fault.end', ...f });
    b.feed(5000, 'svc-1', vote(2n, 2, 1));
    b.feed(5000, 'svc-2', vote(2n, 2, 2));
    b.feed(
      6000,
      'svc-1',
      commit(2n, { commit: commitFactOf(2n, hash('block2'), precommits(2n, 2, hash('block2'), ADDR), ADDR) }),
    );
    b.oracle.finish(20_000);
    expect(b.oracle.violation).toBeNull();
  });
});
