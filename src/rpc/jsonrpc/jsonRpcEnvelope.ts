/**
 * The JSON-RPC 2.0 envelope of the sidechain node (sidechain.md §4.4, reference README item 31):
 * from a request body's text to the response body's text, with geth's rules for what is a call, a
 * notification, an invalid request or a batch. The methods themselves are `callRpc`'s
 * (methods.ts); the transports are the HTTP server (jsonRpcServer.ts) and the WebSocket server
 * (webSocketServer.ts), whose connections can also hold subscriptions (an `RpcSession`).
 *
 * What a message is (geth `jsonrpcMessage`): with `"jsonrpc":"2.0"`, a non-empty method and an id
 * that is not an object or array, it is a call; without an id it is a notification, executed
 * with no answer; with `result` or `error` and no method or params it is a response, which a
 * server ignores. Anything else is `-32600 invalid request`, with its id if it had a usable one
 * and null otherwise. `"id": null` is an id (geth echoes it), not a notification.
 */
import { type CatchUpGate, type SidechainView } from '../ports';
import { type RpcMessage, encodeJson, parseRpcBody } from './jsonText';
import { type RpcResult, callRpc } from './methods';
import { SEND_RAW_TRANSACTION, sendRawTransaction } from './sendTransaction';
import {
  JSONRPC_INTERNAL_ERROR,
  JSONRPC_INVALID_PARAMS,
  JSONRPC_INVALID_REQUEST,
  JSONRPC_METHOD_NOT_FOUND,
  JSONRPC_PARSE_ERROR,
  JSONRPC_RESPONSE_TOO_LARGE,
  JSONRPC_SERVER_ERROR,
  type RpcErrorObject,
} from './rpcErrors';

/**
 * A connection that outlives its requests (WebSocket) and so can hold subscriptions. Over HTTP
 * there is none: `*_subscribe` is `-32601 notifications not supported`, as in geth.
 */
export interface RpcSession {
  /** `<namespace>_subscribe` with its raw params: the new subscription's id, or why not. */
  subscribe(method: string, params: unknown): { ok: true; id: string } | { ok: false; error: RpcErrorObject };
  /** Whether a subscription with this id existed on the connection (it is gone now). */
  unsubscribe(id: string): boolean;
}

/** geth's limits: method names, batch items (`BatchRequestLimit`) and batch response bytes (`BatchResponseMaxSize`). */
export const MAX_METHOD_NAME_BYTES = 2048;
export const DEFAULT_BATCH_ITEM_LIMIT = 1000;
export const DEFAULT_BATCH_RESPONSE_MAX_BYTES = 25_000_000;

export interface EnvelopeLimits {
  /** More items than this in one batch: a single `-32600 batch too large`. 0 = no limit. */
  batchItemLimit: number;
  /** Result bytes after which the rest of a batch gets `-32003 response too large`. 0 = no limit. */
  batchResponseMaxBytes: number;
}

/**
 * What a devnet adds to the envelope: methods answered outside the view, asynchronously (the
 * `lockstep_*` admin namespace, `evm_*`), and the catch-up gate reads wait at while a restart
 * replays its journal.
 */
export interface EnvelopeExtensions {
  /** The handler of an extra method, or undefined when `name` is not one. Handlers never throw. */
  method?(name: string): ((params: unknown) => Promise<RpcResult>) | undefined;
  gate?: CatchUpGate;
}

/**
 * Methods answered at once while the node catches up: they say that it does (`eth_syncing`) or
 * do not depend on the chain. Every other read waits at the gate.
 */
const ANSWERED_WHILE_CATCHING_UP: ReadonlySet<string> = new Set([
  'eth_syncing',
  'eth_chainId',
  'net_version',
  'net_listening',
  'net_peerCount',
]);

/** A response's JSON text and how many bytes of result / error it carries (geth's batch accounting). */
interface Answer {
  text: string;
  payloadBytes: number;
}

const utf8Length = (s: string): number => Buffer.byteLength(s, 'utf8');

/** The error envelope; `idRaw` is the request's id as it was sent (null when it had none). */
export function errorResponseText(idRaw: string | undefined, error: RpcErrorObject): string {
  return `{"jsonrpc":"2.0","id":${idRaw ?? 'null'},"error":${encodeJson(error)}}`;
}

/** A transport-level error (HTTP edge, refused upgrade) as a JSON value: an error object with id null. */
export function transportErrorBody(message: string): { jsonrpc: '2.0'; id: null; error: RpcErrorObject } {
  return { jsonrpc: '2.0', id: null, error: { code: JSONRPC_INVALID_REQUEST, message } };
}

function errorAnswer(idRaw: string | undefined, error: RpcErrorObject): Answer {
  const errorText = encodeJson(error);
  return {
    text: `{"jsonrpc":"2.0","id":${idRaw ?? 'null'},"error":${errorText}}`,
    payloadBytes: utf8Length(errorText),
  };
}

const hasValidVersion = (m: RpcMessage): boolean => m.version === '2.0';
const hasValidId = (m: RpcMessage): boolean => m.idRaw !== undefined && m.idRaw[0] !== '{' && m.idRaw[0] !== '[';
const isNotification = (m: RpcMessage): boolean => hasValidVersion(m) && m.idRaw === undefined && m.method !== '';
const isCall = (m: RpcMessage): boolean => hasValidVersion(m) && hasValidId(m) && m.method !== '';
const isResponse = (m: RpcMessage): boolean =>
  hasValidVersion(m) && hasValidId(m) && m.method === '' && !m.hasParams && (m.hasResult || m.hasError);
/** Subscription notifications are deliveries to a client; a server drops them unexecuted. */
const isIgnored = (m: RpcMessage): boolean =>
  isResponse(m) || (isNotification(m) && m.method.endsWith('_subscription'));

/**
 * `*_unsubscribe` takes one subscription id (`rpc.ID`, a string): the id, or the argument error.
 * Over HTTP nothing is ever subscribed, so a well-formed call finds nothing, as in geth.
 */
function unsubscribeArg(
  params: unknown,
  hasParams: boolean,
): { ok: true; id: string } | { ok: false; error: RpcErrorObject } {
  const raw = !hasParams || params === null ? [] : params;
  const invalid = (message: string) => ({ ok: false as const, error: { code: JSONRPC_INVALID_PARAMS, message } });
  if (!Array.isArray(raw)) return invalid('non-array args');
  if (raw.length === 0) return invalid('missing value for required argument 0');
  const id: unknown = raw[0];
  if (id !== null && typeof id !== 'string') {
    const kind = Array.isArray(id)
      ? 'array'
      : typeof id === 'number' || typeof id === 'bigint'
        ? 'number'
        : typeof id === 'boolean'
          ? 'bool'
          : 'object';
    return invalid(`invalid argument 0: json: cannot unmarshal ${kind} into Go value of type rpc.ID`);
  }
  if (raw.length > 1) return invalid('too many arguments, want at most 1');
  // Go leaves an rpc.ID empty on null: an id that names nothing.
  return { ok: true, id: typeof id === 'string' ? id : '' };
}

const SUBSCRIPTION_NOT_FOUND: RpcErrorObject = { code: JSONRPC_SERVER_ERROR, message: 'subscription not found' };

function resultAnswer(idRaw: string | undefined, result: unknown): Answer {
  let resultText: string;
  try {
    resultText = encodeJson(result);
  } catch {
    return errorAnswer(idRaw, {
      code: JSONRPC_INTERNAL_ERROR,
      message: 'internal error: the result cannot be encoded as JSON',
    });
  }
  return {
    text: `{"jsonrpc":"2.0","id":${idRaw ?? 'null'},"result":${resultText}}`,
    payloadBytes: utf8Length(resultText),
  };
}

/** How one request is run: the view (read once per request, again after an extra method), session, extensions. */
interface Context {
  view(): SidechainView;
  /** Forget the view read so far (an extra method may have moved the chain). */
  stale(): void;
  session: RpcSession | undefined;
  ext: EnvelopeExtensions | undefined;
  /** Set when the catch-up gate refused to let reads through: their answer. */
  gateError: RpcErrorObject | null;
}

/** Run one call (or notification) against the view. Never throws. */
async function execute(msg: RpcMessage, c: Context): Promise<Answer> {
  const session = c.session;
  try {
    const bytes = utf8Length(msg.method);
    const params = msg.hasParams ? msg.params : undefined;
    if (bytes > MAX_METHOD_NAME_BYTES)
      return errorAnswer(msg.idRaw, {
        code: JSONRPC_INVALID_REQUEST,
        message: `${session && msg.method.endsWith('_subscribe') ? 'subscription' : 'method'} name too long: ${bytes} > ${MAX_METHOD_NAME_BYTES}`,
      });
    if (msg.method.endsWith('_subscribe')) {
      // Subscriptions need a connection that outlives the request; HTTP has none (geth: -32601).
      if (!session)
        return errorAnswer(msg.idRaw, { code: JSONRPC_METHOD_NOT_FOUND, message: 'notifications not supported' });
      const r = session.subscribe(msg.method, params);
      return r.ok ? resultAnswer(msg.idRaw, r.id) : errorAnswer(msg.idRaw, r.error);
    }
    if (msg.method.endsWith('_unsubscribe')) {
      const arg = unsubscribeArg(msg.params, msg.hasParams);
      if (!arg.ok) return errorAnswer(msg.idRaw, arg.error);
      return session?.unsubscribe(arg.id)
        ? resultAnswer(msg.idRaw, true)
        : errorAnswer(msg.idRaw, SUBSCRIPTION_NOT_FOUND);
    }
    const extra = c.ext?.method?.(msg.method);
    if (extra) {
      const r = await extra(params);
      c.stale();
      return r.ok ? resultAnswer(msg.idRaw, r.result) : errorAnswer(msg.idRaw, r.error);
    }
    if (c.gateError && !ANSWERED_WHILE_CATCHING_UP.has(msg.method)) return errorAnswer(msg.idRaw, c.gateError);
    if (msg.method === SEND_RAW_TRANSACTION) {
      const sent = await sendRawTransaction(c.view(), params);
      // The pool changed: later calls of a batch read it again.
      c.stale();
      return sent.ok ? resultAnswer(msg.idRaw, sent.result) : errorAnswer(msg.idRaw, sent.error);
    }
    const r = callRpc(c.view(), msg.method, params);
    return r.ok ? resultAnswer(msg.idRaw, r.result) : errorAnswer(msg.idRaw, r.error);
  } catch {
    // view() or the envelope failed: a crashed handler, as geth reports a recovered panic.
    return errorAnswer(msg.idRaw, { code: JSONRPC_INTERNAL_ERROR, message: 'method handler crashed' });
  }
}

/** geth `handleCallMsg`: the answer to one message, or null for a notification. */
async function answer(msg: RpcMessage, c: Context): Promise<Answer | null> {
  if (isNotification(msg)) {
    await execute(msg, c);
    return null;
  }
  if (isCall(msg)) return execute(msg, c);
  return errorAnswer(hasValidId(msg) ? msg.idRaw : undefined, {
    code: JSONRPC_INVALID_REQUEST,
    message: 'invalid request',
  });
}

async function answerBatch(messages: RpcMessage[], c: Context, limits: EnvelopeLimits): Promise<string | null> {
  if (messages.length === 0)
    return errorResponseText(undefined, { code: JSONRPC_INVALID_REQUEST, message: 'empty batch' });
  if (limits.batchItemLimit > 0 && messages.length > limits.batchItemLimit) {
    // One error for the whole batch, carrying the first call's id so a client can match it.
    const first = messages.find(isCall);
    return `[${errorResponseText(first?.idRaw, { code: JSONRPC_INVALID_REQUEST, message: 'batch too large' })}]`;
  }
  const calls = messages.filter((m) => !isIgnored(m));
  if (calls.length === 0) return null;
  const out: string[] = [];
  let payloadBytes = 0;
  for (let i = 0; i < calls.length; i++) {
    const msg = calls[i]!;
    const a = await answer(msg, c);
    if (a === null) continue;
    out.push(a.text);
    payloadBytes += a.payloadBytes;
    if (limits.batchResponseMaxBytes > 0 && payloadBytes > limits.batchResponseMaxBytes) {
      // The answers so far stand; every later call gets the size error instead of running.
      for (const rest of calls.slice(i + 1)) {
        if (!isNotification(rest))
          out.push(errorResponseText(rest.idRaw, { code: JSONRPC_RESPONSE_TOO_LARGE, message: 'response too large' }));
      }
      break;
    }
  }
  return out.length === 0 ? null : `[${out.join(',')}]`;
}

/** Whether a message is a read that must wait at the catch-up gate. */
function readsChain(m: RpcMessage, ext: EnvelopeExtensions | undefined): boolean {
  if (isIgnored(m) || !(isCall(m) || isNotification(m))) return false;
  if (ANSWERED_WHILE_CATCHING_UP.has(m.method) || m.method.endsWith('_unsubscribe')) return false;
  return ext?.method?.(m.method) === undefined;
}

/**
 * The response body for a request body, or null when nothing is to be answered (notifications,
 * responses). `view` is called at most once (again only after an extra method ran), so a batch
 * reads one consistent view. While the node catches up, reads wait at the gate first.
 */
export async function answerJsonRpc(
  body: string,
  view: () => SidechainView,
  limits: EnvelopeLimits,
  session?: RpcSession,
  ext?: EnvelopeExtensions,
): Promise<string | null> {
  let cached: SidechainView | undefined;
  const c: Context = {
    view: () => (cached ??= view()),
    stale: () => {
      cached = undefined;
    },
    session,
    ext,
    gateError: null,
  };
  const parsed = parseRpcBody(body);
  if (!parsed.ok) return errorResponseText(undefined, { code: JSONRPC_PARSE_ERROR, message: 'parse error' });
  const gate = ext?.gate;
  if (gate?.catchingUp() && parsed.messages.some((m) => readsChain(m, ext))) {
    try {
      await gate.caughtUp();
    } catch (e) {
      c.gateError = { code: JSONRPC_SERVER_ERROR, message: e instanceof Error ? e.message : String(e) };
    }
  }
  if (parsed.batch) return answerBatch(parsed.messages, c, limits);
  const msg = parsed.messages[0]!;
  if (isIgnored(msg)) return null;
  return (await answer(msg, c))?.text ?? null;
}
