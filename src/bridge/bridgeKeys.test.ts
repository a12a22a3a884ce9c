/**
 * The mempool key of a tx is the key the bridge tracks the same work by: a relay or proposal
 * already waiting (gossiped from another validator, or made here) is not sent again.
 */
import { describe, expect, it } from 'vitest';
import { TestChain, testKey } from '../app/testing/testChain';
import { fakeTxHash } from '../app/testing/fakeObservers';
import { decodeTxBytes } from '../app/decodedTx';
import { toHex } from '../core/bytes';
import { MsgSendDef } from '../modules/bank/msgs';
import { MsgCheckpointDef, MsgCheckpointNoAckDef } from '../modules/checkpoint/msgs';
import { MsgEventRecordDef } from '../modules/clerk/msgs';
import { MsgProposeSpanDef } from '../modules/span/msgs';
import { MsgTopupDef } from '../modules/topup/msgs';
import { bridgeKeyOf, checkpointKey, eventKey, spanKey } from './bridgeKeys';

describe('bridge keys', () => {
  const chain = new TestChain({ validators: 2 });
  const v = chain.validators[0]!;
  const keyOf = (raw: Uint8Array) => bridgeKeyOf(decodeTxBytes(raw).tx!);
  const hash = fakeTxHash('bridge-keys');

  it('an event relay, a span proposal and a checkpoint carry the keys the bridge makes for them', () => {
    expect(keyOf(chain.tx(MsgTopupDef, { fromAddress: v.address, id: 1n, txHash: hash, logIndex: 3n }, v))).toBe(
      eventKey(hash, 3n),
    );
    const record = {
      from: v.address,
      txHash: hash,
      logIndex: 4n,
      id: 1n,
      contractAddress: testKey('receiver').address,
      data: '0x' as const,
      sidechainChainId: '15001',
    };
    expect(keyOf(chain.tx(MsgEventRecordDef, record, v))).toBe(`${hash}/4`);
    const span = { spanId: 2n, proposer: v.address, startBlock: 256n, endBlock: 1855n, sidechainChainId: '15001' };
    expect(keyOf(chain.tx(MsgProposeSpanDef, span, v))).toBe(spanKey(2n));
    const root = toHex(new Uint8Array(32).fill(9));
    const cp = { proposer: v.address, startBlock: 0n, endBlock: 31n, rootHash: root, accountRootHash: root };
    expect(keyOf(chain.tx(MsgCheckpointDef, cp, v))).toBe(checkpointKey(0n, 31n, root));
  });

  it('anything else has none (a no-ack is keyed by the bridge when it makes one)', () => {
    const send = { fromAddress: v.address, toAddress: testKey('x').address, amount: [{ denom: 'matic', amount: 1n }] };
    expect(keyOf(chain.tx(MsgSendDef, send, v))).toBeNull();
    expect(keyOf(chain.tx(MsgCheckpointNoAckDef, { from: v.address }, v))).toBeNull();
  });
});
