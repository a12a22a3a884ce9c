/** The clerk keeper's assertions: a record id and an event are each written once. */
import { describe, expect, it } from 'vitest';
import { type Hex } from '../../core/bytes';
import { TestChain } from '../../app/testing/testChain';
import { idKey } from '../framework/storeKeys';
import { type EventRecord, getRecord, markClerkSeq, setRecord } from './keeper';

const record = (id: bigint, logIndex: bigint): EventRecord => ({
  id,
  contract: '0x0000000000000000000000000000000000000001',
  data: '0x',
  txHash: `0x${'33'.repeat(32)}` as Hex,
  logIndex,
  sidechainChainId: '15001',
  recordTimeMs: 0,
});

describe('clerk keeper', () => {
  it('writes: each id once, each event once; reads: a record under another id is refused', () => {
    const s = new TestChain({ validators: 1 }).app.store.branch();
    setRecord(s, record(1n, 0n));
    markClerkSeq(s, record(1n, 0n).txHash, 0n);
    expect(() => setRecord(s, record(1n, 5n))).toThrow(/an event record id is written once/);
    expect(() => setRecord(s, record(2n, 0n))).toThrow(/an event is recorded once/);
    expect(() => markClerkSeq(s, record(1n, 0n).txHash, 0n)).toThrow(/an event is marked seen once/);
    s.set(`clerk/record/${idKey(9n)}`, record(1n, 0n));
    expect(() => getRecord(s, 9n)).toThrow(/an event record is stored under its id/);
  });
});
