/**
 * What a service node answers its peers: its sidechain node's reads (the REST reads a Bor node
 * makes of Heimdall: a span by id, the state syncs from an id, the last acked checkpoint, from the
 * modules' committed state in the sidechain's terms), and a lagging service node's block request.
 */
import { type Hex } from '../../core/bytes';
import { type KVReader } from '../../store/kvStore';
import { getLastCheckpoint } from '../../modules/checkpoint/keeper';
import { listRecords, MAX_RECORD_LIST_LIMIT } from '../../modules/clerk/keeper';
import { getSpan } from '../../modules/span/keeper';
import { type CommittedSpan, type StateSyncRecord } from '../../sidechain/systemState';
import { type CommittedBlock } from '../../consensus/types';
import { type NodeMessage } from '../messages';

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

/** The committed blocks from `fromHeight`, a few at a time (a lagging peer's `c.syncReq`). */
export function syncAnswer(disk: readonly CommittedBlock[], fromHeight: bigint, maxBlocks: number): CommittedBlock[] {
  return disk.filter((cb) => cb.block.height >= fromHeight).slice(0, maxBlocks);
}

/** The answer to a sidechain node's read of its service node. */
export function sidechainAnswer(
  store: KVReader,
  req: Extract<NodeMessage, { kind: 'svc.getSpan' | 'svc.getStateSyncs' | 'svc.getCheckpoint' }>,
): NodeMessage {
  switch (req.kind) {
    case 'svc.getSpan':
      return { kind: 'svc.span', id: req.id, span: spanAnswer(store, req.id) };
    case 'svc.getStateSyncs':
      return { kind: 'svc.stateSyncs', records: stateSyncAnswer(store, req.fromId) };
    case 'svc.getCheckpoint':
      return { kind: 'svc.checkpoint', checkpoint: checkpointAnswer(store) };
  }
}
