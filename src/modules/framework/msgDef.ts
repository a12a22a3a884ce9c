/**
 * The module framework: a handler context over a branched store, message definitions with their
 * deliver, side and post handlers, and emitted events.
 */
import { type Address } from '../../core/address';
import { type Obj } from './decode';
import { type ResultError } from '../../core/errors';
import { type KVStore, type KVReader } from '../../store/kvStore';
import { type Observers } from './observers';

export interface AppEvent {
  type: string;
  attributes: Record<string, string>;
}

/** What a handler sees: the (branched) store, the block it runs in, and where to emit events. */
export interface Ctx {
  readonly store: KVStore;
  readonly height: bigint;
  /** Block time, integer virtual milliseconds. */
  readonly timeMs: number;
  readonly chainId: string;
  readonly events: AppEvent[];
}

export type HandlerResult = { ok: true } | { ok: false; error: ResultError };

export const OK: HandlerResult = { ok: true };

export function rejected(error: ResultError): HandlerResult {
  return { ok: false, error };
}

/** A side-tx vote: yes carries the observation every yes-voter must agree on. */
export type SideVote =
  | { result: 'yes'; observation: unknown }
  | { result: 'no'; reason?: string }
  | { result: 'skip'; reason?: string };

export interface SideHandler<M> {
  /** What this validator sees on the other chains; pure in (msg, state, observers). */
  vote(msg: M, state: KVReader, observers: Observers): SideVote;
  /** Applies the agreed observation; runs on a branch, committed only when it returns ok. */
  post(ctx: Ctx, msg: M, observation: unknown): HandlerResult;
}

/**
 * The raw fact a node reports about a delivered message (src/node/observations.ts): its amino
 * type and the fields an oracle reads, copied (no object of the app's state is shared). Each
 * module declares the facts of its messages beside them.
 */
export interface MsgFact {
  readonly type: string;
}

/**
 * A REST endpoint that prepares the message unsigned (heimdall.md §3.8 and §5): the path, and how
 * a request body (and the `from` of its `base_req`) becomes the message; throws an InputError
 * naming the bad field (`body.…`).
 */
export interface PrepareRoute<M> {
  readonly path: string;
  fromBody(body: Obj, from: Address): M;
}

export interface MsgDef<M = unknown> {
  /** The amino name, e.g. `topup/MsgTopup`; the `type` of `{type, value}` in a StdTx. */
  readonly type: string;
  /** Its name in the spec's client table, e.g. `MsgTopup` (reports and scenario files use it). */
  readonly name: string;
  /** Route and message type (Cosmos `Route()` / `Type()`); `checkpoint`/`checkpoint` gets checkpoint gas. */
  readonly route: string;
  readonly msgType: string;
  /** Parse the `value` of `{type, value}`; throws InputError naming the bad field. */
  decode(value: unknown): M;
  /** The amino JSON value, as signed (integers become decimal strings in canonical JSON). */
  encode(msg: M): Record<string, unknown>;
  signer(msg: M): Address;
  /** Stateless checks (Cosmos ValidateBasic). */
  validateBasic?(msg: M): ResultError | null;
  /** Deliver-time handler; for side messages, pre-checks only. */
  handle(ctx: Ctx, msg: M): HandlerResult;
  side?: SideHandler<M>;
  /** The fact a node reports when a block delivers it (absent: only its type, as `other`). */
  fact?(msg: M): MsgFact;
  /** The REST endpoint that prepares it unsigned, if it has one. */
  readonly prepare?: PrepareRoute<M>;
}
