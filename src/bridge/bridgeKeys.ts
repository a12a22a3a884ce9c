/**
 * The keys the bridge tracks its work by, and the key of a transaction in a mempool: the same
 * parent-chain event, span or checkpoint gives the same key, so a relay already waiting in the
 * mempool (this validator's or another's, gossiped) is not sent again.
 */
import { type Hex } from '../core/bytes';
import { type StdTx } from '../modules/auth/stdTx';
import { type DeepReadonly } from '../core/readonly';

/** A parent-chain log, by where it is. */
export function eventKey(txHash: Hex | string, logIndex: bigint): string {
  return `${txHash}/${logIndex}`;
}

export function spanKey(id: bigint): string {
  return `span/${id}`;
}

export function checkpointKey(start: bigint, end: bigint, rootHash: Hex | string): string {
  return `checkpoint/${start}/${end}/${rootHash}`;
}

/** The bridge key of a tx: an event relay, a span proposal or a checkpoint; null for anything else. */
export function bridgeKeyOf(tx: DeepReadonly<StdTx>): string | null {
  const m = tx.msg as Record<string, unknown>;
  if (typeof m.txHash === 'string' && typeof m.logIndex === 'bigint') return eventKey(m.txHash, m.logIndex);
  if (tx.def.type === 'sidechain/MsgProposeSpan') return spanKey(m.spanId as bigint);
  if (tx.def.type === 'checkpoint/MsgCheckpoint')
    return checkpointKey(m.startBlock as bigint, m.endBlock as bigint, m.rootHash as Hex);
  return null;
}
