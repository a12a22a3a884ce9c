/** The clerk module's reads: an event record by id, a list by id or time range, the replay check. */
import { rfc3339FromUnixMs } from '../../core/time';
import { failed, found, type QueryRoute } from '../framework/query';
import { isOldTx, notUint, uintArg } from '../framework/queryArgs';
import { type EventRecord, getRecord, isClerkSeqSeen, listRecords } from './keeper';

export function recordJson(r: EventRecord): Record<string, unknown> {
  return {
    id: Number(r.id),
    contract: r.contract,
    data: r.data,
    tx_hash: r.txHash,
    log_index: Number(r.logIndex),
    sidechain_chain_id: r.sidechainChainId,
    record_time: recordTimeJson(r.recordTimeMs),
  };
}

/**
 * `record_time` as the reference marshals a Go `time.Time` (heimdall §7): RFC3339Nano in UTC, the
 * fraction without trailing zeros and left out when zero (`1970-01-01T00:00:15Z`, `…:15.5Z`).
 */
export function recordTimeJson(ms: number): string {
  return rfc3339FromUnixMs(ms);
}

export const CLERK_QUERIES: readonly QueryRoute[] = [
  {
    name: 'clerk.list',
    path: /^\/clerk\/event-record\/list$/,
    handle(q) {
      const num = (k: string) => {
        const v = q.params.get(k);
        return v === null ? undefined : uintArg(v);
      };
      const args = {
        fromId: num('from-id'),
        fromTime: num('from-time'),
        toTime: num('to-time'),
        page: num('page'),
        limit: num('limit'),
      };
      for (const [k, v] of Object.entries(args))
        if (v === null) return notUint(q.params.get(k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)) ?? '');
      const records = listRecords(q.store, {
        fromId: args.fromId ?? undefined,
        fromTimeMs: args.fromTime === undefined || args.fromTime === null ? undefined : Number(args.fromTime) * 1000,
        toTimeMs: args.toTime === undefined || args.toTime === null ? undefined : Number(args.toTime) * 1000,
        page: args.page === undefined || args.page === null ? undefined : Number(args.page),
        limit: args.limit === undefined || args.limit === null ? undefined : Number(args.limit),
      });
      // From an id, an array ([] when that id has no record); a page of the other two ways is Go's
      // nil slice when empty: null (heimdall §7).
      const fromId =
        args.fromId !== undefined && args.fromId !== null && args.toTime !== undefined && args.toTime !== null;
      return found(records.length || fromId ? records.map(recordJson) : null);
    },
  },
  {
    name: 'clerk.record',
    path: /^\/clerk\/event-record\/([^/]+)$/,
    handle(q, [id]) {
      const n = uintArg(id);
      if (n === null) return notUint(id!);
      const r = getRecord(q.store, n);
      return r ? found(recordJson(r)) : failed('notFound', 'No record found');
    },
  },
  { name: 'clerk.isOldTx', path: /^\/clerk\/isoldtx$/, handle: (q) => isOldTx(q, isClerkSeqSeen) },
];
