/**
 * The bridge-confirmations oracle with 6 parent and 10 sidechain confirmations: silent on relays,
 * proposals and yes votes at the depth; fires one block short, on a yes vote for an event the view
 * does not hold, on a view whose parent head is ahead of the parent chain, and on an event read in
 * another block than the parent chain's. No and skip votes, and votes on acks, ask for no depth.
 */
import { describe, expect, it } from 'vitest';
import { type Hex } from '../../src/core/bytes';
import { type Observation } from '../../src/node/observations';
import { BridgeConfirmationsOracle } from './bridgeConfirmations';
import { hash, rec } from './testing/observations';

const EVENT: Hex = `0x${'ab'.repeat(32)}`;

function harness(parentHead = 20n) {
  const oracle = new BridgeConfirmationsOracle(6n, 10n);
  let t = 0;
  const feed = (obs: Observation) => oracle.observe(rec(++t, 'svc-1', obs));
  for (let n = 0n; n <= parentHead; n++)
    feed({
      kind: 'parent.block',
      number: n,
      hash: hash(`p${n}`),
      timeMs: Number(n) * 12_000,
      txs: n === 10n ? 1 : 0,
      events:
        n === 10n ? [{ event: 'TopUpFee', txHash: EVENT, logIndex: 0n, user: `0x${'01'.repeat(20)}`, fee: 1n }] : [],
    });
  return { oracle, feed };
}

const relay = (head: bigint, eventBlock = 10n): Observation => ({
  kind: 'bridge.tx',
  msgType: 'topup/MsgTopup',
  key: `${EVENT}/0`,
  parent: { eventBlock, head },
});
const vote = (
  v: 'yes' | 'no' | 'skip',
  parent: { eventBlock: bigint | null; head: bigint | null },
  msgType = 'topup/MsgTopup',
): Observation => ({
  kind: 'side.voteRead',
  height: 5n,
  txHash: hash('svc tx'),
  msgType,
  vote: v,
  parent,
  sidechain: null,
});
const cpVote = (end: bigint, head: bigint): Observation => ({
  kind: 'side.voteRead',
  height: 5n,
  txHash: hash('svc tx'),
  msgType: 'checkpoint/MsgCheckpoint',
  vote: 'yes',
  parent: null,
  sidechain: { endBlock: end, head },
});
const checkpoint = (end: bigint, head: bigint): Observation => ({
  kind: 'bridge.tx',
  msgType: 'checkpoint/MsgCheckpoint',
  key: `checkpoint/0/${end}/0x00`,
  sidechain: { endBlock: end, head },
});

describe('bridge-confirmations oracle', () => {
  it('is silent on relays, proposals and yes votes at the configured depth', () => {
    const { oracle, feed } = harness();
    feed(relay(16n));
    feed(vote('yes', { eventBlock: 10n, head: 16n }));
    feed(checkpoint(31n, 41n));
    feed(cpVote(31n, 41n));
    // Votes that are not yes, and votes on acks, act on nothing.
    feed(vote('skip', { eventBlock: null, head: 12n }));
    feed(vote('yes', { eventBlock: 10n, head: 11n }, 'checkpoint/MsgCheckpointACK'));
    expect(oracle.violation).toBeNull();
    expect(oracle.exercised.size).toBe(5);
  });

  it('fires on a relay whose message is not the one its parent-chain event leads to', () => {
    const { oracle, feed } = harness();
    feed({ ...relay(16n), msgType: 'staking/MsgValidatorJoin' } as Observation);
    expect(oracle.violation?.message).toMatch(/relayed staking\/MsgValidatorJoin .* a TopUpFee event, not Staked/);
  });

  it('fires on a relay one confirmation short', () => {
    const { oracle, feed } = harness();
    feed(relay(15n));
    expect(oracle.violation).toMatchObject({ oracle: 'bridge-confirmations', class: 'safety', node: 'svc-1' });
    expect(oracle.violation!.message).toMatch(/relayed topup\/MsgTopup .* with 5 confirmations .* 6 are required/);
  });

  it('fires on a yes vote one short, or on an event the view does not hold', () => {
    const a = harness();
    a.feed(vote('yes', { eventBlock: 10n, head: 15n }));
    expect(a.oracle.violation?.message).toMatch(/voted yes on topup\/MsgTopup .* with 5 confirmations/);
    const b = harness();
    b.feed(vote('yes', { eventBlock: null, head: 20n }));
    expect(b.oracle.violation?.message).toMatch(/with no confirmations \(event block unknown/);
  });

  it('fires on a checkpoint proposed or voted for with its end one confirmation short', () => {
    const a = harness();
    a.feed(checkpoint(31n, 40n));
    expect(a.oracle.violation?.message).toMatch(/range ending at 31 with 9 confirmations .* 10 are required/);
    const b = harness();
    b.feed(cpVote(31n, 40n));
    expect(b.oracle.violation?.message).toMatch(/voted yes on checkpoint\/MsgCheckpoint/);
  });

  it("fires when the view's facts disagree with the parent chain's", () => {
    const a = harness();
    a.feed(relay(21n));
    expect(a.oracle.violation?.message).toMatch(/view of the parent head \(21\) is ahead of the parent chain's \(20\)/);
    const b = harness();
    b.feed(relay(20n, 12n));
    expect(b.oracle.violation?.message).toMatch(
      /read the event in parent block 12, the parent chain has it in block 10/,
    );
  });
});
