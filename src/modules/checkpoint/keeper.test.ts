/** The checkpoint keeper's assertions: the ack count grows by one, ranges continue, the buffer takes one. */
import { describe, expect, it } from 'vitest';
import { type Hex } from '../../core/bytes';
import { TestChain } from '../../app/testing/testChain';
import { idKey } from '../framework/storeKeys';
import {
  addCheckpoint,
  type Checkpoint,
  getAckCount,
  getCheckpoint,
  setAckCount,
  setBuffer,
  setLastNoAck,
} from './keeper';

const ROOT = `0x${'11'.repeat(32)}` as Hex;

describe('checkpoint keeper', () => {
  const chain = new TestChain({ validators: 2 });
  const cp = (startBlock: bigint, endBlock: bigint): Checkpoint => ({
    proposer: chain.validators[0]!.address,
    startBlock,
    endBlock,
    rootHash: ROOT,
    accountRootHash: ROOT,
    timestamp: 1n,
  });

  it('acked checkpoints continue each other from block 0, once per number; the count grows by one', () => {
    const s = chain.app.store.branch();
    expect(() => addCheckpoint(s, 1n, cp(1n, 9n))).toThrow(/an acked checkpoint's range continues the last one/);
    addCheckpoint(s, 1n, cp(0n, 9n));
    expect(() => addCheckpoint(s, 1n, cp(0n, 9n))).toThrow(/a checkpoint number is acked once/);
    expect(() => setAckCount(s, 2n)).toThrow(/the ack count starts at 0 and grows by one/);
    setAckCount(s, 1n);
    expect(getAckCount(s)).toBe(1n);
    expect(() => addCheckpoint(s, 2n, cp(11n, 20n))).toThrow(/continues the last one/);
    expect(() => addCheckpoint(s, 2n, cp(10n, 9n))).toThrow(/does not end before it starts/);
    addCheckpoint(s, 2n, cp(10n, 20n));
  });

  it('the buffer takes a checkpoint that continues the last acked one, into an empty buffer', () => {
    const s = chain.app.store.branch();
    expect(() => setBuffer(s, cp(5n, 9n))).toThrow(/a buffered checkpoint continues the last acked one/);
    setBuffer(s, cp(0n, 9n));
    expect(() => setBuffer(s, cp(0n, 9n))).toThrow(/only into an empty buffer/);
  });

  it('the last no-ack time only moves forward', () => {
    const s = chain.app.store.branch();
    setLastNoAck(s, 50n);
    expect(() => setLastNoAck(s, 49n)).toThrow(/only moves forward/);
  });

  it('reads: a checkpoint or count written past the keeper that breaks the rule is refused', () => {
    const s = chain.app.store.branch();
    s.set(`checkpoint/number/${idKey(4n)}`, cp(9n, 3n));
    expect(() => getCheckpoint(s, 4n)).toThrow(/checkpoint 4 does not end before it starts/);
    s.set('checkpoint/ack_count', -1n);
    expect(() => getAckCount(s)).toThrow(/the ack count is not negative/);
  });
});
