/**
 * Model-based test (fc.commands) of the transaction pool against a plain model written from the
 * rules (txPool.ts's header, geth's legacy pool), with small limits so that every rule is met:
 * admission (known, nonce below the account's, funds, the overdraft of a sender's pooled
 * transactions, the strict 10% replacement bump), queueing behind a nonce gap (per sender and in
 * all), the pending slots (a sender over its guaranteed slots gives up its highest nonce), a full
 * pool evicting the cheapest or refusing, the pending nonce, pending and queued content, the
 * candidates a producer gets (each sender's consecutive run from its nonce, merged by tip then
 * arrival), and pruning after the accounts move (mined nonces, balances that no longer pay).
 * A refused transaction never changes the pool.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Address } from '../core/address';
import { type Hex } from '../core/bytes';
import { realScheme } from '../core/signatureScheme';
import { type Account, type AccountState } from './accounts';
import { fixtureKeys } from './testing/fixture';
import { type SignedTx, TRANSFER_GAS, signTransfer } from './transaction';
import { TxPool } from './txPool';

/**
 * Two sets of small limits: the first meets the per-sender and per-kind limits; the second, with
 * more guaranteed slots than pending slots, fills the pool (promotion lets pending pass its limit)
 * so that a newcomer must evict the cheapest.
 */
const LIMIT_SETS = [
  { accountSlots: 2, globalSlots: 4, accountQueue: 2, globalQueue: 2 },
  { accountSlots: 4, globalSlots: 2, accountQueue: 3, globalQueue: 1 },
] as const;
type Limits = (typeof LIMIT_SETS)[number];
const CHAIN = 15001n;
const BASE_FEE = 10n;
const keys = fixtureKeys('tx-pool-model').slice(0, 3);
/** Fee levels: a cheap one, one 10% above it on both fields, one just under that, one well above. */
const FEES = [
  { maxFeePerGas: 100n, tip: 20n },
  { maxFeePerGas: 110n, tip: 22n },
  { maxFeePerGas: 109n, tip: 30n },
  { maxFeePerGas: 130n, tip: 26n },
] as const;

/** Every transaction the commands may add: 3 senders × nonces 0..4 × 4 fee levels. */
const UNIVERSE: SignedTx[] = keys.flatMap((k, ki) =>
  [0n, 1n, 2n, 3n, 4n].flatMap((nonce) =>
    FEES.map((f, fi) =>
      signTransfer(
        {
          type: (ki + fi) % 2 === 0 ? 2 : 0,
          chainId: CHAIN,
          nonce,
          to: keys[(ki + 1) % keys.length]!.address,
          value: 1n,
          gasLimit: TRANSFER_GAS,
          maxFeePerGas: f.maxFeePerGas,
          maxPriorityFeePerGas: f.tip,
        },
        k.sk,
        realScheme,
      ),
    ),
  ),
);

interface Slot {
  tx: SignedTx;
  seq: number;
}

interface Model {
  limits: Limits;
  accounts: Map<Address, Account>;
  /** Per sender (in the order senders first came, forgotten when they have none), per nonce. */
  pool: Map<Address, Map<bigint, Slot>>;
  seq: number;
}

interface Real {
  pool: TxPool;
  accounts: Map<Address, Account>;
}

const cost = (t: SignedTx) => t.gasLimit * t.maxFeePerGas + t.value;
const acct = (m: Map<Address, Account>, a: Address): Account => m.get(a) ?? { nonce: 0n, balance: 0n };
const head = (accounts: AccountState) => ({ accounts, chainId: CHAIN, gasLimit: 30_000_000n });
const all = (m: Model): Slot[] => [...m.pool.values()].flatMap((x) => [...x.values()]);

/** The end of a sender's run of consecutive nonces from its account's nonce (its pending nonce). */
function runEnd(m: Model, a: Address): bigint {
  let n = acct(m.accounts, a).nonce;
  while (m.pool.get(a)?.has(n)) n++;
  return n;
}

const isPending = (m: Model, s: Slot) =>
  s.tx.nonce >= acct(m.accounts, s.tx.from).nonce && s.tx.nonce < runEnd(m, s.tx.from);
const isQueued = (m: Model, s: Slot) => s.tx.nonce >= runEnd(m, s.tx.from);

function drop(m: Model, s: Slot): void {
  const map = m.pool.get(s.tx.from)!;
  map.delete(s.tx.nonce);
  if (map.size === 0) m.pool.delete(s.tx.from);
}

/** Returns the hashes evicted, or null when the model refuses. */
function modelAdd(m: Model, t: SignedTx): { replaced: Hex | null; evicted: Hex[] } | null {
  if (all(m).some((s) => s.tx.hash === t.hash)) return null;
  const a = acct(m.accounts, t.from);
  if (t.nonce < a.nonce || a.balance < cost(t)) return null;
  const mine = [...(m.pool.get(t.from)?.values() ?? [])].filter((s) => s.tx.nonce >= a.nonce);
  const old = m.pool.get(t.from)?.get(t.nonce);
  const others = mine.filter((s) => s !== old).reduce((k, s) => k + cost(s.tx), 0n);
  if (a.balance < others + cost(t)) return null;
  const LIMITS = m.limits;
  const evicted: Slot[] = [];
  if (old) {
    const at110 = (v: bigint) => (v * 110n) / 100n;
    const bumped =
      t.maxFeePerGas > old.tx.maxFeePerGas &&
      t.maxPriorityFeePerGas > old.tx.maxPriorityFeePerGas &&
      t.maxFeePerGas >= at110(old.tx.maxFeePerGas) &&
      t.maxPriorityFeePerGas >= at110(old.tx.maxPriorityFeePerGas);
    if (!bumped) return null;
  } else {
    const gapped = t.nonce > runEnd(m, t.from);
    if (gapped) {
      if (mine.filter((s) => isQueued(m, s)).length >= LIMITS.accountQueue) return null;
      if (all(m).filter((s) => isQueued(m, s)).length >= LIMITS.globalQueue) return null;
    } else if (all(m).filter((s) => isPending(m, s)).length >= LIMITS.globalSlots) {
      if (mine.filter((s) => isPending(m, s)).length >= LIMITS.accountSlots) return null;
      // The first sender (in the order they came) with the most pending above its slots loses its highest.
      let victim: Slot | null = null;
      let most: number = LIMITS.accountSlots;
      for (const map of m.pool.values()) {
        const pending = [...map.values()].filter((s) => isPending(m, s));
        if (pending.length > most) {
          most = pending.length;
          victim = pending.reduce((x, y) => (y.tx.nonce > x.tx.nonce ? y : x));
        }
      }
      if (victim) evicted.push(victim);
    }
    if (all(m).length - evicted.length >= LIMITS.globalSlots + LIMITS.globalQueue) {
      const candidates = all(m).filter((s) => !evicted.includes(s));
      const cheapest = candidates.reduce((x, y) => {
        if (y.tx.maxFeePerGas !== x.tx.maxFeePerGas) return y.tx.maxFeePerGas < x.tx.maxFeePerGas ? y : x;
        if (y.tx.maxPriorityFeePerGas !== x.tx.maxPriorityFeePerGas)
          return y.tx.maxPriorityFeePerGas < x.tx.maxPriorityFeePerGas ? y : x;
        return y.seq > x.seq ? y : x;
      });
      const pays =
        t.maxFeePerGas > cheapest.tx.maxFeePerGas ||
        (t.maxFeePerGas === cheapest.tx.maxFeePerGas && t.maxPriorityFeePerGas > cheapest.tx.maxPriorityFeePerGas);
      if (!pays) return null;
      if (gapped && isPending(m, cheapest)) return null;
      evicted.push(cheapest);
    }
  }
  for (const s of evicted) drop(m, s);
  const map = m.pool.get(t.from) ?? new Map<bigint, Slot>();
  map.set(t.nonce, { tx: t, seq: m.seq++ });
  m.pool.set(t.from, map);
  return { replaced: old ? old.tx.hash : null, evicted: evicted.map((s) => s.tx.hash) };
}

function modelCandidates(m: Model): SignedTx[] {
  const runs: Slot[][] = [];
  for (const [sender, map] of m.pool) {
    const run = [];
    for (let n = acct(m.accounts, sender).nonce; map.has(n); n++) run.push(map.get(n)!);
    if (run.length) runs.push(run);
  }
  const tip = (t: SignedTx) => {
    const price =
      t.maxFeePerGas < BASE_FEE + t.maxPriorityFeePerGas ? t.maxFeePerGas : BASE_FEE + t.maxPriorityFeePerGas;
    return price - BASE_FEE;
  };
  const out: SignedTx[] = [];
  for (;;) {
    const heads = runs.filter((r) => r.length > 0);
    if (heads.length === 0) return out;
    heads.sort((a, b) => {
      const d = tip(b[0]!.tx) - tip(a[0]!.tx);
      return d !== 0n ? (d > 0n ? 1 : -1) : a[0]!.seq - b[0]!.seq;
    });
    out.push(heads[0]!.shift()!.tx);
  }
}

function modelPrune(m: Model): void {
  for (const [sender, map] of m.pool) {
    const a = acct(m.accounts, sender);
    for (const [n, e] of map) if (n < a.nonce || cost(e.tx) > a.balance) map.delete(n);
    if (map.size === 0) m.pool.delete(sender);
  }
}

const hashes = (txs: readonly SignedTx[]) => txs.map((t) => t.hash).sort();

function agree(m: Model, r: Real): void {
  expect(r.pool.size).toBe(all(m).length);
  for (const k of keys) expect(r.pool.pendingNonce(k.address, r.accounts)).toBe(runEnd(m, k.address));
  expect(r.pool.candidates(r.accounts, BASE_FEE).map((t) => t.hash)).toEqual(modelCandidates(m).map((t) => t.hash));
  const content = r.pool.content(r.accounts);
  expect(hashes(content.pending)).toEqual(
    hashes(
      all(m)
        .filter((s) => isPending(m, s))
        .map((s) => s.tx),
    ),
  );
  expect(hashes(content.queued)).toEqual(
    hashes(
      all(m)
        .filter((s) => isQueued(m, s))
        .map((s) => s.tx),
    ),
  );
  expect(r.pool.stats(r.accounts)).toEqual({ pending: content.pending.length, queued: content.queued.length });
}

class Add implements fc.Command<Model, Real> {
  constructor(readonly i: number) {}
  check = () => true;
  run(m: Model, r: Real): void {
    this.add(m, r, UNIVERSE[this.i]!);
  }

  protected add(m: Model, r: Real, t: SignedTx): void {
    const before = r.pool.content(r.accounts);
    const want = modelAdd(m, t);
    const got = r.pool.add(t, head(r.accounts));
    expect(got.ok, `add ${this.toString()}: ${got.ok ? '' : got.error}`).toBe(want !== null);
    if (got.ok) {
      expect(got.replaced).toBe(want!.replaced);
      expect(got.evicted).toEqual(want!.evicted);
    } else expect(r.pool.content(r.accounts)).toEqual(before);
    agree(m, r);
  }
  toString = () => `add(${this.i})`;
}

/** A sender's next transaction (its pending nonce, as a wallet asks it), at a fee level: what fills the pending slots. */
class AddNext extends Add {
  constructor(
    readonly who: number,
    readonly fee: number,
  ) {
    super(0);
  }
  override run(m: Model, r: Real): void {
    const next = runEnd(m, keys[this.who]!.address);
    if (next > 4n) return;
    this.add(m, r, UNIVERSE[(this.who * 5 + Number(next)) * FEES.length + this.fee]!);
  }
  override toString = () => `addNext(${this.who}, ${this.fee})`;
}

/** A block includes what runs of the first `k` candidates: nonces move on, the senders pay; then both prune. */
class Mine implements fc.Command<Model, Real> {
  constructor(readonly k: number) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const chosen = r.pool.candidates(r.accounts, BASE_FEE).slice(0, this.k);
    for (const t of chosen) {
      const a = acct(r.accounts, t.from);
      // A producer skips what the sender cannot pay for now (a Spend lowered its balance), and so its later nonces.
      if (t.nonce !== a.nonce || a.balance < cost(t)) continue;
      const next = { nonce: a.nonce + 1n, balance: a.balance - cost(t) };
      r.accounts.set(t.from, next);
      m.accounts.set(t.from, next);
    }
    r.pool.prune(r.accounts);
    modelPrune(m);
    agree(m, r);
  }
  toString = () => `mine(${this.k})`;
}

/** A sender's balance changes (it spent elsewhere, or an operator set it): what it can no longer pay for goes. */
class Spend implements fc.Command<Model, Real> {
  constructor(
    readonly who: number,
    readonly balance: bigint,
  ) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const a = keys[this.who]!.address;
    const next = { nonce: acct(r.accounts, a).nonce, balance: this.balance };
    r.accounts.set(a, next);
    m.accounts.set(a, next);
    r.pool.prune(r.accounts);
    modelPrune(m);
    agree(m, r);
  }
  toString = () => `spend(${this.who}, ${this.balance})`;
}

describe('TxPool (model-based)', () => {
  it('admits, queues, evicts, orders, replaces and prunes as the model says', () => {
    const commands = [
      fc.nat({ max: UNIVERSE.length - 1 }).map((i) => new Add(i)),
      fc.tuple(fc.nat({ max: 2 }), fc.nat({ max: FEES.length - 1 })).map(([w, f]) => new AddNext(w, f)),
      fc.integer({ min: 0, max: 4 }).map((k) => new Mine(k)),
      fc
        .tuple(fc.nat({ max: 2 }), fc.constantFrom(0n, 2_500_000n, 5_000_000n, 10n ** 18n))
        .map(([w, b]) => new Spend(w, b)),
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...LIMIT_SETS),
        fc.commands(commands, { maxCommands: 80, size: 'max' }),
        (limits, cmds) => {
          const funded = () => new Map(keys.map((k) => [k.address, { nonce: 0n, balance: 10n ** 18n }]));
          const model: Model = { limits, accounts: funded(), pool: new Map(), seq: 0 };
          const real: Real = { pool: new TxPool(limits), accounts: funded() };
          fc.modelRun(() => ({ model, real }), cmds);
        },
      ),
      { numRuns: 400 },
    );
  });
});
