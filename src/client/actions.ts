import { canonicalJson } from '../core/canonicalJson';
import { type MsgDef } from '../modules/framework/msgDef';
import { encodeTx, signTx, txHash, txJson } from '../modules/auth/stdTx';
import { schemeFor } from '../core/signatureScheme';
import { tendermintHash } from '../rpc/rest/txResponse';
import { type BroadcastMode, type BroadcastResult } from '../rpc/ports';
import { RestClient, parseAbciLog } from './http';
import { type ClientKey, homeCrypto, keysDir, listKeys, loadKey, resolveChainId, resolveHome } from './keys';
import { NodeUnreachableError, NodeReplyError, TxOutcomeUnknownError, UsageError } from './errors';
import { render, txResultView } from './format';
import { pendingOfAccount } from './pendingSequence';

export interface ClientIO {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
}

export interface CommonArgs {
  /** The REST API to ask: a URL, or where to read it before each request (target.ts). */
  node: string | (() => string);
  /** The node status RPC to ask (for its unconfirmed transactions), when known. */
  status?: () => string | undefined;
  home?: string;
  json: boolean;
  timeoutMs: number;
  /** The --home / --node flags as given, to repeat in a command the output suggests. */
  target?: string;
}

export interface TxArgs extends CommonArgs {
  /** Key name in <home>/keys; undefined = the command's default signer. */
  from?: string;
  chainId?: string;
  mode: BroadcastMode;
  memo: string;
  /** Offline overrides of the signing account's number and sequence. */
  accountNumber?: bigint;
  sequence?: bigint;
  /** Wait (up to the timeout) until the tx is committed, looking it up when its answer is lost. */
  wait?: boolean;
}

export const DEFAULT_VALIDATOR_KEY = 'validator-1';
export const DEFAULT_USER_KEY = 'user-1';

export function client(a: CommonArgs, io: ClientIO): RestClient {
  return new RestClient({ node: a.node, timeoutMs: a.timeoutMs, ...(io.fetch ? { fetch: io.fetch } : {}) });
}

export const num = (v: unknown, what: string): bigint => {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v);
  throw new NodeReplyError(0, what, `expected a non-negative integer, got ${JSON.stringify(v)}`);
};

// --- transactions -----------------------------------------------------------------------------

interface TxContext {
  home: string;
  key: ClientKey;
  chainId: string;
  rest: RestClient;
}

/**
 * Resolve home, signer and chain id (all local, so their errors come before any network call),
 * then build the message with the REST client, sign it and broadcast it.
 */
export async function sendTx<M>(
  a: TxArgs,
  io: ClientIO,
  def: MsgDef<M>,
  pickFrom: (home: string, rest: RestClient) => Promise<string> | string,
  build: (ctx: TxContext) => Promise<M> | M,
): Promise<number> {
  const home = resolveHome(a.home, io.env);
  const rest = client(a, io);
  const explicitFrom = a.from !== undefined && a.from !== '';
  // An explicit --from and the chain id are checked before any network call.
  const chainId = resolveChainId(a.chainId, home);
  const fromName = explicitFrom ? keyNameFor(home, a.from!) : await pickFrom(home, rest);
  const key = loadKey(home, fromName);
  const ctx: TxContext = { home, key, chainId, rest };
  const msg = await build(ctx);
  // A fast-crypto network checks the fast scheme's signatures (see src/core/signatureScheme.ts).
  const scheme = schemeFor(homeCrypto(home));
  let accountNumber = a.accountNumber;
  let sequence = a.sequence;
  if (accountNumber === undefined || sequence === undefined) {
    const acc = await rest.get<{ account_number?: unknown; sequence?: unknown }>(
      `/auth/accounts/${key.address}/sequence`,
    );
    accountNumber ??= num(acc.result.account_number ?? '0', 'account_number');
    if (sequence === undefined) {
      // The committed sequence knows nothing of pending transactions: take the one after them, and say so.
      const committed = num(acc.result.sequence ?? '0', 'sequence');
      const p = pendingOfAccount(
        await unconfirmedTxs(a, io),
        { address: key.address, chainId, accountNumber, committed },
        scheme,
      );
      sequence = p.next;
      const last = p.pending.at(-1);
      if (last && p.next > committed)
        io.err(
          `lockstep: sequence ${p.next}: transaction ${last.hash} (sequence ${last.sequence}) is still pending; this is another transaction (lockstep query tx ${last.hash} --wait follows the pending one)\n`,
        );
    }
  }
  const tx = signTx(def, msg, { chainId, accountNumber, sequence, memo: a.memo }, key.privateKey, scheme);
  const hash = tendermintHash(txHash(encodeTx(tx)));
  const started = Date.now();
  let result: BroadcastResult;
  try {
    result = await rest.broadcast(canonicalJson(txJson(tx)), a.mode);
  } catch (e) {
    const lost = outcomeLost(e);
    if (lost === null) throw e;
    if (!a.wait) throw new TxOutcomeUnknownError(hash, lost, checkCommand(hash, a));
    io.err(`lockstep: transaction ${hash} was sent but not answered (${lost}); waiting for its outcome\n`);
    return printTxResult(await waitForTx(rest, hash, a, started), a.json, io);
  }
  if (result.code !== 0) return reportRefusal(rest, result, hash, a, io, started);
  // sync and async answer before the commit: --wait looks the tx up until it is in a block.
  if (a.wait && (result.height === '0' || result.height === ''))
    return printTxResult(await waitForTx(rest, hash, a, started), a.json, io);
  return printTxResult(result, a.json, io);
}

/**
 * The node refused this copy of a transaction: before calling it failed, ask what the chain knows of
 * the hash. The same bytes sent before (after a lost answer, a restart) are committed or pending,
 * and then that is the outcome; otherwise the refusal stands.
 */
async function reportRefusal(
  rest: RestClient,
  refused: BroadcastResult,
  hash: string,
  a: TxArgs,
  io: ClientIO,
  started: number,
): Promise<number> {
  let known: Awaited<ReturnType<RestClient['lookupTx']>> | null = null;
  try {
    known = await rest.lookupTx(hash);
  } catch {
    // The look-up failed (a node without GET /txs, or gone): the refusal is all there is.
  }
  const why = `code ${refused.code}: ${parseAbciLog(refused.raw_log)?.message ?? refused.raw_log}`;
  if (known && 'found' in known && known.found.code === 0 && known.found.height !== '0') {
    io.err(
      `lockstep: transaction ${hash} is already committed: the same transaction was sent before, and the node refused this copy (${why}); it was applied once\n`,
    );
    return printTxResult(known.found, a.json, io);
  }
  if (known && 'pending' in known && known.known) {
    io.err(
      `lockstep: transaction ${hash} is already pending: the same transaction was sent before, and the node refused this copy (${why})\n`,
    );
    if (a.wait) return printTxResult(await waitForTx(rest, hash, a, started), a.json, io);
    io.out(render(a.json ? { txhash: hash, status: 'pending' } : { txhash: hash, status: 'pending' }, a.json));
    return 0;
  }
  return printTxResult(refused, a.json, io);
}

/** The node's unconfirmed transactions (the status port's /unconfirmed_txs), or none when it does not tell. */
async function unconfirmedTxs(a: CommonArgs, io: ClientIO): Promise<Uint8Array[]> {
  let base: string | undefined;
  try {
    base = a.status?.();
  } catch {
    return [];
  }
  if (base === undefined) return [];
  try {
    const res = await (io.fetch ?? fetch)(`${base}/unconfirmed_txs?limit=100`, {
      signal: AbortSignal.timeout(Math.min(a.timeoutMs, 10_000)),
    });
    if (!res.ok) return [];
    const body = (await res.json()) as { result?: { txs?: unknown } };
    const txs = body.result?.txs;
    return Array.isArray(txs) ? txs.filter((t) => typeof t === 'string').map((t) => Buffer.from(t, 'base64')) : [];
  } catch {
    return [];
  }
}

/**
 * Why the answer to a broadcast was lost after the request may have reached the node, or null when
 * the failure says nothing of the kind (the node refused the connection, or answered an error).
 */
function outcomeLost(e: unknown): string | null {
  if (e instanceof NodeUnreachableError) return e.sent ? `the node did not answer: ${e.detail}` : null;
  if (e instanceof NodeReplyError && (e.status === 503 || e.status === 504))
    return `the node answered ${e.status}: ${e.detail}`;
  return null;
}

function checkCommand(hash: string, a: CommonArgs): string {
  return `lockstep query tx ${hash} --wait${a.target ? ` ${a.target}` : ''}`;
}

/**
 * Look the tx up (GET /txs/{hash}) until the node has it committed (or refused), within the
 * timeout counted from `startedMs`; a node that restarts meanwhile is waited for.
 */
async function waitForTx(rest: RestClient, hash: string, a: CommonArgs, startedMs: number): Promise<BroadcastResult> {
  let last = 'no answer yet';
  for (;;) {
    try {
      const r = await rest.lookupTx(hash);
      if ('found' in r) return r.found;
      last = r.pending;
    } catch (e) {
      if (!(e instanceof NodeUnreachableError) && !(e instanceof NodeReplyError && e.status === 503)) throw e;
      last = e.message;
    }
    if (Date.now() - startedMs >= a.timeoutMs)
      throw new TxOutcomeUnknownError(
        hash,
        `not committed within ${a.timeoutMs / 1000}s (the node says: ${last})`,
        checkCommand(hash, a),
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** `lockstep query tx <hash>`: the node's TxResponse for it; `--wait` until it is committed. */
export async function queryTx(a: CommonArgs & { hash: string; wait: boolean }, io: ClientIO): Promise<number> {
  const rest = client(a, io);
  const hash = a.hash.replace(/^0x/i, '').toUpperCase();
  if (a.wait) return printTxResult(await waitForTx(rest, hash, a, Date.now()), a.json, io);
  const r = await rest.lookupTx(hash);
  if ('pending' in r) throw new NodeReplyError(404, rest.url(`/txs/${hash}`), r.pending);
  return printTxResult(r.found, a.json, io);
}

function printTxResult(r: BroadcastResult, json: boolean, io: ClientIO): number {
  io.out(render(json ? r : txResultView(r), json));
  if (r.code === 0) return 0;
  const log = parseAbciLog(r.raw_log);
  const where = `code ${r.code}${r.codespace ? `, codespace ${r.codespace}` : log?.codespace ? `, codespace ${log.codespace}` : ''}`;
  io.err(`lockstep: transaction ${r.txhash} failed (${where}): ${r.raw_log}\n`);
  return 1;
}

/** --from names a key, or the address of one. */
function keyNameFor(home: string, from: string): string {
  if (!/^0[xX][0-9a-fA-F]{40}$/.test(from)) return from;
  const name = keyNameOf(home, from);
  if (name === undefined)
    throw new UsageError(
      '--from',
      `no key in ${keysDir(home)} has the address ${from}; available keys: ${listKeys(home).join(', ') || 'none'}`,
    );
  return name;
}

/** The key of `address` in the home folder, if it holds one. */
export function keyNameOf(home: string, address: string): string | undefined {
  for (const name of listKeys(home)) {
    try {
      if (loadKey(home, name).address === address.toLowerCase()) return name;
    } catch {
      /* skip unreadable keys */
    }
  }
  return undefined;
}

export async function printQuery(
  a: CommonArgs,
  io: ClientIO,
  path: string,
  view: (result: unknown) => unknown = (r) => r,
): Promise<number> {
  const res = await client(a, io).get(path);
  io.out(render(view(res.result), a.json));
  return 0;
}
