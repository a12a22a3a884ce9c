/**
 * Every GET path of the spec (plus the reference's read-only extras), answered from a store with
 * the spec's result shapes inside the reference envelope `{"height":"<n>","result":…}`. Errors use
 * the reference's body `{"error":"<msg>"}` and per-route statuses (heimdall.md §2.4, §3.8, §6.4),
 * so the REST server only maps HTTP onto this.
 */
import { parseAddress, ZERO_ADDRESS, type Address } from '../core/address';
import { abciLog, InputError } from '../core/errors';
import { parseUint64 } from '../core/amount';
import { fromHex, type Hex } from '../core/bytes';
import { rfc3339FromUnixSeconds } from '../core/time';
import { type KVReader } from '../store/kvStore';
import { type Observers } from '../modules/framework/observers';
import { getAccount } from '../modules/auth/keeper';
import { authParamsJson, getAuthParams } from '../modules/auth/params';
import { accountCoins, coinsJson } from '../modules/bank/keeper';
import { getSpanParams, spanParamsJson } from '../modules/span/params';
import { allSpans, getLastSpan, getSpan, nextSpanSeedBlock, spanJson } from '../modules/span/keeper';
import {
  getValidator,
  getValidatorBySigner,
  getValidatorSet,
  isSeqSeen,
  validatorJson,
  validatorSetJson,
} from '../modules/staking/keeper';
import {
  allCheckpoints,
  checkpointJson,
  checkpointParamsJson,
  getBuffer,
  getCheckpoint,
  getCheckpointParams,
  getLastCheckpoint,
  getLastNoAck,
} from '../modules/checkpoint/keeper';
import { getAckCount } from '../modules/checkpoint/keeper';
import { getRecord, isClerkSeqSeen, listRecords, recordJson } from '../modules/clerk/keeper';
import { dividendAccountJson, dividendAccountRoot, getDividendAccount, isTopupSeen } from '../modules/topup/keeper';
import { getChainParams } from '../modules/chain/keeper';

export interface QueryResponse {
  status: number;
  body: unknown;
}

interface QueryCtx {
  store: KVReader;
  height: bigint;
  timeMs: number;
  params: URLSearchParams;
  observers?: Observers;
}

type Handler = (q: QueryCtx, args: string[]) => QueryResponse;

const okBody = (q: QueryCtx, result: unknown): QueryResponse => ({
  status: 200,
  body: { height: q.height.toString(), result },
});
const error = (status: number, message: string): QueryResponse => ({ status, body: { error: message } });
/** A querier error: the message is the ABCI log of an sdk code-1 error (reference §6.4). */
const querierError = (status: number, message: string): QueryResponse =>
  error(status, abciLog({ codespace: 'sdk', code: 1, message }));

function uintArg(value: string | null | undefined): bigint | null {
  if (value === null || value === undefined) return null;
  try {
    return parseUint64(value, 'value');
  } catch {
    return null;
  }
}

const notUint = (s: string) => error(400, `'${s}' is not a valid uint64`);

function addressArg(s: string): Address | null {
  try {
    const a = parseAddress(s);
    return a === ZERO_ADDRESS ? null : a;
  } catch {
    return null;
  }
}

function pageArgs(q: QueryCtx): { page: bigint; limit: bigint } | QueryResponse {
  const page = q.params.get('page');
  const limit = q.params.get('limit');
  if (page === null || limit === null) return error(400, 'page and limit query params required');
  const p = uintArg(page);
  if (p === null) return notUint(page);
  const l = uintArg(limit);
  if (l === null) return notUint(limit);
  return { page: p, limit: l };
}

function paged<T>(items: T[], page: bigint, limit: bigint): T[] | null {
  if (page === 0n || limit === 0n) return null;
  const start = Number((page - 1n) * limit);
  const slice = items.slice(start, start + Number(limit));
  return slice.length ? slice : null;
}

const ROUTES: Array<[RegExp, Handler]> = [
  // --- sidechain (spans) ---
  [
    /^\/sidechain\/span\/list$/,
    (q) => {
      const pa = pageArgs(q);
      if ('status' in pa) return pa;
      const limit = pa.limit > 150n ? 150n : pa.limit;
      return okBody(q, paged(allSpans(q.store), pa.page, limit)?.map((s) => spanJson(s)) ?? null);
    },
  ],
  [
    /^\/sidechain\/span\/([^/]+)$/,
    (q, [id]) => {
      const n = uintArg(id);
      if (n === null) return notUint(id!);
      const span = getSpan(q.store, n);
      return span ? okBody(q, spanJson(span)) : querierError(500, 'could not get span; span not found for id');
    },
  ],
  [
    /^\/sidechain\/latest-span$/,
    (q) => {
      const span = getLastSpan(q.store);
      return span ? okBody(q, spanJson(span)) : querierError(500, 'could not get span; span not found');
    },
  ],
  [/^\/sidechain\/params$/, (q) => okBody(q, spanParamsJson(getSpanParams(q.store)))],
  [/^\/sidechain\/next-span-seed-block$/, (q) => okBody(q, { block: Number(nextSpanSeedBlock(q.store)) })],

  // --- auth ---
  [
    /^\/auth\/accounts\/([^/]+)\/sequence$/,
    (q, [a]) => {
      const address = addressArg(a!);
      if (!address) return error(404, 'Invalid address');
      const acc = getAccount(q.store, address);
      return okBody(q, {
        address,
        account_number: (acc?.accountNumber ?? 0n).toString(),
        sequence: (acc?.sequence ?? 0n).toString(),
      });
    },
  ],
  [
    /^\/auth\/accounts\/([^/]+)$/,
    (q, [a]) => {
      const address = addressArg(a!);
      if (!address) return error(404, 'Invalid address');
      const acc = getAccount(q.store, address);
      return okBody(q, {
        type: 'auth/Account',
        value: {
          address,
          coins: coinsJson(accountCoins(acc?.coins ?? {})),
          public_key: acc?.pubKey
            ? { type: 'tendermint/PubKeySecp256k1', value: Buffer.from(fromHex(acc.pubKey)).toString('base64') }
            : null,
          account_number: (acc?.accountNumber ?? 0n).toString(),
          sequence: (acc?.sequence ?? 0n).toString(),
        },
      });
    },
  ],
  [/^\/auth\/params$/, (q) => okBody(q, authParamsJson(getAuthParams(q.store)))],

  // --- staking ---
  [/^\/staking\/validator-set$/, (q) => okBody(q, validatorSetJson(q.store, getValidatorSet(q.store), 'info'))],
  [
    /^\/staking\/validator\/([^/]+)$/,
    (q, [id]) => {
      const n = uintArg(id);
      if (n === null) return notUint(id!);
      const v = getValidator(q.store, n);
      if (!v) return error(404, 'No validator found');
      const m = getValidatorSet(q.store).getByAddress(v.signer);
      return okBody(q, validatorJson(v, { form: 'info', accum: m?.proposerPriority ?? 0n }));
    },
  ],
  [
    /^\/staking\/signer\/([^/]+)$/,
    (q, [a]) => {
      const address = addressArg(a!);
      if (!address) return error(400, 'Invalid address');
      const v = getValidatorBySigner(q.store, address);
      if (!v) return error(404, 'No validator found');
      const m = getValidatorSet(q.store).getByAddress(v.signer);
      return okBody(q, validatorJson(v, { form: 'info', accum: m?.proposerPriority ?? 0n }));
    },
  ],
  [
    /^\/staking\/current-proposer$/,
    (q) => {
      const set = getValidatorSet(q.store);
      const p = set.proposer;
      const v = p ? getValidatorBySigner(q.store, p.address) : undefined;
      return v
        ? okBody(q, validatorJson(v, { form: 'info', power: p!.power, accum: p!.proposerPriority }))
        : error(404, 'No proposer found');
    },
  ],
  [
    /^\/staking\/proposer\/([^/]+)$/,
    (q, [t]) => {
      const times = uintArg(t);
      if (times === null) return notUint(t!);
      const set = getValidatorSet(q.store).copy();
      const n = Math.min(Number(times), set.validators.length);
      const out: unknown[] = [];
      for (let i = 0; i < n; i++) {
        const p = set.proposer!;
        const v = getValidatorBySigner(q.store, p.address);
        if (v) out.push(validatorJson(v, { form: 'info', power: p.power, accum: p.proposerPriority }));
        set.incrementProposerPriority(1);
      }
      return okBody(q, out);
    },
  ],
  [/^\/staking\/totalpower$/, (q) => okBody(q, { result: Number(getValidatorSet(q.store).totalVotingPower()) })],
  [/^\/staking\/isoldtx$/, (q) => isOld(q, isSeqSeen)],

  // --- checkpoints ---
  [/^\/checkpoints\/(params|parama)$/, (q) => okBody(q, checkpointParamsJson(getCheckpointParams(q.store)))],
  [/^\/checkpoints\/count$/, (q) => okBody(q, { result: Number(getAckCount(q.store)) })],
  [
    /^\/checkpoints\/buffer$/,
    (q) => {
      const b = getBuffer(q.store);
      return b
        ? okBody(q, checkpointJson(b))
        : querierError(500, 'could not fetch checkpoint buffer; No checkpoint found in buffer');
    },
  ],
  [
    /^\/checkpoints\/latest$/,
    (q) => {
      const last = getLastCheckpoint(q.store);
      return last
        ? okBody(q, checkpointJson(last.checkpoint, last.number))
        : querierError(400, `could not fetch checkpoint by index ${getAckCount(q.store)}; Invalid checkpoint Index`);
    },
  ],
  [/^\/checkpoints\/last-no-ack$/, (q) => okBody(q, { result: Number(getLastNoAck(q.store)) })],
  [
    /^\/checkpoints\/list$/,
    (q) => {
      const pa = pageArgs(q);
      if ('status' in pa) return pa;
      const limit = pa.limit > 10_000n ? 10_000n : pa.limit;
      return okBody(
        q,
        paged(allCheckpoints(q.store), pa.page, limit)?.map((c) => checkpointJson(c.checkpoint, c.number)) ?? null,
      );
    },
  ],
  [/^\/checkpoints\/prepare$/, (q) => prepareCheckpoint(q)],
  [
    /^\/checkpoints\/([^/]+)$/,
    (q, [n]) => {
      const num = uintArg(n);
      if (num === null) return notUint(n!);
      const cp = getCheckpoint(q.store, num);
      return cp
        ? okBody(q, checkpointJson(cp, num))
        : querierError(400, `could not fetch checkpoint by index ${num}; Invalid checkpoint Index`);
    },
  ],
  [
    /^\/overview$/,
    (q) => {
      const set = getValidatorSet(q.store);
      const buf = getBuffer(q.store);
      return okBody(q, {
        ack_count: Number(getAckCount(q.store)),
        checkpoint_buffer: buf ? checkpointJson(buf) : null,
        validator_count: set.validators.length,
        validator_set: validatorSetJson(q.store, set, 'info'),
        last_noack_time: rfc3339FromUnixSeconds(getLastNoAck(q.store)),
      });
    },
  ],

  // --- clerk ---
  [
    /^\/clerk\/event-record\/list$/,
    (q) => {
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
      return okBody(q, records.length ? records.map(recordJson) : []);
    },
  ],
  [
    /^\/clerk\/event-record\/([^/]+)$/,
    (q, [id]) => {
      const n = uintArg(id);
      if (n === null) return notUint(id!);
      const r = getRecord(q.store, n);
      return r ? okBody(q, recordJson(r)) : error(404, 'No record found');
    },
  ],
  [/^\/clerk\/isoldtx$/, (q) => isOld(q, isClerkSeqSeen)],

  // --- topup ---
  [/^\/topup\/isoldtx$/, (q) => isOld(q, isTopupSeen)],
  [/^\/topup\/dividend-account-root$/, (q) => okBody(q, { accountRootHash: dividendAccountRoot(q.store) })],
  [
    /^\/topup\/dividend-account\/([^/]+)$/,
    (q, [id]) => {
      const n = uintArg(id);
      if (n === null) return notUint(id!);
      if (!getValidator(q.store, n)) return error(404, 'No validator found');
      return okBody(q, dividendAccountJson(getDividendAccount(q.store, n)));
    },
  ],

  // --- chain ---
  [
    /^\/chain\/params$/,
    (q) => {
      const c = getChainParams(q.store);
      return okBody(q, {
        parent_chain_tx_confirmations: Number(c.parentChainTxConfirmations),
        sidechain_tx_confirmations: Number(c.sidechainTxConfirmations),
        sidechain_chain_id: c.sidechainChainId,
      });
    },
  ],
];

function isOld(q: QueryCtx, seen: (s: KVReader, txHash: string, logIndex: bigint) => boolean): QueryResponse {
  const txHash = q.params.get('txhash');
  const logIndex = q.params.get('logindex');
  if (txHash === null || logIndex === null) return error(400, 'txhash and logindex query params required');
  let hash: Hex;
  try {
    const b = fromHex(txHash, 'txhash');
    if (b.length !== 32) throw new InputError('txhash', 'expected 32 bytes');
    hash = txHash.toLowerCase() as Hex;
  } catch (e) {
    return error(400, (e as Error).message);
  }
  const li = uintArg(logIndex);
  if (li === null) return notUint(logIndex);
  return okBody(q, seen(q.store, hash, li));
}

function prepareCheckpoint(q: QueryCtx): QueryResponse {
  const start = q.params.get('start');
  const end = q.params.get('end');
  // Reference (checkpoint/client/rest/query.go): an empty value counts as missing; a parse error is a
  // plain 500 (not a querier error); GetRootHash refuses more than MaxCheckpointLength blocks (400).
  if (!start || !end) return error(400, '`start` and `end` query params required');
  const s = uintArg(start);
  const e = uintArg(end);
  if (s === null) return error(500, `'${start}' is not a valid uint64`);
  if (e === null) return error(500, `'${end}' is not a valid uint64`);
  if (s > e) return error(400, `Invalid parameters start: ${s} and end block: ${e} params`);
  if (e - s + 1n > getCheckpointParams(q.store).maxCheckpointLength)
    return error(400, 'number of headers requested exceeds');
  if (!q.observers) return error(400, 'sidechain not reachable from this query');
  const root = q.observers.sidechain.rootHash(s, e, 0n);
  if (root === null) return error(400, 'could not get root hash: blocks not available');
  const proposer = getValidatorSet(q.store).proposer;
  return okBody(q, {
    proposer: proposer?.address ?? ZERO_ADDRESS,
    rootHash: root,
    startBlock: Number(s),
    endBlock: Number(e),
  });
}

/** Route a GET path (with its query string). Unknown paths are 404. Never throws on bad input. */
export function routeQuery(
  store: KVReader,
  at: { height: bigint; timeMs: number },
  pathWithQuery: string,
  observers?: Observers,
): QueryResponse {
  let url: URL;
  try {
    url = new URL(pathWithQuery, 'http://query.local');
  } catch {
    return error(400, `malformed path ${JSON.stringify(pathWithQuery.slice(0, 200))}`);
  }
  let path: string;
  try {
    path = decodeURIComponent(url.pathname).replace(/\/+$/, '') || '/';
  } catch {
    return error(400, 'malformed percent-encoding in path');
  }
  const q: QueryCtx = { store, height: at.height, timeMs: at.timeMs, params: url.searchParams, observers };
  for (const [re, handler] of ROUTES) {
    const m = re.exec(path);
    if (m) return handler(q, m.slice(1));
  }
  return error(404, `no route for ${JSON.stringify(path.slice(0, 200))}`);
}
