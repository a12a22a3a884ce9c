/**
 * MsgEventRecord: a validator relays a parent-chain StateSynced log; once more than 2/3 of the
 * power confirm it, the record is stored with the block time. Deliver: 5400 if the id exists,
 * 3506 on a chain-id mismatch, 1401 on a replayed (tx_hash, log_index); post: 1401 if the id exists.
 */
import { ClerkErrors } from './errors';
import { CommonErrors } from '../framework/errors';
import { SpanErrors } from '../span/errors';
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';

import { type MsgDef, OK, rejected, type Ctx } from '../framework/msgDef';
import { addr, asObject, hexBytes, hexN, noExtraKeys, str, uint64 } from '../framework/decode';
import { getChainParams } from '../chain/keeper';
import { hasRecord, isClerkSeqSeen, markClerkSeq, setRecord } from './keeper';

const P = 'tx.msg.value';
/** Legacy maximum state-sync payload (reference LegacyMaxStateSyncSize). */
export const MAX_STATE_SYNC_SIZE = 100_000;
/** Post-fork MaxStateSyncSize: an event with more data is relayed with empty data (heimdall §7). */
export const MAX_RELAYED_STATE_SYNC_SIZE = 30_000;

export interface MsgEventRecord {
  from: Address;
  txHash: Hex;
  logIndex: bigint;
  id: bigint;
  contractAddress: Address;
  data: Hex;
  sidechainChainId: string;
}

function check(ctx: Ctx, m: MsgEventRecord) {
  if (hasRecord(ctx.store, m.id)) return rejected(ClerkErrors.EventRecordAlreadySynced);
  if (m.sidechainChainId !== getChainParams(ctx.store).sidechainChainId)
    return rejected(SpanErrors.InvalidSidechainChainId);
  if (isClerkSeqSeen(ctx.store, m.txHash, m.logIndex)) return rejected(CommonErrors.OldTx);
  return OK;
}

export const MsgEventRecordDef: MsgDef<MsgEventRecord> = {
  type: 'clerk/MsgEventRecord',
  name: 'MsgEventRecord',
  route: 'clerk',
  msgType: 'event-record',
  decode(value) {
    const o = asObject(value, P);
    noExtraKeys(o, ['from', 'tx_hash', 'log_index', 'id', 'contract_address', 'data', 'sidechain_chain_id'], P);
    return {
      from: addr(o, 'from', P),
      txHash: hexN(o, 'tx_hash', P, 32),
      logIndex: uint64(o, 'log_index', P),
      id: uint64(o, 'id', P),
      contractAddress: addr(o, 'contract_address', P),
      data: hexBytes(o, 'data', P, MAX_STATE_SYNC_SIZE * 2),
      sidechainChainId: str(o, 'sidechain_chain_id', P, { maxLength: 64 }),
    };
  },
  encode: (m) => ({
    from: m.from,
    tx_hash: m.txHash,
    log_index: m.logIndex,
    id: m.id,
    contract_address: m.contractAddress,
    data: m.data,
    sidechain_chain_id: m.sidechainChainId,
  }),
  signer: (m) => m.from,
  validateBasic: (m) => ((m.data.length - 2) / 2 > MAX_STATE_SYNC_SIZE ? ClerkErrors.SizeExceed : null),
  handle: check,
  side: {
    vote(m, state, observers) {
      const ev = observers.parent.event(m.txHash, m.logIndex, getChainParams(state).parentChainTxConfirmations);
      if (ev === null) return { result: 'skip', reason: 'event not found or not yet confirmed' };
      if (ev.name !== 'StateSynced') return { result: 'no', reason: `expected StateSynced, found ${ev.name}` };
      const oversized = m.data === '0x' && (ev.data.length - 2) / 2 > MAX_RELAYED_STATE_SYNC_SIZE;
      if (ev.id !== m.id || ev.contractAddress !== m.contractAddress || (ev.data !== m.data && !oversized))
        return { result: 'no', reason: 'record differs from the event' };
      return { result: 'yes', observation: null };
    },
    post(ctx, m) {
      if (hasRecord(ctx.store, m.id)) return rejected(CommonErrors.OldTx);
      if (isClerkSeqSeen(ctx.store, m.txHash, m.logIndex)) return rejected(CommonErrors.OldTx);
      setRecord(ctx.store, {
        id: m.id,
        contract: m.contractAddress,
        data: m.data,
        txHash: m.txHash,
        logIndex: m.logIndex,
        sidechainChainId: m.sidechainChainId,
        recordTimeMs: ctx.timeMs,
      });
      markClerkSeq(ctx.store, m.txHash, m.logIndex);
      ctx.events.push({
        type: 'record',
        attributes: { 'record-id': m.id.toString(), 'record-contract': m.contractAddress },
      });
      return OK;
    },
  },
};
