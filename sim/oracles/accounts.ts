/**
 * Accounts, fees and supply, from each node's committed blocks (spec: Authentication 1-5, the
 * transition table, Limits; heimdall.md §5-§6; README items 20-24):
 *
 *  - AccountsOracle keeps a ledger per node, replays each block on it by the rules, and compares
 *    every account and dividend account the block touched or wrote with what the node stored:
 *    a successful transaction raises its sender's sequence by exactly one and charges exactly the
 *    fixed fee (the block's fees go to its proposer); a rejected one changes nothing; sends move
 *    exactly their amounts; a withdrawal moves coins into the validator's dividend account; a
 *    top-up mints the parent chain's TopUpFee amount to its user and pays the relayer the fixed
 *    10^15; a signer change moves the old signer's balance to the new signer.
 *  - SupplyOracle: balances plus dividend accounts change only by what top-ups mint.
 *  - TopupIdempotencyOracle: a (tx_hash, log_index) is minted at most once on each node.
 */
import { type DeepReadonly } from '../../src/core/readonly';
import { type Address } from '../../src/core/address';
import { fromHex, toHex } from '../../src/core/bytes';
import { keccak256Raw } from '../../src/core/hash';
import { type Coin, type StateWrite, type TxMsgFact } from '../../src/node/observations';
import { Oracle, type RunRecord } from './oracle';
import { DeliveredMsgs, ParentEvents } from './model/serviceFacts';
import { GENESIS_HOLDER, NodeStates, equalFacts } from './model/nodeStates';

type Commit = Extract<RunRecord['obs'], { kind: 'service.commit' }>;

const FEE_DENOM = 'matic';
/** Reference DefaultFeeWantedPerTx: what a top-up pays its relayer (heimdall.md §5). */
const FEE_WANTED_PER_TX = 10n ** 15n;
/** The ante handler's own refusals (codespace sdk; heimdall.md §6.2-§6.3); other codes are a handler's. */
const ANTE_CODES: ReadonlySet<number> = new Set([2, 3, 4, 5, 9, 12, 13, 14, 15, 17]);

/** The address of a 65-byte uncompressed public key: the last 20 bytes of keccak(x ‖ y). */
function addressOfPubKey(pub: string): Address {
  return toHex(keccak256Raw(fromHex(pub).subarray(1)).subarray(12)) as Address;
}

class Ledger {
  readonly balances = new Map<string, Map<string, bigint>>();
  readonly sequences = new Map<string, bigint>();
  readonly dividends = new Map<bigint, bigint>();

  balance(a: string, denom = FEE_DENOM): bigint {
    return this.balances.get(a)?.get(denom) ?? 0n;
  }

  setBalance(a: string, denom: string, v: bigint): void {
    let m = this.balances.get(a);
    if (!m) {
      m = new Map();
      this.balances.set(a, m);
    }
    if (v === 0n) m.delete(denom);
    else m.set(denom, v);
  }

  sequence(a: string): bigint {
    return this.sequences.get(a) ?? 0n;
  }

  apply(w: DeepReadonly<StateWrite>): void {
    if (w.what === 'account') {
      const a = w.address.toLowerCase();
      this.balances.set(a, new Map(w.coins.filter((c) => c.amount !== 0n).map((c) => [c.denom, c.amount])));
      this.sequences.set(a, w.sequence);
    } else if (w.what === 'dividend') this.dividends.set(w.id, w.feeAmount);
  }

  copy(): Ledger {
    const l = new Ledger();
    for (const [a, m] of this.balances) l.balances.set(a, new Map(m));
    for (const [a, s] of this.sequences) l.sequences.set(a, s);
    for (const [i, d] of this.dividends) l.dividends.set(i, d);
    return l;
  }
}

interface NodeBooks {
  /** What the rules say. */
  model: Ledger;
  /** What the node stored. */
  stored: Ledger;
  /** Validator id → signer, as stored (joins and exits are not this oracle's business). */
  signers: Map<bigint, string>;
  fee: bigint;
}

export class AccountsOracle extends Oracle {
  readonly name = 'accounts-and-fees';
  readonly class = 'safety' as const;
  readonly reads = ['parent.block', 'service.genesis', 'service.commit'] as const;
  /** Each node's books, shared by the nodes whose books are equal (model/nodeStates.ts). */
  private readonly books = new NodeStates<NodeBooks>((b) => ({
    model: b.model.copy(),
    stored: b.stored.copy(),
    signers: new Map(b.signers),
    fee: b.fee,
  }));
  /** The last genesis read, and the books made of it (held for nodes that report an equal one). */
  private genesis: { state: unknown; fee: bigint; books: NodeBooks } | null = null;
  private readonly msgs = new DeliveredMsgs();
  private readonly events = new ParentEvents();

  override observe(r: RunRecord): void {
    this.events.observe(r);
    const o = r.obs;
    if (o.kind === 'service.genesis') {
      if (this.books.has(r.node)) return;
      const g = this.genesis;
      if (g !== null && g.fee === o.params.txFees && equalFacts(g.state, o.state)) {
        this.books.set(r.node, g.books);
        return;
      }
      const stored = new Ledger();
      const signers = new Map<bigint, string>();
      for (const w of o.state) {
        stored.apply(w);
        if (w.what === 'validator') signers.set(w.id, w.signer.toLowerCase());
      }
      const books = { model: stored.copy(), stored, signers, fee: o.params.txFees };
      this.genesis = { state: o.state, fee: o.params.txFees, books };
      // Held for the genesis too: a node's first step copies it, so later equal genesis reports share it unchanged.
      this.books.set(GENESIS_HOLDER, books);
      this.books.set(r.node, books);
      return;
    }
    if (o.kind !== 'service.commit') return;
    this.msgs.observe(r);
    this.letGenesisGo();
    if (!this.books.has(r.node)) return;
    // What the step reads of the record (besides its time and node, for a violation).
    this.books.advance(r.node, [o.writes, o.txs, o.sideTxs, o.proposer, o.height], (b) => this.step(r, o, b));
  }

  /** Every node reported its genesis at its start: the held genesis books go (see GENESIS_HOLDER). */
  private letGenesisGo(): void {
    if (this.genesis === null) return;
    this.books.set(GENESIS_HOLDER, null);
    this.genesis = null;
  }

  /** One node's commit on its books (shared with the nodes that take the same step: see NodeStates). */
  private step(r: RunRecord, o: Commit, b: NodeBooks): void {
    const m = b.model;
    const touched = new Set<string>();
    const touchedDividends = new Set<bigint>();
    const problems: string[] = [];
    const move = (from: string, to: string, coins: readonly Coin[], why: string) => {
      for (const c of coins) {
        const have = m.balance(from, c.denom);
        if (have < c.amount) problems.push(`${why}: ${from} had ${have}${c.denom}, less than ${c.amount}`);
        m.setBalance(from, c.denom, have - c.amount);
        m.setBalance(to, c.denom, m.balance(to, c.denom) + c.amount);
      }
      touched.add(from);
      touched.add(to);
    };
    for (const w of o.writes)
      if (w.what === 'validator' && !b.signers.has(w.id)) b.signers.set(w.id, w.signer.toLowerCase());

    // Begin block: the side transactions voted through (post handlers).
    for (const s of o.sideTxs) {
      if (s.code !== 0) continue;
      const msg = this.msgs.get(s.txHash);
      if (msg?.type === 'topup/MsgTopup') {
        this.saw('topup.mint.event-fee');
        const ev = this.events.get(msg.txHash, msg.logIndex);
        if (ev?.event !== 'TopUpFee') {
          problems.push(`top-up ${msg.txHash}/${msg.logIndex} minted, but the parent chain emitted no TopUpFee there`);
          continue;
        }
        const user = ev.user.toLowerCase();
        m.setBalance(user, FEE_DENOM, m.balance(user) + ev.fee);
        touched.add(user);
        move(
          user,
          msg.fromAddress.toLowerCase(),
          [{ denom: FEE_DENOM, amount: FEE_WANTED_PER_TX }],
          'top-up relayer fee',
        );
      } else if (msg?.type === 'staking/MsgSignerUpdate') {
        this.saw('staking.signer-update.moves-balance');
        const old = b.signers.get(msg.id);
        const next = addressOfPubKey(msg.pubKey).toLowerCase();
        if (old !== undefined) {
          const all = m.balance(old);
          if (all > 0n) move(old, next, [{ denom: FEE_DENOM, amount: all }], 'signer change');
          touched.add(old);
        }
        b.signers.set(msg.id, next);
      }
    }

    // Deliver: each successful tx pays the fee, bumps the sequence once and does its message.
    let fees = 0n;
    for (const t of o.txs) {
      // A refused tx changes nothing: the accounts it would have touched are compared unchanged.
      if (t.code !== 0 && t.codespace === 'sdk' && ANTE_CODES.has(t.code)) this.saw('auth.ante.rejected-untouched');
      else if (t.code !== 0) this.saw('auth.tx.handler-failure-rolls-back');
      if (t.code !== 0 || t.signer === null) continue;
      this.saw('auth.ante.fixed-fee');
      this.saw('auth.ante.sequence-increments');
      const signer = t.signer.toLowerCase();
      touched.add(signer);
      const have = m.balance(signer);
      if (have < b.fee) problems.push(`tx ${t.hash} succeeded though ${signer} could not pay the fee (${have})`);
      m.setBalance(signer, FEE_DENOM, have - b.fee);
      fees += b.fee;
      m.sequences.set(signer, m.sequence(signer) + 1n);
      const why = this.doMessage(b, t.msg, signer, move, touched, touchedDividends);
      if (why) problems.push(`tx ${t.hash}: ${why}`);
    }
    // End block: the fees go to the block's proposer.
    if (fees > 0n) {
      this.saw('app.end-block.fees-to-proposer');
      const p = o.proposer.toLowerCase();
      m.setBalance(p, FEE_DENOM, m.balance(p) + fees);
      touched.add(p);
    }

    for (const w of o.writes) {
      b.stored.apply(w);
      if (w.what === 'account') touched.add(w.address.toLowerCase());
      if (w.what === 'dividend') touchedDividends.add(w.id);
      if (w.what === 'validator') b.signers.set(w.id, w.signer.toLowerCase());
    }
    if (problems.length) {
      this.fail(r.t, r.node, `at height ${o.height}: ${problems[0]}`, { height: o.height, problems });
      return;
    }
    for (const a of [...touched].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))) {
      const denoms = new Set([...(m.balances.get(a)?.keys() ?? []), ...(b.stored.balances.get(a)?.keys() ?? [])]);
      for (const d of denoms) {
        if (m.balance(a, d) !== b.stored.balance(a, d)) {
          this.fail(
            r.t,
            r.node,
            `after height ${o.height} ${a} holds ${b.stored.balance(a, d)}${d}; the transactions of the block leave it ${m.balance(a, d)}${d}`,
            {
              height: o.height,
              address: a,
              stored: b.stored.balance(a, d),
              expected: m.balance(a, d),
              txs: txSummary(o.txs),
            },
          );
          return;
        }
      }
      if (m.sequence(a) !== b.stored.sequence(a)) {
        this.fail(
          r.t,
          r.node,
          `after height ${o.height} ${a} has sequence ${b.stored.sequence(a)}; its successful transactions leave it ${m.sequence(a)}`,
          {
            height: o.height,
            address: a,
            stored: b.stored.sequence(a),
            expected: m.sequence(a),
            txs: txSummary(o.txs),
          },
        );
        return;
      }
    }
    for (const id of touchedDividends) {
      const want = m.dividends.get(id) ?? 0n;
      const got = b.stored.dividends.get(id) ?? 0n;
      if (want !== got) {
        this.fail(
          r.t,
          r.node,
          `after height ${o.height} validator ${id}'s dividend account holds ${got}, withdrawals leave it ${want}`,
          {
            height: o.height,
            id,
            stored: got,
            expected: want,
          },
        );
        return;
      }
    }
  }

  /** A successful message's own effect on the ledger; returns what is impossible about it, or null. */
  private doMessage(
    b: NodeBooks,
    msg: DeepReadonly<TxMsgFact> | null,
    signer: string,
    move: (from: string, to: string, coins: readonly Coin[], why: string) => void,
    touched: Set<string>,
    touchedDividends: Set<bigint>,
  ): string | null {
    const m = b.model;
    switch (msg?.type) {
      case 'cosmos-sdk/MsgSend':
        this.saw('bank.send.moves-exact');
        move(msg.fromAddress.toLowerCase(), msg.toAddress.toLowerCase(), msg.amount, 'send');
        return null;
      case 'cosmos-sdk/MsgMultiSend':
        this.saw('bank.multisend.moves-exact');
        for (const i of msg.inputs) {
          const a = i.address.toLowerCase();
          touched.add(a);
          for (const c of i.coins) {
            if (m.balance(a, c.denom) < c.amount) return `multisend input ${a} lacks ${c.amount}${c.denom}`;
            m.setBalance(a, c.denom, m.balance(a, c.denom) - c.amount);
          }
        }
        for (const out of msg.outputs) {
          const a = out.address.toLowerCase();
          touched.add(a);
          for (const c of out.coins) m.setBalance(a, c.denom, m.balance(a, c.denom) + c.amount);
        }
        return null;
      case 'topup/MsgWithdrawFee': {
        let id: bigint | undefined;
        for (const [k, s] of b.signers) if (s === signer) id = k;
        if (id === undefined) return `withdrawal by ${signer}, who is no validator`;
        if (msg.amount === 0n) this.saw('topup.withdraw.whole-balance');
        else this.saw('topup.withdraw.exact');
        const amount = msg.amount === 0n ? m.balance(signer) : msg.amount;
        if (amount === 0n) return 'a withdrawal of nothing succeeded';
        if (m.balance(signer) < amount) return `withdrawal of ${amount} exceeds the balance ${m.balance(signer)}`;
        m.setBalance(signer, FEE_DENOM, m.balance(signer) - amount);
        m.dividends.set(id, (m.dividends.get(id) ?? 0n) + amount);
        touchedDividends.add(id);
        return null;
      }
      default:
        return null;
    }
  }
}

function txSummary(
  txs: ReadonlyArray<{ hash: string; signer: string | null; code: number; msg: DeepReadonly<TxMsgFact> | null }>,
) {
  return txs.map((t) => ({ hash: t.hash, signer: t.signer, code: t.code, msg: t.msg === null ? null : t.msg.type }));
}

interface SupplyBooks {
  accounts: Map<string, bigint>;
  dividends: Map<bigint, bigint>;
  supply: bigint;
  expected: bigint;
}

/** Balances plus dividend accounts change only by top-up mints (fees and withdrawals move coins). */
export class SupplyOracle extends Oracle {
  readonly name = 'supply-conservation';
  readonly class = 'safety' as const;
  readonly reads = ['parent.block', 'service.genesis', 'service.commit'] as const;
  /** Each node's supply books, shared by the nodes whose books are equal (model/nodeStates.ts). */
  private readonly nodes = new NodeStates<SupplyBooks>((s) => ({
    accounts: new Map(s.accounts),
    dividends: new Map(s.dividends),
    supply: s.supply,
    expected: s.expected,
  }));
  private genesis: { state: unknown; books: SupplyBooks } | null = null;
  private readonly msgs = new DeliveredMsgs();
  private readonly events = new ParentEvents();

  private static applyWrite(
    s: { accounts: Map<string, bigint>; dividends: Map<bigint, bigint>; supply: bigint },
    w: DeepReadonly<StateWrite>,
  ): void {
    if (w.what === 'account') {
      let total = 0n;
      for (const c of w.coins) total += c.amount;
      const a = w.address.toLowerCase();
      s.supply += total - (s.accounts.get(a) ?? 0n);
      s.accounts.set(a, total);
    } else if (w.what === 'dividend') {
      s.supply += w.feeAmount - (s.dividends.get(w.id) ?? 0n);
      s.dividends.set(w.id, w.feeAmount);
    }
  }

  override observe(r: RunRecord): void {
    this.events.observe(r);
    const o = r.obs;
    if (o.kind === 'service.genesis') {
      if (this.nodes.has(r.node)) return;
      const g = this.genesis;
      if (g !== null && equalFacts(g.state, o.state)) {
        this.nodes.set(r.node, g.books);
        return;
      }
      const s = { accounts: new Map<string, bigint>(), dividends: new Map<bigint, bigint>(), supply: 0n, expected: 0n };
      for (const w of o.state) SupplyOracle.applyWrite(s, w);
      s.expected = s.supply;
      this.genesis = { state: o.state, books: s };
      this.nodes.set(GENESIS_HOLDER, s);
      this.nodes.set(r.node, s);
      return;
    }
    if (o.kind !== 'service.commit') return;
    this.msgs.observe(r);
    if (this.genesis !== null) {
      // Every node reported its genesis at its start: the held genesis books go (see GENESIS_HOLDER).
      this.nodes.set(GENESIS_HOLDER, null);
      this.genesis = null;
    }
    if (!this.nodes.has(r.node)) return;
    this.nodes.advance(r.node, [o.writes, o.sideTxs, o.height], (s) => this.step(r, o, s));
  }

  private step(r: RunRecord, o: Commit, s: SupplyBooks): void {
    for (const x of o.sideTxs) {
      const msg = x.code === 0 ? this.msgs.get(x.txHash) : undefined;
      if (msg?.type !== 'topup/MsgTopup') continue;
      const ev = this.events.get(msg.txHash, msg.logIndex);
      if (ev?.event === 'TopUpFee') s.expected += ev.fee;
    }
    for (const w of o.writes) SupplyOracle.applyWrite(s, w);
    this.saw('bank.supply.conserved');
    if (s.supply !== s.expected)
      this.fail(r.t, r.node, `supply ${s.supply} != genesis supply plus top-ups ${s.expected} at height ${o.height}`, {
        height: o.height,
        supply: s.supply,
        expected: s.expected,
      });
  }
}

/** Top-up idempotency: a (tx_hash, log_index) is minted at most once on each node. */
export class TopupIdempotencyOracle extends Oracle {
  readonly name = 'topup-idempotency';
  readonly class = 'safety' as const;
  readonly reads = ['service.commit'] as const;
  private readonly minted = new Map<string, Set<string>>();
  private readonly msgs = new DeliveredMsgs();

  override observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind !== 'service.commit') return;
    this.msgs.observe(r);
    for (const x of o.sideTxs) {
      const msg = x.code === 0 ? this.msgs.get(x.txHash) : undefined;
      if (msg?.type !== 'topup/MsgTopup') continue;
      this.saw('topup.mint.once');
      const key = `${msg.txHash}/${msg.logIndex}`;
      const seen = this.minted.get(r.node) ?? new Set();
      if (seen.has(key))
        this.fail(r.t, r.node, `top-up ${key} minted twice`, {
          txHash: msg.txHash,
          logIndex: msg.logIndex,
          height: o.height,
        });
      seen.add(key);
      this.minted.set(r.node, seen);
    }
  }
}
