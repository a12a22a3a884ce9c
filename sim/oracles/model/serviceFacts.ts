/**
 * Lookups several service-side oracles need, each kept by the oracle that uses it: the messages of
 * delivered transactions by hash (a side transaction's result names only its hash), and the events
 * the parent chain emitted by (tx hash, log index).
 */
import { type DeepReadonly } from '../../../src/core/readonly';
import { type ParentEventFact, type TxMsgFact } from '../../../src/node/observations';
import { type RunRecord } from '../oracle';

/** Side messages: their effects come two blocks after delivery, from the side-tx result. */
const SIDE_TYPES: ReadonlySet<string> = new Set([
  'topup/MsgTopup',
  'staking/MsgSignerUpdate',
  'checkpoint/MsgCheckpoint',
  'checkpoint/MsgCheckpointACK',
  'sidechain/MsgProposeSpan',
]);

/** Messages of side transactions delivered successfully, by tx hash (a side-tx result names only the hash). */
export class DeliveredMsgs {
  private readonly byHash = new Map<string, DeepReadonly<TxMsgFact>>();
  /** Results lists already read: every node reports a block's (one shared list per block run). */
  private readonly read = new WeakSet<object>();

  observe(r: RunRecord): void {
    if (r.obs.kind !== 'service.commit' || this.read.has(r.obs.txs)) return;
    this.read.add(r.obs.txs);
    for (const t of r.obs.txs)
      if (t.code === 0 && t.msg !== null && SIDE_TYPES.has(t.msg.type)) this.byHash.set(t.hash, t.msg);
  }

  get(txHash: string): DeepReadonly<TxMsgFact> | undefined {
    return this.byHash.get(txHash);
  }
}

export class ParentEvents {
  private readonly byKey = new Map<string, ParentEventFact>();

  observe(r: RunRecord): void {
    if (r.obs.kind !== 'parent.block') return;
    for (const e of r.obs.events) this.byKey.set(`${e.txHash}/${e.logIndex}`, e);
  }

  get(txHash: string, logIndex: bigint): ParentEventFact | undefined {
    return this.byKey.get(`${txHash}/${logIndex}`);
  }
}
