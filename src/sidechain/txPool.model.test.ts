/**
 * Model-based test (fc.commands) of the transaction pool against a plain model written from the
 * rules (txPool.ts's header, geth's pool): admission (known, nonce below the account's or too far
 * ahead, funds, the 10% replacement bump, the size limits), the pending nonce, the candidates a
 * producer gets (each sender's consecutive run from its nonce, merged by tip then arrival), and
 * pruning after the accounts move (mined nonces, balances that no longer pay).
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

const LIMITS = { perSender: 3, total: 6 };
const CHAIN = 15001n;
const BASE_FEE = 10n;
const keys = fixtureKeys('tx-pool-model').slice(0, 3);
/** Fee levels: a cheap one, one 10% above it on both fields, one just under that. */
const FEES = [
  { maxFeePerGas: 100n, tip: 20n },
  { maxFeePerGas: 110n, tip: 22n },
  { maxFeePerGas: 109n, tip: 30n },
] as const;

/** Every transaction the commands may add: 3 senders × nonces 0..4 × 3 fee levels. */
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

interface Model {
  accounts: Map<Address, Account>;
  pool: Map<Address, Map<bigint, { tx: SignedTx; seq: number }>>;
  seq: number;
}

interface Real {
  pool: TxPool;
  accounts: Map<Address, Account>;
}

const cost = (t: SignedTx) => t.gasLimit * t.maxFeePerGas + t.value;
const acct = (m: Map<Address, Account>, a: Address): Account => m.get(a) ?? { nonce: 0n, balance: 0n };
const head = (accounts: AccountState) => ({ accounts, chainId: CHAIN, gasLimit: 30_000_000n });
const size = (m: Model) => [...m.pool.values()].reduce((k, x) => k + x.size, 0);

function modelAdd(m: Model, t: SignedTx): { ok: boolean; replaced: Hex | null } {
  const mine = m.pool.get(t.from);
  if ([...m.pool.values()].some((x) => [...x.values()].some((e) => e.tx.hash === t.hash)))
    return { ok: false, replaced: null };
  const a = acct(m.accounts, t.from);
  if (t.nonce < a.nonce || t.nonce >= a.nonce + BigInt(LIMITS.perSender) || a.balance < cost(t))
    return { ok: false, replaced: null };
  const old = mine?.get(t.nonce);
  if (old) {
    const bump = (v: bigint) => v + v / 10n;
    if (t.maxFeePerGas < bump(old.tx.maxFeePerGas) || t.maxPriorityFeePerGas < bump(old.tx.maxPriorityFeePerGas))
      return { ok: false, replaced: null };
  } else if (size(m) >= LIMITS.total || (mine?.size ?? 0) >= LIMITS.perSender) return { ok: false, replaced: null };
  const map = mine ?? new Map();
  map.set(t.nonce, { tx: t, seq: m.seq++ });
  m.pool.set(t.from, map);
  return { ok: true, replaced: old ? old.tx.hash : null };
}

function modelCandidates(m: Model): SignedTx[] {
  const runs: Array<Array<{ tx: SignedTx; seq: number }>> = [];
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

function agree(m: Model, r: Real): void {
  expect(r.pool.size).toBe(size(m));
  for (const k of keys) {
    let n = acct(m.accounts, k.address).nonce;
    while (m.pool.get(k.address)?.has(n)) n++;
    expect(r.pool.pendingNonce(k.address, r.accounts)).toBe(n);
  }
  expect(r.pool.candidates(r.accounts, BASE_FEE).map((t) => t.hash)).toEqual(modelCandidates(m).map((t) => t.hash));
}

class Add implements fc.Command<Model, Real> {
  constructor(readonly i: number) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const t = UNIVERSE[this.i]!;
    const want = modelAdd(m, t);
    const got = r.pool.add(t, head(r.accounts));
    expect(got.ok, `add ${this.toString()}: ${got.ok ? '' : got.error}`).toBe(want.ok);
    if (got.ok) expect(got.replaced).toBe(want.replaced);
    agree(m, r);
  }
  toString = () => `add(${this.i})`;
}

/** A block includes the first `k` candidates: nonces move on, the senders pay; then both prune. */
class Mine implements fc.Command<Model, Real> {
  constructor(readonly k: number) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const chosen = r.pool.candidates(r.accounts, BASE_FEE).slice(0, this.k);
    for (const t of chosen) {
      const a = acct(r.accounts, t.from);
      // Candidates of one sender come in nonce order, so each is the next nonce when it runs.
      expect(t.nonce).toBe(a.nonce);
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

/** A sender's balance drops (it spent elsewhere): what it can no longer pay for goes. */
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
  it('admits, orders, replaces and prunes as the model says', () => {
    const commands = [
      fc.nat({ max: UNIVERSE.length - 1 }).map((i) => new Add(i)),
      fc.integer({ min: 0, max: 4 }).map((k) => new Mine(k)),
      fc
        .tuple(fc.nat({ max: 2 }), fc.constantFrom(0n, 2_000_000n, 4_000_000n, 10n ** 18n))
        .map(([w, b]) => new Spend(w, b)),
    ];
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 40 }), (cmds) => {
        const funded = () => new Map(keys.map((k) => [k.address, { nonce: 0n, balance: 10n ** 18n }]));
        const model: Model = { accounts: funded(), pool: new Map(), seq: 0 };
        const real: Real = { pool: new TxPool(LIMITS), accounts: funded() };
        fc.modelRun(() => ({ model, real }), cmds);
      }),
      { numRuns: 200 },
    );
  });
});
