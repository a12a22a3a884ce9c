/**
 * What the service's GET endpoints must answer, from the model's state: the spec's REST table and
 * result shapes (Span, ValidatorSet, Validator with `last_updated` "" in a span and an integer
 * elsewhere, Account, the checkpoint header, DividendAccount), filled where the spec says "not
 * shown" by the reference's shapes (heimdall.md §2.4, §3.8, §4.5, §5, §6.5, §7; README items 9,
 * 14, 18-23). An answer is a result, or a failure of a kind with its message (a missing or
 * malformed argument, nothing found, the querier's error). Routes the model does not know are
 * not judged.
 */
import { accountRoot } from './deliver';
import {
  type ModelParams,
  type ModelRecord,
  type ModelState,
  type ModelValidator,
  type SpanMember,
  idKey,
} from './state';

export type Answer =
  | { ok: true; result: unknown }
  | { ok: false; kind: 'missingArgument' | 'badArgument' | 'invalidRequest' | 'notFound' | 'querier'; message: string };

const found = (result: unknown): Answer => ({ ok: true, result });
const failed = (kind: Extract<Answer, { ok: false }>['kind'], message: string): Answer => ({
  ok: false,
  kind,
  message,
});
const notUint = (s: string) => failed('badArgument', `'${s}' is not a valid uint64`);

const UINT64_MAX = (1n << 64n) - 1n;

function uint(s: string | null): bigint | null {
  if (s === null || !/^(0|[1-9][0-9]*)$/.test(s)) return null;
  const n = BigInt(s);
  return n > UINT64_MAX ? null : n;
}

function address(s: string): string | null {
  if (!/^0[xX][0-9a-fA-F]{40}$/.test(s)) return null;
  const a = `0x${s.slice(2).toLowerCase()}`;
  return a === `0x${'00'.repeat(20)}` ? null : a;
}

/** RFC 3339 in UTC from unix milliseconds; a fraction only when there is one, without trailing zeros. */
export function rfc3339(ms: number): string {
  const days = Math.floor(ms / 86_400_000);
  const inDay = ms - days * 86_400_000;
  // Civil date from days since 1970-01-01 (proleptic Gregorian).
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const two = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(inDay / 3_600_000);
  const m = Math.floor((inDay % 3_600_000) / 60_000);
  const sec = Math.floor((inDay % 60_000) / 1000);
  const frac = inDay % 1000;
  const fraction = frac === 0 ? '' : `.${String(frac).padStart(3, '0').replace(/0+$/, '')}`;
  return `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T${two(h)}:${two(m)}:${two(sec)}${fraction}Z`;
}

/** The spec's Validator shape; `last_updated` is "" inside a span and an integer elsewhere (0 if never). */
function validatorJson(
  v: { id: bigint; startEpoch: bigint; endEpoch: bigint; pubKey: string; signer: string; lastUpdated?: bigint | null },
  power: bigint,
  accum: bigint,
  form: 'span' | 'info',
): Record<string, unknown> {
  return {
    ID: Number(v.id),
    startEpoch: Number(v.startEpoch),
    endEpoch: Number(v.endEpoch),
    power: Number(power),
    pubKey: v.pubKey,
    signer: v.signer,
    last_updated: form === 'span' ? '' : Number(v.lastUpdated ?? 0n),
    accum: Number(accum),
  };
}

const unknownMember = (signer: string) => ({ id: 0n, startEpoch: 0n, endEpoch: 0n, pubKey: '0x', signer });

function setJson(s: ModelState): Record<string, unknown> {
  const set = s.get('validatorSet');
  const show = (m: { address: string; power: bigint; priority: bigint }) =>
    validatorJson(s.validatorBySigner(m.address) ?? unknownMember(m.address), m.power, m.priority, 'info');
  // The stored proposer is a copy of the moment it was picked, shown as stored.
  const p = set.proposerSnapshot;
  return { validators: set.validators.map(show), proposer: p ? show(p) : null };
}

function spanJson(sp: NonNullable<ReturnType<ModelState['span']>>): Record<string, unknown> {
  const bySigner = new Map<string, SpanMember>(sp.members.map((m) => [m.signer, m]));
  const byId = new Map<bigint, SpanMember>(sp.members.map((m) => [m.id, m]));
  const show = (m: { address: string; power: bigint; priority: bigint }) =>
    validatorJson(bySigner.get(m.address) ?? unknownMember(m.address), m.power, m.priority, 'span');
  const p = sp.proposer;
  return {
    span_id: Number(sp.id),
    start_block: Number(sp.startBlock),
    end_block: Number(sp.endBlock),
    validator_set: { validators: sp.validators.map(show), proposer: p ? show(p) : null },
    selected_producers: sp.producers.map((x) =>
      validatorJson(
        byId.get(x.id) ?? unknownMember(x.signer),
        x.power,
        sp.validators.find((m) => m.address === x.signer)?.priority ?? 0n,
        'span',
      ),
    ),
    sidechain_chain_id: sp.sidechainChainId,
  };
}

function checkpointJson(c: NonNullable<ReturnType<ModelState['checkpoint']>>, id?: bigint): Record<string, unknown> {
  const body = {
    proposer: c.proposer,
    startBlock: Number(c.startBlock),
    endBlock: Number(c.endBlock),
    rootHash: c.rootHash,
    accountRootHash: c.accountRootHash,
    timestamp: Number(c.timestampS),
  };
  return id === undefined ? body : { id: Number(id), ...body };
}

/** Page `page` (from 1) of `limit`; nothing (null) for page or limit 0 or past the end. */
function page<T>(items: readonly T[], p: bigint, limit: bigint): T[] | null {
  if (p === 0n || limit === 0n) return null;
  const start = Number((p - 1n) * limit);
  const slice = items.slice(start, start + Number(limit));
  return slice.length ? slice : null;
}

function pageArgs(q: URLSearchParams): { page: bigint; limit: bigint } | Answer {
  const p = q.get('page');
  const l = q.get('limit');
  if (p === null || l === null) return failed('missingArgument', 'page and limit query params required');
  const pn = uint(p);
  if (pn === null) return notUint(p);
  const ln = uint(l);
  if (ln === null) return notUint(l);
  return { page: pn, limit: ln };
}

function validatorInfo(s: ModelState, v: ModelValidator): Record<string, unknown> {
  const m = s.get('validatorSet').validators.find((x) => x.address === v.signer);
  return validatorJson(v, v.power, m?.priority ?? 0n, 'info');
}

type Route = {
  path: RegExp;
  /** The answer; null: an argument the model does not judge (the read is not compared). */
  answer(s: ModelState, p: ModelParams, args: readonly string[], q: URLSearchParams): Answer | null;
};

const exact = (path: string) => new RegExp(`^${path.replace(/[/-]/g, (c) => `\\${c}`)}$`);

/** The routes the model judges, in the order a server matches them (the first match answers). */
const ROUTES: readonly Route[] = [
  {
    path: exact('/sidechain/params'),
    answer: (_s, p) =>
      found({
        sprint_duration: Number(p.sprint),
        span_duration: Number(p.spanDuration),
        producer_count: Number(p.producerCount),
      }),
  },
  {
    path: exact('/sidechain/latest-span'),
    answer(s) {
      const sp = s.lastSpan();
      return sp ? found(spanJson(sp)) : failed('querier', 'could not get span; span not found');
    },
  },
  {
    path: exact('/sidechain/next-span-seed-block'),
    answer: (s) => found({ block: Number(s.get('seedBlock') + 1n) }),
  },
  {
    path: exact('/sidechain/span/list'),
    answer(s, _p, _a, q) {
      const pa = pageArgs(q);
      if ('ok' in pa) return pa;
      const limit = pa.limit > 150n ? 150n : pa.limit;
      return found(page(s.spans.values(), pa.page, limit)?.map(spanJson) ?? null);
    },
  },
  {
    path: /^\/sidechain\/span\/([^/]+)$/,
    answer(s, _p, [arg]) {
      const id = uint(arg!);
      if (id === null) return notUint(arg!);
      const sp = s.span(id);
      return sp ? found(spanJson(sp)) : failed('querier', 'could not get span; span not found for id');
    },
  },
  {
    path: /^\/auth\/accounts\/([^/]+)\/sequence$/,
    answer(s, _p, [arg]) {
      const a = address(arg!);
      if (!a) return failed('badArgument', 'Invalid address');
      const acc = s.account(a);
      return found({
        address: a,
        account_number: (acc?.accountNumber ?? 0n).toString(),
        sequence: (acc?.sequence ?? 0n).toString(),
      });
    },
  },
  {
    path: /^\/auth\/accounts\/([^/]+)$/,
    answer(s, _p, [arg]) {
      const a = address(arg!);
      if (!a) return failed('badArgument', 'Invalid address');
      const acc = s.account(a);
      const coins = [...(acc?.coins ?? new Map<string, bigint>()).entries()]
        .sort((x, y) => (x[0] < y[0] ? -1 : 1))
        .map(([denom, amount]) => ({ denom, amount: { i: amount.toString() } }));
      const pub = acc?.pubKey ? Buffer.from(acc.pubKey.slice(2), 'hex').toString('base64') : null;
      return found({
        type: 'auth/Account',
        value: {
          address: a,
          coins,
          public_key: pub === null ? null : { type: 'tendermint/PubKeySecp256k1', value: pub },
          account_number: (acc?.accountNumber ?? 0n).toString(),
          sequence: (acc?.sequence ?? 0n).toString(),
        },
      });
    },
  },
  {
    path: exact('/auth/params'),
    answer: (_s, p) =>
      found({
        max_memo_characters: Number(p.maxMemoCharacters),
        tx_sig_limit: Number(p.txSigLimit),
        tx_size_cost_per_byte: Number(p.txSizeCostPerByte),
        sig_verify_cost_ed25519: Number(p.sigVerifyCostEd25519),
        sig_verify_cost_secp256k1: Number(p.sigVerifyCostSecp256k1),
        max_tx_gas: Number(p.maxTxGas),
        tx_fees: p.txFees.toString(),
      }),
  },
  { path: exact('/staking/validator-set'), answer: (s) => found(setJson(s)) },
  {
    path: /^\/staking\/validator\/([^/]+)$/,
    answer(s, _p, [arg]) {
      const id = uint(arg!);
      if (id === null) return notUint(arg!);
      const v = s.validator(id);
      return v ? found(validatorInfo(s, v)) : failed('notFound', 'No validator found');
    },
  },
  {
    path: /^\/staking\/signer\/([^/]+)$/,
    answer(s, _p, [arg]) {
      const a = address(arg!);
      if (!a) return failed('badArgument', 'Invalid address');
      const v = s.validatorBySigner(a);
      return v ? found(validatorInfo(s, v)) : failed('notFound', 'No validator found');
    },
  },
  {
    path: exact('/staking/current-proposer'),
    answer(s) {
      const pm = s.get('validatorSet').proposerSnapshot;
      const v = pm ? s.validatorBySigner(pm.address) : undefined;
      return v && pm ? found(validatorJson(v, pm.power, pm.priority, 'info')) : failed('notFound', 'No proposer found');
    },
  },
  {
    path: /^\/staking\/proposer\/([^/]+)$/,
    answer(s, _p, [arg]) {
      const times = uint(arg!);
      if (times === null) return notUint(arg!);
      const set = s.set();
      const n = Math.min(Number(times), set.size);
      const out: unknown[] = [];
      for (let i = 0; i < n; i++) {
        const pm = set.proposerSnapshot!;
        const v = s.validatorBySigner(pm.address);
        if (v) out.push(validatorJson(v, pm.power, pm.priority, 'info'));
        set.increment(1);
      }
      return found(out);
    },
  },
  { path: exact('/staking/totalpower'), answer: (s) => found({ result: Number(s.get('validatorSet').total) }) },
  {
    path: /^\/checkpoints\/(params|parama)$/,
    answer: (_s, p) =>
      found({
        checkpoint_buffer_time: Number(p.checkpointBufferTimeMs * 1_000_000n),
        avg_checkpoint_length: Number(p.avgCheckpointLength),
        max_checkpoint_length: Number(p.maxCheckpointLength),
        child_chain_block_interval: Number(p.childBlockInterval),
      }),
  },
  { path: exact('/checkpoints/count'), answer: (s) => found({ result: Number(s.get('ackCount')) }) },
  {
    path: exact('/checkpoints/buffer'),
    answer(s) {
      const b = s.get('buffer');
      return b
        ? found(checkpointJson(b))
        : failed('querier', 'could not fetch checkpoint buffer; No checkpoint found in buffer');
    },
  },
  {
    path: exact('/checkpoints/latest'),
    answer(s) {
      const last = s.lastCheckpoint();
      return last
        ? found(checkpointJson(last.checkpoint, last.number))
        : failed('querier', `could not fetch checkpoint by index ${s.get('ackCount')}; Invalid checkpoint Index`);
    },
  },
  { path: exact('/checkpoints/last-no-ack'), answer: (s) => found({ result: Number(s.get('lastNoAckS')) }) },
  {
    path: exact('/checkpoints/list'),
    answer(s, _p, _a, q) {
      const pa = pageArgs(q);
      if ('ok' in pa) return pa;
      const limit = pa.limit > 10_000n ? 10_000n : pa.limit;
      const all = s.checkpoints.entries().map(([k, c]) => ({ n: BigInt(k), c }));
      return found(page(all, pa.page, limit)?.map((x) => checkpointJson(x.c, x.n)) ?? null);
    },
  },
  {
    path: exact('/overview'),
    answer(s) {
      const b = s.get('buffer');
      return found({
        ack_count: Number(s.get('ackCount')),
        checkpoint_buffer: b ? checkpointJson(b) : null,
        validator_count: s.get('validatorSet').size,
        validator_set: setJson(s),
        last_noack_time: rfc3339(Number(s.get('lastNoAckS')) * 1000),
      });
    },
  },
  {
    path: /^\/checkpoints\/(?!prepare$)([^/]+)$/,
    answer(s, _p, [arg]) {
      const n = uint(arg!);
      if (n === null) return notUint(arg!);
      const c = s.checkpoint(n);
      return c
        ? found(checkpointJson(c, n))
        : failed('querier', `could not fetch checkpoint by index ${n}; Invalid checkpoint Index`);
    },
  },
  { path: exact('/topup/dividend-account-root'), answer: (s) => found({ accountRootHash: accountRoot(s) }) },
  {
    // heimdall §4.7, §6, §7: whether the module already processed the parent-chain event at
    // (txhash, logindex); both are required and the hash is 32 bytes.
    path: /^\/(staking|topup|clerk)\/isoldtx$/,
    answer(s, _p, [module], q) {
      const txHash = q.get('txhash');
      const logIndex = q.get('logindex');
      if (txHash === null || logIndex === null)
        return failed('missingArgument', 'txhash and logindex query params required');
      // A hash that is not 32 bytes of hex: refused, with the hex decoder's own words (not judged).
      if (!/^0[xX][0-9a-fA-F]{64}$/.test(txHash)) return null;
      const li = uint(logIndex);
      if (li === null) return notUint(logIndex);
      return found(s.seen(module as 'staking' | 'topup' | 'clerk', txHash.toLowerCase(), li));
    },
  },
  {
    path: /^\/topup\/dividend-account\/([^/]+)$/,
    answer(s, _p, [arg]) {
      const id = uint(arg!);
      if (id === null) return notUint(arg!);
      if (!s.validator(id)) return failed('notFound', 'No validator found');
      return found({ ID: Number(id), feeAmount: (s.dividends.get(idKey(id)) ?? 0n).toString(), slashedAmount: '0' });
    },
  },
  {
    // heimdall §7 (clerk/client/rest/query.go): limit defaults to 50 and is clamped to 50, page to
    // 1; from-id + to-time: consecutive ids from from-id while record_time < to-time (none when
    // from-id has no record: []); from-time + to-time: from <= record_time < to by time, then id
    // as text, paged; otherwise pages over the id index, whose keys are the ids as decimal text
    // (so 10 comes before 2). An empty page is Go's nil slice: null.
    path: exact('/clerk/event-record/list'),
    answer(s, _p, _a, q) {
      const args: Record<string, bigint | undefined> = {};
      for (const name of ['from-id', 'from-time', 'to-time', 'page', 'limit']) {
        const raw = q.get(name);
        if (raw === null) continue;
        const n = uint(raw);
        if (n === null) return notUint(raw);
        args[name] = n;
      }
      const limit = Number(args.limit === undefined || args.limit > 50n ? 50n : args.limit);
      const pageNo = Number(args.page ?? 1n);
      const byText = (a: ModelRecord, b: ModelRecord) => {
        const x = a.id.toString();
        const y = b.id.toString();
        return x < y ? -1 : x > y ? 1 : 0;
      };
      const all = s.records.entries().map(([, r]) => r);
      const toMs = args['to-time'] === undefined ? undefined : Number(args['to-time']) * 1000;
      if (args['from-id'] !== undefined && toMs !== undefined) {
        const out: ModelRecord[] = [];
        for (let id = args['from-id']; out.length < limit; id++) {
          const r = s.records.get(idKey(id));
          if (!r || r.recordTimeMs >= toMs) break;
          out.push(r);
        }
        return found(out.map(recordJson));
      }
      const pageOf = (xs: ModelRecord[]) => {
        const got = pageNo < 1 ? [] : xs.slice((pageNo - 1) * limit, pageNo * limit);
        return found(got.length ? got.map(recordJson) : null);
      };
      if (args['from-time'] !== undefined && toMs !== undefined) {
        const fromMs = Number(args['from-time']) * 1000;
        return pageOf(
          all
            .filter((r) => r.recordTimeMs >= fromMs && r.recordTimeMs < toMs)
            .sort((a, b) => a.recordTimeMs - b.recordTimeMs || byText(a, b)),
        );
      }
      return pageOf([...all].sort(byText));
    },
  },
  {
    path: /^\/clerk\/event-record\/(?!list$)([^/]+)$/,
    answer(s, _p, [arg]) {
      const id = uint(arg!);
      if (id === null) return notUint(arg!);
      const r = s.records.get(idKey(id));
      return r ? found(recordJson(r)) : failed('notFound', 'No record found');
    },
  },
  {
    path: exact('/chain/params'),
    answer: (_s, p) =>
      found({
        parent_chain_tx_confirmations: Number(p.parentConfirmations),
        sidechain_tx_confirmations: Number(p.sidechainConfirmations),
        sidechain_chain_id: p.sidechainChainId,
      }),
  },
];

/** The answer to `pathWithQuery` (a GET path of the spec, with its query string), or null when not judged. */
export function expectedAnswer(s: ModelState, p: ModelParams, pathWithQuery: string): Answer | null {
  const [path, query = ''] = pathWithQuery.split('?') as [string, string?];
  for (const r of ROUTES) {
    const m = r.path.exec(path);
    if (m) return r.answer(s, p, m.slice(1), new URLSearchParams(query));
  }
  return null;
}

function recordJson(r: NonNullable<ReturnType<ModelState['records']['get']>>): Record<string, unknown> {
  return {
    id: Number(r.id),
    contract: r.contract,
    data: r.data,
    tx_hash: r.txHash,
    log_index: Number(r.logIndex),
    sidechain_chain_id: r.sidechainChainId,
    record_time: rfc3339(r.recordTimeMs),
  };
}
