/**
 * Byzantine crafts for the clerk module: state-sync records that are too big, of an id already
 * synced, for another chain, of an event already processed (`1` 5403, 5400, 3506, 1401), of an
 * event that does not exist, or a copy of a real relay with another contract (side 5502).
 */
import { type Address } from '../../../src/core/address';
import { pendingSideTxs } from '../../../src/app/sideTx';
import { type MsgEventRecord, MsgEventRecordDef } from '../../../src/modules/clerk/msgs';
import { getChainParams } from '../../../src/modules/chain/keeper';
import { allRecords, getRecord } from '../../../src/modules/clerk/keeper';
import { type ServiceNodeShell } from '../../../src/node/service/config';
import { type Craft, SIDE_REFUSED, canPay, lastRecordId, one, one1, sign, stateSync, zeros } from './craftKit';

/**
 * Whether a delivered relay carries a StateSynced event the node's own parent view confirms, as the
 * event says it, for this chain: an honest relay, not a crafted relay of a made-up event.
 */
function relaysRealEvent(node: ServiceNodeShell, m: MsgEventRecord): boolean {
  const chain = getChainParams(node.app.store);
  const ev = node.views.parent.event(m.txHash, m.logIndex, chain.parentChainTxConfirmations);
  return (
    ev?.name === 'StateSynced' &&
    ev.id === m.id &&
    ev.contractAddress.toLowerCase() === m.contractAddress.toLowerCase() &&
    ev.data.toLowerCase() === m.data.toLowerCase() &&
    m.sidechainChainId === chain.sidechainChainId
  );
}

/** Contract addresses no StateSynced event of the simulated parent chain names. */
const OTHER_CONTRACT = '0x0000000000000000000000000000000000001002';
const ZERO_CONTRACT = '0x0000000000000000000000000000000000001003';

export const CLERK_CRAFTS = {
  // --- a message's own checks (ValidateBasic) ---
  stateSyncTooBig: (env) =>
    // 100,001 bytes of data: over the 100,000 a state-sync record may carry (5403).
    one1(sign(env, MsgEventRecordDef, stateSync(env, lastRecordId(env) + 1000n, { data: zeros(100_001) })), one(5403)),

  // --- the handler ---
  stateSyncDuplicateId(env) {
    const id = lastRecordId(env);
    if (id === 0n || !canPay(env)) return null;
    return one1(sign(env, MsgEventRecordDef, stateSync(env, id, {})), one(5400));
  },
  stateSyncWrongChainId: (env) =>
    canPay(env)
      ? one1(
          sign(env, MsgEventRecordDef, stateSync(env, lastRecordId(env) + 1000n, { sidechainChainId: '999' })),
          one(3506),
        )
      : null,
  stateSyncReplayed(env) {
    const rec = allRecords(env.state)[0];
    if (!rec || !canPay(env)) return null;
    return one1(
      sign(
        env,
        MsgEventRecordDef,
        stateSync(env, lastRecordId(env) + 1000n, { txHash: rec.txHash, logIndex: rec.logIndex }),
      ),
      one(1401),
    );
  },
  stateSyncWrongContract(env) {
    // A relay of a real StateSynced event delivered in the block before this one (its post handler
    // records it only after this block), sent again with every field right but the contract:
    // honest validators find the event and vote the copy down (the record must match the event).
    // Read from the state's pending side txs, so no relay of the same id may be recorded first: a
    // relay of it delivered earlier would be, and DeliverTx would refuse the copy then.
    if (env.height === null || !canPay(env)) return null;
    const h = env.height;
    const pending = pendingSideTxs(env.state)
      .map(([, p]) => p)
      .filter((p) => p.msgType === MsgEventRecordDef.type);
    const msgOf = (p: (typeof pending)[number]) => MsgEventRecordDef.decode(p.msgValue);
    const earlier = new Set(pending.filter((p) => p.height < h - 1n).map((p) => msgOf(p).id));
    const r = pending
      .filter((p) => p.height === h - 1n)
      .map(msgOf)
      .find((m) => !earlier.has(m.id) && getRecord(env.state, m.id) === undefined && relaysRealEvent(env.node, m));
    if (!r) return null;
    const contract = (r.contractAddress.toLowerCase() === OTHER_CONTRACT ? ZERO_CONTRACT : OTHER_CONTRACT) as Address;
    return one1(sign(env, MsgEventRecordDef, { ...r, from: env.me.address, contractAddress: contract }), SIDE_REFUSED);
  },
  stateSyncNoEvent: (env) =>
    canPay(env)
      ? one1(sign(env, MsgEventRecordDef, stateSync(env, lastRecordId(env) + 1000n, {})), SIDE_REFUSED)
      : null,
} satisfies Record<string, Craft>;
