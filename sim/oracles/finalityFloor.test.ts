/**
 * The finality-floor oracle on hand-built chains: a checkpoint of blocks 1..4 acked by svc-1 at
 * 10 s, read by sc-1. Silent when the node makes block 4 its floor in time; fires when the floor
 * is left unmoved past one fetch, when a reported floor is no acked checkpoint's end or not its
 * chain's block there, when the floor goes down, and on a reorg below the floor (but not on the
 * switch to a checkpointed fork, which leaves the losing branch below the new floor).
 */
import { describe, expect, it } from 'vitest';
import { type Hex } from '../../src/core/bytes';
import { type RunObservation } from '../core/record';
import { type Observation, type SidechainBlockFact } from '../../src/node/observations';
import { FinalityFloorOracle } from './finalityFloor';
import { blockLeaf, merkleRoot } from './model/merkle';
import { SidechainModel } from './model/sidechainModel';
import { PARAMS, commit, hash, imported, inTurnChain, rec, sidechainStarted } from './testing/observations';

const FETCH_MS = 5_000;
const chain = inTurnChain(8);
const root = (blocks: SidechainBlockFact[]): Hex => merkleRoot(blocks.map((b) => blockLeaf(b)));

function harness() {
  const model = new SidechainModel(PARAMS);
  const oracle = new FinalityFloorOracle(model, FETCH_MS);
  const feed = (t: number, node: string, obs: RunObservation) => {
    const r = rec(t, node, obs);
    model.observe(r);
    oracle.observe(r);
  };
  feed(0, 'sc-1', { ...sidechainStarted(), serviceNode: 'svc-1' } as Observation);
  for (const b of chain) feed(1000, 'sc-1', imported(b));
  return { oracle, feed };
}

const ack = (number: bigint, start: number, end: number, rootHash: Hex = root(chain.slice(start - 1, end))) =>
  commit(1n, {
    writes: [
      {
        what: 'checkpoint',
        number,
        proposer: chain[0]!.signer,
        startBlock: BigInt(start),
        endBlock: BigInt(end),
        rootHash,
        accountRootHash: hash('accounts'),
        timestampS: 0n,
      },
    ],
  });
/** A record the oracle reads that changes nothing it judges (a commit without writes): its due checks run. */
const tick = (_t: number): Observation => commit(2n);

describe('finality-floor oracle', () => {
  it('is silent when the node makes the acked end block its floor within a fetch', () => {
    const { oracle, feed } = harness();
    feed(10_000, 'svc-1', ack(1n, 1, 4));
    feed(12_000, 'sc-1', { kind: 'sidechain.finalized', number: 4n, hash: chain[3]!.hash });
    feed(20_000, 'svc-1', tick(20_000));
    oracle.finish(20_000);
    expect(oracle.violation).toBeNull();
    expect([...oracle.exercised].sort()).toEqual([
      'sidechain.finality.floor-after-ack',
      'sidechain.finality.floor-is-acked-end',
    ]);
  });

  it('fires when the floor is left unmoved past one fetch after the ack', () => {
    const { oracle, feed } = harness();
    feed(10_000, 'svc-1', ack(1n, 1, 4));
    feed(20_000, 'svc-1', tick(20_000));
    expect(oracle.violation).toMatchObject({ oracle: 'finality-floor', node: 'sc-1', atMs: 15_000 });
    expect(oracle.violation!.message).toMatch(/checkpoint 1 \(1\.\.4\) was acked .* its finality floor is unset/);
  });

  it('does not ask for the floor when the chain does not hold the acked range, or a fault was in force', () => {
    const a = harness();
    a.feed(10_000, 'svc-1', ack(1n, 1, 4, hash('another fork')));
    a.oracle.finish(30_000);
    expect(a.oracle.violation).toBeNull();
    const b = harness();
    const f = { index: 0, fault: 'pause', detail: 'sc-1', permanent: false, atHeight: null };
    b.feed(9000, '', { kind: 'fault.start', ...f });
    b.feed(10_000, 'svc-1', ack(1n, 1, 4));
    b.feed(11_000, '', { kind: 'fault.end', ...f });
    b.oracle.finish(30_000);
    expect(b.oracle.violation).toBeNull();
  });

  it('fires on a floor that is not an acked end, not on the chain, or going down', () => {
    const a = harness();
    a.feed(12_000, 'sc-1', { kind: 'sidechain.finalized', number: 4n, hash: chain[3]!.hash });
    expect(a.oracle.violation?.message).toMatch(/not the end of a checkpoint its service node svc-1 acked/);
    const b = harness();
    b.feed(10_000, 'svc-1', ack(1n, 1, 4));
    b.feed(12_000, 'sc-1', { kind: 'sidechain.finalized', number: 4n, hash: hash('elsewhere') });
    expect(b.oracle.violation?.message).toMatch(/is not on its canonical chain/);
    const c = harness();
    c.feed(10_000, 'svc-1', ack(1n, 1, 8));
    c.feed(10_500, 'svc-1', ack(2n, 1, 4));
    c.feed(11_000, 'sc-1', { kind: 'sidechain.finalized', number: 8n, hash: chain[7]!.hash });
    c.feed(12_000, 'sc-1', { kind: 'sidechain.finalized', number: 4n, hash: chain[3]!.hash });
    expect(c.oracle.violation?.message).toMatch(/went down from 8 to 4/);
  });

  it('fires on a reorg below the floor, not on the switch to a checkpointed fork', () => {
    const { oracle, feed } = harness();
    feed(10_000, 'svc-1', ack(1n, 1, 4));
    feed(11_000, 'sc-1', { kind: 'sidechain.finalized', number: 4n, hash: chain[3]!.hash });
    feed(12_000, 'svc-1', ack(2n, 5, 8));
    // The switch to checkpoint 2's fork, and the reorg it makes through block 6 (below 8, above 4).
    const head = { hash: chain[7]!.hash, number: 8n };
    feed(13_000, 'sc-1', { kind: 'sidechain.checkpointFork', start: 5n, end: 8n, fork: chain[7]!.hash, head });
    feed(13_000, 'sc-1', {
      kind: 'sidechain.reorg',
      depth: 2,
      oldHead: hash('x'),
      newHead: chain[7]!.hash,
      ancestor: 6n,
    });
    expect(oracle.violation).toBeNull();
    feed(14_000, 'sc-1', {
      kind: 'sidechain.reorg',
      depth: 3,
      oldHead: chain[7]!.hash,
      newHead: hash('y'),
      ancestor: 5n,
    });
    expect(oracle.violation).toMatchObject({ oracle: 'finality-floor', node: 'sc-1' });
    expect(oracle.violation!.message).toMatch(/through block 5, below its finality floor 8/);
  });
});
