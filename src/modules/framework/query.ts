/**
 * Module queries: each module answers its GET paths from a store with the spec's result shapes.
 * A query says what went wrong as a kind (a missing or malformed argument, nothing found, a
 * querier error, …); which HTTP status each kind gets is the REST adapter's business
 * (src/rpc/rest/queryReply.ts), where the reference's per-route statuses live.
 */
import { type KVReader } from '../../store/kvStore';
import { type Observers } from './observers';

/** What a query handler sees: the committed state at a height, the query string, the observers. */
export interface QueryCtx {
  readonly store: KVReader;
  readonly height: bigint;
  readonly timeMs: number;
  readonly params: URLSearchParams;
  /** What this node sees of the other chains (for the few reads that need it). */
  readonly observers?: Observers;
}

/**
 * Why a query failed:
 * - `missingArgument`: a required query parameter is absent;
 * - `badArgument`: a path or query argument does not parse (`'x' is not a valid uint64`);
 * - `invalidRequest`: the arguments parse but ask for something the rules refuse;
 * - `notFound`: no such record;
 * - `querier`: the reference's querier failed (its ABCI error becomes the body);
 * - `unavailable`: the answer needs data this node cannot reach now.
 */
export type QueryFailureKind =
  | 'missingArgument'
  | 'badArgument'
  | 'invalidRequest'
  | 'notFound'
  | 'querier'
  | 'unavailable';

export type QueryOutcome =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly kind: QueryFailureKind; readonly message: string };

export interface QueryRoute {
  /** `<module>.<what>`, e.g. `checkpoint.latest`: how the REST adapter finds a route's statuses. */
  readonly name: string;
  /** The whole path (no query string), anchored; groups are the handler's arguments. */
  readonly path: RegExp;
  handle(q: QueryCtx, args: readonly string[]): QueryOutcome;
}

export function found(result: unknown): QueryOutcome {
  return { ok: true, result };
}

export function failed(kind: QueryFailureKind, message: string): QueryOutcome {
  return { ok: false, kind, message };
}
