/**
 * A small client of the service REST API (Heimdall-style, default http://127.0.0.1:1317):
 * GETs answer `{"height":"<n>","result":…}`, errors `{"error":"<msg>"}` with a 4xx/5xx status,
 * and `POST /txs` `{"tx":<StdTx JSON>,"mode":…}` answers the Cosmos TxResponse.
 */
import { type BroadcastMode, type BroadcastResult } from '../rpc/ports';
import { NodeUnreachableError, NodeReplyError, UsageError } from './errors';

export const DEFAULT_NODE = 'http://127.0.0.1:1317';

export interface HeightResult<T> {
  height: string;
  result: T;
}

export interface RestClientOptions {
  /**
   * Base URL of the REST API, e.g. http://127.0.0.1:1317 (a path prefix is kept), or where to read
   * it from before each request (a devnet that may restart on other ports: target.ts).
   */
  node: string | (() => string);
  /** Per-request time limit in milliseconds (default 60 s; block-mode broadcasts wait for a commit). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** Check a --node value: an http(s) URL. Returns the URL without a trailing slash. */
export function normalizeNodeUrl(node: string): string {
  let u: URL;
  try {
    u = new URL(node);
  } catch {
    throw new UsageError('--node', `not a URL: ${JSON.stringify(node)} (expected e.g. ${DEFAULT_NODE})`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new UsageError('--node', `expected an http:// or https:// URL, got ${JSON.stringify(node)}`);
  if (u.search || u.hash)
    throw new UsageError('--node', `the URL must not carry a query or fragment: ${JSON.stringify(node)}`);
  return u.toString().replace(/\/+$/, '');
}

/** Render the `error` of an error body; an ABCI log `{"codespace","code","message"}` is unpacked. */
export function describeErrorBody(body: unknown): string {
  if (body !== null && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string') {
    const msg = (body as { error: string }).error;
    const log = parseAbciLog(msg);
    return log ? `${log.message} (codespace ${log.codespace}, code ${log.code})` : msg;
  }
  return JSON.stringify(body);
}

export function parseAbciLog(text: string): { codespace: string; code: number; message: string } | null {
  if (!text.startsWith('{')) return null;
  try {
    const o = JSON.parse(text) as Record<string, unknown>;
    if (typeof o.code === 'number' && typeof o.message === 'string')
      return { codespace: typeof o.codespace === 'string' ? o.codespace : '', code: o.code, message: o.message };
  } catch {
    /* not a log */
  }
  return null;
}

export class RestClient {
  private readonly base: () => string;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(opts: RestClientOptions) {
    const node = opts.node;
    if (typeof node === 'string') {
      const fixed = normalizeNodeUrl(node);
      this.base = () => fixed;
    } else this.base = () => normalizeNodeUrl(node());
    this.timeoutMs = opts.timeoutMs ?? 60_000;
    this.fetchImpl = opts.fetch ?? fetch;
  }

  /** The REST API's base URL now. */
  get node(): string {
    return this.base();
  }

  url(path: string): string {
    return this.node + (path.startsWith('/') ? path : `/${path}`);
  }

  private async request(path: string, init: RequestInit): Promise<{ status: number; body: unknown; url: string }> {
    // Where the node is now (a devnet restarted on new ports is followed).
    const url = this.url(path);
    let res: Response;
    try {
      res = await this.fetchImpl(url, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (e) {
      throw new NodeUnreachableError(this.node, networkDetail(e, this.timeoutMs), mayHaveBeenSent(e));
    }
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      // The request went through: only the answer was lost.
      throw new NodeUnreachableError(this.node, networkDetail(e, this.timeoutMs), true);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new NodeReplyError(
        res.status,
        url,
        `not JSON: ${JSON.stringify(text.slice(0, 200))}${res.status === 404 ? ' (is this the service REST API?)' : ''}`,
      );
    }
    return { status: res.status, body, url };
  }

  /** GET a path; a non-2xx answer or a body without `result` is a NodeReplyError. */
  async get<T = unknown>(path: string): Promise<HeightResult<T>> {
    const { status, body, url } = await this.request(path, { method: 'GET', headers: { accept: 'application/json' } });
    if (status < 200 || status > 299) throw new NodeReplyError(status, url, describeErrorBody(body));
    if (body === null || typeof body !== 'object' || !('result' in body))
      throw new NodeReplyError(0, url, `no "result" in ${JSON.stringify(body).slice(0, 200)}`);
    const env = body as { height?: unknown; result: T };
    return { height: typeof env.height === 'string' ? env.height : String(env.height ?? '0'), result: env.result };
  }

  /** GET a path; 404 answers undefined instead of throwing. */
  async getOptional<T = unknown>(path: string): Promise<HeightResult<T> | undefined> {
    try {
      return await this.get<T>(path);
    } catch (e) {
      if (e instanceof NodeReplyError && e.status === 404) return undefined;
      throw e;
    }
  }

  /**
   * POST /txs. `txJsonText` is the StdTx as JSON text (canonical JSON: integers as strings), spliced
   * in verbatim so the node hashes exactly the bytes that were signed over.
   */
  async broadcast(txJsonText: string, mode: BroadcastMode): Promise<BroadcastResult> {
    const payload = `{"tx":${txJsonText},"mode":${JSON.stringify(mode)}}`;
    const { status, body, url } = await this.request('/txs', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: payload,
    });
    if (status < 200 || status > 299) throw new NodeReplyError(status, url, describeErrorBody(body));
    if (body === null || typeof body !== 'object' || typeof (body as { txhash?: unknown }).txhash !== 'string') {
      throw new NodeReplyError(0, url, `not a tx response: ${JSON.stringify(body).slice(0, 200)}`);
    }
    return txResponseOf(body);
  }

  /**
   * GET /txs/{hash} (hash: hex, with or without 0x): the TxResponse of a tx the node committed
   * (or refused at CheckTx: height "0"), or `pending` with the node's words when it has not got
   * there (404; `known` when the node says it has the tx pending).
   */
  async lookupTx(hash: string): Promise<{ found: BroadcastResult } | { pending: string; known: boolean }> {
    const { status, body, url } = await this.request(`/txs/${hash}`, {
      method: 'GET',
      headers: { accept: 'application/json' },
    });
    // A devnet says whether it has the tx pending (`known`) or never received it.
    if (status === 404)
      return { pending: describeErrorBody(body), known: (body as { status?: unknown })?.status === 'pending' };
    if (status < 200 || status > 299) throw new NodeReplyError(status, url, describeErrorBody(body));
    if (body === null || typeof body !== 'object' || typeof (body as { txhash?: unknown }).txhash !== 'string')
      throw new NodeReplyError(0, url, `not a tx response: ${JSON.stringify(body).slice(0, 200)}`);
    return { found: txResponseOf(body) };
  }
}

function txResponseOf(body: unknown): BroadcastResult {
  const r = body as BroadcastResult;
  return { ...r, code: typeof r.code === 'number' ? r.code : Number(r.code ?? 0), raw_log: r.raw_log ?? '' };
}

/** Codes of a connection that was never made: nothing was sent. */
const NOT_SENT: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
]);

/** Whether a failed fetch may have delivered its request (a reset, a timeout) or surely did not. */
function mayHaveBeenSent(e: unknown): boolean {
  const err = e as { cause?: { code?: string; errors?: Array<{ code?: string }> } };
  const cause = err?.cause;
  const codes = [cause?.code, ...(cause?.errors ?? []).map((x) => x.code)].filter((c): c is string => !!c);
  return !(codes.length > 0 && codes.every((c) => NOT_SENT.has(c)));
}

function networkDetail(e: unknown, timeoutMs: number): string {
  const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') return `no answer within ${timeoutMs / 1000}s`;
  const cause = err?.cause;
  if (cause?.code)
    return `${cause.code}${cause.message && !cause.message.includes(cause.code) ? `: ${cause.message}` : ''}`;
  return cause?.message ?? err?.message ?? String(e);
}
