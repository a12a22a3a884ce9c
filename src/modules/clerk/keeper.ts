/** State-sync event records: by id, with replay keys and a time-ordered list query. */
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { assert } from '../../core/errors';
import { compareStrings } from '../../core/order';
import { type KVReader, type KVStore } from '../../store/kvStore';
import { idKey } from '../framework/storeKeys';

export interface EventRecord {
  id: bigint;
  contract: Address;
  data: Hex;
  txHash: Hex;
  logIndex: bigint;
  sidechainChainId: string;
  /** Block time of the post-handling block, virtual ms. */
  recordTimeMs: number;
}

const recordKey = (id: bigint) => `clerk/record/${idKey(id)}`;
const seqKey = (txHash: string, logIndex: bigint) => `clerk/seq/${txHash}/${logIndex}`;

export function getRecord(store: KVReader, id: bigint): EventRecord | undefined {
  const r = store.get<EventRecord>(recordKey(id));
  if (r !== undefined) assert(r.id === id, 'an event record is stored under its id', { id, stored: r.id });
  return r;
}

export function hasRecord(store: KVReader, id: bigint): boolean {
  return store.has(recordKey(id));
}

/** Store a record: each id once, and never for an event already recorded. */
export function setRecord(store: KVStore, r: EventRecord): void {
  assert(!hasRecord(store, r.id), 'an event record id is written once', { id: r.id });
  assert(!isClerkSeqSeen(store, r.txHash, r.logIndex), 'an event is recorded once', {
    id: r.id,
    txHash: r.txHash,
    logIndex: r.logIndex,
  });
  store.set(recordKey(r.id), r);
}

export function isClerkSeqSeen(store: KVReader, txHash: string, logIndex: bigint): boolean {
  return store.has(seqKey(txHash, logIndex));
}

export function markClerkSeq(store: KVStore, txHash: string, logIndex: bigint): void {
  assert(!isClerkSeqSeen(store, txHash, logIndex), 'an event is marked seen once', { txHash, logIndex });
  store.set(seqKey(txHash, logIndex), true);
}

export function allRecords(store: KVReader): EventRecord[] {
  return store.iterate<EventRecord>('clerk/record/').map(([, r]) => r);
}

export const MAX_RECORD_LIST_LIMIT = 50;

/**
 * The list query (heimdall §7): from-id + to-time gives consecutive ids from `fromId` while
 * record_time < toTime, up to `limit`; from-time + to-time gives records in [from, to) by time
 * then id; otherwise plain paging by id. Heimdall keys records by their id as decimal text, so
 * "by id" is text order there (10 before 2): the same here. Times are virtual ms.
 */
/** Heimdall's order of record keys: the id as decimal text. */
function byIdText(a: EventRecord, b: EventRecord): number {
  return compareStrings(a.id.toString(), b.id.toString());
}

export function listRecords(
  store: KVReader,
  q: { fromId?: bigint; fromTimeMs?: number; toTimeMs?: number; page?: number; limit?: number },
): EventRecord[] {
  const limit = Math.min(q.limit ?? MAX_RECORD_LIST_LIMIT, MAX_RECORD_LIST_LIMIT);
  const page = q.page ?? 1;
  if (q.fromId !== undefined && q.toTimeMs !== undefined) {
    const out: EventRecord[] = [];
    for (let id = q.fromId; out.length < limit; id++) {
      const r = getRecord(store, id);
      if (!r || r.recordTimeMs >= q.toTimeMs) break;
      out.push(r);
    }
    return out;
  }
  const all = allRecords(store);
  if (q.fromTimeMs !== undefined && q.toTimeMs !== undefined) {
    const inRange = all
      .filter((r) => r.recordTimeMs >= q.fromTimeMs! && r.recordTimeMs < q.toTimeMs!)
      .sort((a, b) => a.recordTimeMs - b.recordTimeMs || byIdText(a, b));
    return inRange.slice((page - 1) * limit, page * limit);
  }
  return page < 1 ? [] : [...all].sort(byIdText).slice((page - 1) * limit, page * limit);
}
