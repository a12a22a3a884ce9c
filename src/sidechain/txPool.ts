/**
 * A node's pool of pending transactions: geth's legacy pool (`core/txpool/legacypool`), reduced to
 * what transfers need. It holds signed transfers that may still run on the node's chain and hands
 * the producer its candidates. Each of a sender's transactions is either *pending* (executable: its
 * nonce continues the run from the account's nonce) or *queued* (behind a nonce gap; it becomes
 * pending when the gap fills). Which one is derived from the accounts, never stored.
 *
 * Admission, in geth's order and words (`core/txpool/validation.go`, `legacypool.add`):
 * - the transaction itself: `already known`, the chain id, `intrinsic gas too low`, `exceeds block
 *   gas limit`, a tip above the fee cap, `transaction underpriced` for a tip under the pool's
 *   minimum (1 wei, geth's `--txpool.pricelimit`) and, beyond geth, for a fee cap under the lowest
 *   base fee the chain ever reaches (baseFee.ts): such a transaction could never be included;
 * - against the head's account: `nonce too low`, `insufficient funds for gas * price + value`
 *   (its own cost, then with the cost of the sender's other pooled transactions: geth's overdraft
 *   check, `queued cost`; geth counts only the pending ones, this pool all of them, so a queued
 *   transaction cannot later overdraw either);
 * - a same-nonce replacement needs both fees strictly higher and at least 10% higher (geth's price
 *   bump): `replacement transaction underpriced`;
 * - room (geth's defaults): a sender may queue 64 transactions (`account limit exceeded`; geth
 *   takes the 65th and drops the highest nonce at its next reorg, this pool refuses it at once so
 *   that an answered hash is kept), 1,024 queued in all (`txpool is full`); 5,120 pending in all,
 *   past which a sender with 16 or more pending is refused (`txpool is full`) and otherwise the
 *   sender with the most pending above 16 gives up its highest nonce (geth's `truncatePending`);
 *   6,144 in all, past which a new transaction
 *   evicts the cheapest (lowest fee cap, then tip) if it pays more (`transaction underpriced`
 *   otherwise), and a queued one never evicts a pending one (`future transaction tries to replace
 *   pending`). Nothing is changed when a transaction is refused.
 *
 * Candidates for a block: each sender's pending run, merged by the tip they pay over the base fee
 * (highest first), then by arrival. After the head moves, `prune` drops what the new head's
 * accounts have passed (included, or replaced on chain) and what the sender can no longer pay
 * for. A reorg's abandoned transactions are added back by the node (sidechainNode.ts). Arrival
 * order is a counter, so the pool is deterministic.
 */
import { type Address } from '../core/address';
import { isPlanted } from '../core/plants';
import { type Hex } from '../core/bytes';
import { type AccountState, accountOf } from './accounts';
import { MIN_BASE_FEE } from './baseFee';
import { type SignedTx, TRANSFER_GAS, TX_ERRORS, effectiveGasPrice, maxCost } from './transaction';

export interface PoolLimits {
  /** Pending transactions a sender keeps when the pending slots are full (geth `AccountSlots`). */
  accountSlots: number;
  /** Pending transactions in all (geth `GlobalSlots`: 4,096 + 1,024). */
  globalSlots: number;
  /** Queued transactions per sender (geth `AccountQueue`). */
  accountQueue: number;
  /** Queued transactions in all (geth `GlobalQueue`). */
  globalQueue: number;
}

export const POOL_LIMITS: Readonly<PoolLimits> = Object.freeze({
  accountSlots: 16,
  globalSlots: 5120,
  accountQueue: 64,
  globalQueue: 1024,
});

/** geth's `--txpool.pricebump`: a replacement pays at least this much more, on both fees (percent). */
export const PRICE_BUMP_PERCENT = 10n;
/** geth's `--txpool.pricelimit`: the least tip the pool takes (wei). */
export const MIN_TIP = 1n;

/** The head a transaction is checked against. */
export interface PoolHead {
  accounts: AccountState;
  chainId: bigint;
  gasLimit: bigint;
}

export type PoolAdd = { ok: true; replaced: Hex | null; evicted: Hex[] } | { ok: false; error: string };

/** What the pool holds, by kind (geth `txpool_content`): each list by sender (in arrival order of senders), then nonce. */
export interface PoolContent {
  pending: SignedTx[];
  queued: SignedTx[];
}

interface Entry {
  tx: SignedTx;
  seq: number;
}

/** How many transactions are pending and queued, in all and per sender. */
interface Census {
  pending: number;
  queued: number;
  bySender: Map<Address, { pending: number; queued: number }>;
}

export class TxPool {
  private readonly bySender = new Map<Address, Map<bigint, Entry>>();
  private readonly byHash = new Map<Hex, Entry>();
  private arrivals = 0;

  constructor(readonly limits: Readonly<PoolLimits> = POOL_LIMITS) {}

  get size(): number {
    return this.byHash.size;
  }

  has(hash: Hex): boolean {
    return this.byHash.has(hash);
  }

  get(hash: Hex): SignedTx | undefined {
    return this.byHash.get(hash)?.tx;
  }

  /** A sender's transactions in the pool, by nonce (pending and queued alike). */
  ofSender(from: Address): SignedTx[] {
    const mine = this.bySender.get(from);
    if (!mine) return [];
    return [...mine.values()].map((e) => e.tx).sort((a, b) => (a.nonce < b.nonce ? -1 : a.nonce > b.nonce ? 1 : 0));
  }

  /** A copy to try admissions on (what a devnet checks a transaction against before it answers). */
  clone(): TxPool {
    const c = new TxPool(this.limits);
    for (const [sender, mine] of this.bySender) c.bySender.set(sender, new Map(mine));
    for (const [hash, e] of this.byHash) c.byHash.set(hash, e);
    c.arrivals = this.arrivals;
    return c;
  }

  /** Admit `tx` if it may run on `head`'s chain now or once earlier nonces arrive; a refusal changes nothing. */
  add(tx: SignedTx, head: PoolHead): PoolAdd {
    if (this.byHash.has(tx.hash)) return { ok: false, error: 'already known' };
    const why = whyRefused(tx, head);
    if (why) return { ok: false, error: why };
    const mine = this.bySender.get(tx.from);
    const old = mine?.get(tx.nonce);
    const overdraft = this.overdraft(tx, old, head.accounts);
    if (overdraft) return { ok: false, error: overdraft };
    let evict: Entry[] = [];
    if (old) {
      if (!outbids(tx, old.tx)) return { ok: false, error: 'replacement transaction underpriced' };
    } else {
      const room = this.room(tx, head.accounts);
      if ('error' in room) return { ok: false, error: room.error };
      evict = room.evict;
    }
    for (const e of evict) this.remove(e);
    const entry: Entry = { tx, seq: this.arrivals++ };
    if (old) this.byHash.delete(old.tx.hash);
    this.byHash.set(tx.hash, entry);
    (this.bySender.get(tx.from) ?? this.bySender.set(tx.from, new Map()).get(tx.from)!).set(tx.nonce, entry);
    return { ok: true, replaced: old ? old.tx.hash : null, evicted: evict.map((e) => e.tx.hash) };
  }

  /** geth's overdraft check: the sender's pooled transactions and this one must all be payable at once. */
  private overdraft(tx: SignedTx, old: Entry | undefined, accounts: AccountState): string | null {
    const account = accountOf(accounts, tx.from);
    let spent = 0n;
    for (const [nonce, e] of this.bySender.get(tx.from) ?? []) if (nonce >= account.nonce) spent += maxCost(e.tx);
    const cost = maxCost(tx);
    const words = 'insufficient funds for gas * price + value';
    if (old) {
      const bump = cost - maxCost(old.tx);
      const need = spent + bump;
      if (account.balance < need)
        return `${words}: balance ${account.balance}, queued cost ${spent}, tx bumped ${bump}, overshot ${need - account.balance}`;
    } else {
      const need = spent + cost;
      if (account.balance < need)
        return `${words}: balance ${account.balance}, queued cost ${spent}, tx cost ${cost}, overshot ${need - account.balance}`;
    }
    return null;
  }

  /** Room for a transaction with a new nonce: what it would evict, or why it is refused. */
  private room(tx: SignedTx, accounts: AccountState): { evict: Entry[] } | { error: string } {
    const { limits } = this;
    const gapped = tx.nonce > this.pendingNonce(tx.from, accounts);
    const evict: Entry[] = [];
    // The counts over the whole pool matter only once it holds that many transactions.
    if (gapped) {
      const queued = this.countOf(tx.from, accounts).queued;
      if (queued >= limits.accountQueue)
        return {
          error: `account limit exceeded: pooled ${queued} queued txs (the pool queues ${limits.accountQueue} per sender behind a nonce gap)`,
        };
      if (this.size >= limits.globalQueue && this.census(accounts).queued >= limits.globalQueue)
        return { error: 'txpool is full' };
    } else if (this.size >= limits.globalSlots) {
      const c = this.census(accounts);
      if (c.pending >= limits.globalSlots) {
        if ((c.bySender.get(tx.from)?.pending ?? 0) >= limits.accountSlots) return { error: 'txpool is full' };
        // geth's truncatePending: the sender with the most pending over its guaranteed slots gives one up.
        let spammer: Address | null = null;
        let most = limits.accountSlots;
        for (const [sender, n] of c.bySender)
          if (n.pending > most) {
            spammer = sender;
            most = n.pending;
          }
        if (spammer !== null) {
          const top = accountOf(accounts, spammer).nonce + BigInt(most) - 1n;
          evict.push(this.bySender.get(spammer)!.get(top)!);
        }
      }
    }
    if (this.size - evict.length >= limits.globalSlots + limits.globalQueue) {
      let cheapest: Entry | null = null;
      for (const e of this.byHash.values())
        if (!evict.includes(e) && (cheapest === null || cheaper(e, cheapest))) cheapest = e;
      if (cheapest === null || !pricier(tx, cheapest.tx)) return { error: 'transaction underpriced' };
      if (gapped && cheapest.tx.nonce < this.pendingNonce(cheapest.tx.from, accounts))
        return { error: 'future transaction tries to replace pending' };
      evict.push(cheapest);
    }
    return { evict };
  }

  private remove(e: Entry): void {
    this.byHash.delete(e.tx.hash);
    const mine = this.bySender.get(e.tx.from);
    mine?.delete(e.tx.nonce);
    if (mine?.size === 0) this.bySender.delete(e.tx.from);
  }

  /** A sender's pending run (from its account's nonce) and the transactions queued behind a gap. */
  private countOf(sender: Address, accounts: AccountState): { pending: number; queued: number } {
    const mine = this.bySender.get(sender);
    if (!mine) return { pending: 0, queued: 0 };
    const next = accountOf(accounts, sender).nonce;
    let pending = 0;
    while (mine.has(next + BigInt(pending))) pending++;
    let queued = 0;
    for (const nonce of mine.keys()) if (nonce >= next + BigInt(pending)) queued++;
    return { pending, queued };
  }

  private census(accounts: AccountState): Census {
    const c: Census = { pending: 0, queued: 0, bySender: new Map() };
    for (const sender of this.bySender.keys()) {
      const n = this.countOf(sender, accounts);
      c.pending += n.pending;
      c.queued += n.queued;
      c.bySender.set(sender, n);
    }
    return c;
  }

  /** How many transactions are pending and queued on `accounts` (geth `txpool_status`). */
  stats(accounts: AccountState): { pending: number; queued: number } {
    const c = this.census(accounts);
    return { pending: c.pending, queued: c.queued };
  }

  /** The nonce a sender's next transaction should carry: its account's, past the consecutive pending ones. */
  pendingNonce(address: Address, accounts: AccountState): bigint {
    let n = accountOf(accounts, address).nonce;
    const mine = this.bySender.get(address);
    while (mine?.has(n)) n++;
    return n;
  }

  /** What a producer should try, in order: executable runs per sender, merged by tip, then arrival. */
  candidates(accounts: AccountState, baseFee: bigint): SignedTx[] {
    const runs: Entry[][] = [];
    for (const [sender, mine] of this.bySender) {
      const run: Entry[] = [];
      for (let n = accountOf(accounts, sender).nonce; mine.has(n); n++) run.push(mine.get(n)!);
      if (run.length) runs.push(run);
    }
    const tipOf = (e: Entry): bigint => {
      const price = effectiveGasPrice(e.tx, baseFee);
      return price === null ? -1n : price - baseFee;
    };
    const out: SignedTx[] = [];
    const at = runs.map(() => 0);
    for (;;) {
      let best = -1;
      for (let i = 0; i < runs.length; i++) {
        const e = runs[i]![at[i]!];
        if (!e) continue;
        const b = best < 0 ? undefined : runs[best]![at[best]!]!;
        if (!b || tipOf(e) > tipOf(b) || (tipOf(e) === tipOf(b) && e.seq < b.seq)) best = i;
      }
      if (best < 0) return out;
      out.push(runs[best]![at[best]!]!.tx);
      at[best]!++;
    }
  }

  /** Drop what `accounts` (the new head's) has passed, and what its sender can no longer pay for. */
  prune(accounts: AccountState): void {
    for (const [sender, mine] of this.bySender) {
      const account = accountOf(accounts, sender);
      for (const [nonce, e] of mine) {
        if (nonce < account.nonce || maxCost(e.tx) > account.balance) {
          mine.delete(nonce);
          this.byHash.delete(e.tx.hash);
        }
      }
      if (mine.size === 0) this.bySender.delete(sender);
    }
  }

  /** What the pool holds on `accounts`: the pending and the queued transactions (geth `txpool_content`). */
  content(accounts: AccountState): PoolContent {
    const out: PoolContent = { pending: [], queued: [] };
    for (const [sender, mine] of this.bySender) {
      const next = this.pendingNonce(sender, accounts);
      const account = accountOf(accounts, sender).nonce;
      for (const e of [...mine.values()].sort((a, b) => (a.tx.nonce < b.tx.nonce ? -1 : 1))) {
        if (e.tx.nonce < account) continue;
        (e.tx.nonce < next ? out.pending : out.queued).push(e.tx);
      }
    }
    return out;
  }

  clear(): void {
    this.bySender.clear();
    this.byHash.clear();
  }
}

/** geth's checks of one transaction on `head` (before the pool's own state), or null when it may be admitted. */
export function whyRefused(tx: SignedTx, head: PoolHead): string | null {
  if (tx.chainId !== head.chainId) return `invalid chain id for signer: have ${tx.chainId} want ${head.chainId}`;
  if (tx.gasLimit < TRANSFER_GAS) return `intrinsic gas too low: gas ${tx.gasLimit}, minimum needed ${TRANSFER_GAS}`;
  if (tx.gasLimit > head.gasLimit) return 'exceeds block gas limit';
  if (tx.maxPriorityFeePerGas > tx.maxFeePerGas) return TX_ERRORS.tipAboveFeeCap;
  if (tx.maxPriorityFeePerGas < MIN_TIP)
    return `transaction underpriced: tip needed ${MIN_TIP}, tip permitted ${tx.maxPriorityFeePerGas}`;
  if (tx.maxFeePerGas < MIN_BASE_FEE)
    return `transaction underpriced: fee cap ${tx.maxFeePerGas}, minimum needed ${MIN_BASE_FEE} (the lowest base fee this chain reaches)`;
  const account = accountOf(head.accounts, tx.from);
  if (tx.nonce < account.nonce) return `nonce too low: next nonce ${account.nonce}, tx nonce ${tx.nonce}`;
  const cost = maxCost(tx);
  if (account.balance < cost)
    return `insufficient funds for gas * price + value: balance ${account.balance}, tx cost ${cost}, overshot ${cost - account.balance}`;
  return null;
}

/** geth's price bump: both fee fields strictly higher, and at least 10% above the replaced transaction's. */
function outbids(tx: SignedTx, old: SignedTx): boolean {
  const threshold = (v: bigint) => (v * (100n + PRICE_BUMP_PERCENT)) / 100n;
  return (
    tx.maxFeePerGas > old.maxFeePerGas &&
    tx.maxPriorityFeePerGas > old.maxPriorityFeePerGas &&
    tx.maxFeePerGas >= threshold(old.maxFeePerGas) &&
    (isPlanted('pool-price-bump') || tx.maxPriorityFeePerGas >= threshold(old.maxPriorityFeePerGas))
  );
}

/** Whether `tx` pays more than `than` (fee cap, then tip): what it takes to evict it from a full pool. */
function pricier(tx: SignedTx, than: SignedTx): boolean {
  if (tx.maxFeePerGas !== than.maxFeePerGas) return tx.maxFeePerGas > than.maxFeePerGas;
  return tx.maxPriorityFeePerGas > than.maxPriorityFeePerGas;
}

/** The eviction order: lower fee cap, then lower tip, then the later arrival first. */
function cheaper(a: Entry, b: Entry): boolean {
  if (a.tx.maxFeePerGas !== b.tx.maxFeePerGas) return a.tx.maxFeePerGas < b.tx.maxFeePerGas;
  if (a.tx.maxPriorityFeePerGas !== b.tx.maxPriorityFeePerGas)
    return a.tx.maxPriorityFeePerGas < b.tx.maxPriorityFeePerGas;
  return a.seq > b.seq;
}
