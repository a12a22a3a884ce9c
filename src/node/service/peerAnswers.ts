/**
 * What a service node answers its sidechain node (the REST reads a Bor node makes of Heimdall): a
 * span by id, the state syncs from an id, the last acked checkpoint. Read from the modules'
 * committed state, in the sidechain's terms.
 */
import { type Hex } from '../../core/bytes';
import { type KVReader } from '../../store/kvStore';
import { getLastCheckpoint } from '../../modules/checkpoint/keeper';
import { listRecords, MAX_RECORD_LIST_LIMIT } from '../../modules/clerk/keeper';
import { getSpan } from '../../modules/span/keeper';
import { type CommittedSpan, type StateSyncRecord } from '../../sidechain/systemState';

export function spanAnswer(store: KVReader, id: bigint): CommittedSpan | null {
  const s = getSpan(store, id);
  if (!s) return null;
  return {
    id: s.id,
    startBlock: s.startBlock,
    endBlock: s.endBlock,
    producers: s.selectedProducers.map((p) => ({ id: p.id, address: p.signer, power: p.power })),
  };
}

/** Consecutive state syncs from `fromId`, a page at a time (the clerk's list limit). */
export function stateSyncAnswer(store: KVReader, fromId: bigint): StateSyncRecord[] {
  return listRecords(store, { fromId, toTimeMs: Number.MAX_SAFE_INTEGER, limit: MAX_RECORD_LIST_LIMIT }).map((r) => ({
    id: r.id,
    contract: r.contract,
    data: r.data,
    txHash: r.txHash,
    logIndex: r.logIndex,
    chainId: r.sidechainChainId,
    timeS: BigInt(Math.floor(r.recordTimeMs / 1000)),
  }));
}

export function checkpointAnswer(store: KVReader): { start: bigint; end: bigint; rootHash: Hex } | null {
  const cp = getLastCheckpoint(store)?.checkpoint;
  return cp ? { start: cp.startBlock, end: cp.endBlock, rootHash: cp.rootHash } : null;
}
