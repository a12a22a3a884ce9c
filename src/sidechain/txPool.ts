/**
 * A node's pool of pending transactions (geth's txpool, reduced to what transfers need). It holds
 * signed transfers that may still run on the node's chain and hands the producer its candidates.
 *
 * - Admission checks a transaction against the head's accounts, with geth's words: the chain id,
 *   `nonce too low`, `intrinsic gas too low`, `exceeds block gas limit`, the fee fields, `insufficient
 *   funds for gas * price + value`. A nonce above the sender's next one is kept (geth's queue): it
 *   becomes executable when the gap fills. A transaction with the same sender and nonce as a
 *   pending one replaces it only with both fees at least 10% higher (`replacement transaction
 *   underpriced`); the same transaction again is `already known`.
 * - Candidates for a block: each sender's run of consecutive nonces from its account nonce, merged
 *   by the tip they pay over the base fee (highest first), then by arrival.
 * - After the head moves, `prune` drops what the new head's accounts have passed (included, or
 *   replaced on chain) and what the sender can no longer pay for. A reorg's abandoned transactions
 *   are added back by the node (sidechainNode.ts), so they are included again.
 *
 * Sizes are bounded (per sender and in all) so a flood cannot grow a node without limit. Arrival
 * order is a counter, so the pool is deterministic.
 */
import { type Address } from '../core/address';
import { type Hex } from '../core/bytes';
import { type AccountState, accountOf } from './accounts';
import { type SignedTx, TRANSFER_GAS, effectiveGasPrice, maxCost } from './transaction';

export const POOL_LIMITS = { perSender: 64, total: 4096 } as const;

/** The head a transaction is checked against. */
export interface PoolHead {
  accounts: AccountState;
  chainId: bigint;
  gasLimit: bigint;
}

export type PoolAdd = { ok: true; replaced: Hex | null } | { ok: false; error: string };

interface Entry {
  tx: SignedTx;
  seq: number;
}

export class TxPool {
  private readonly bySender = new Map<Address, Map<bigint, Entry>>();
  private readonly byHash = new Map<Hex, Entry>();
  private arrivals = 0;

  constructor(readonly limits: { perSender: number; total: number } = POOL_LIMITS) {}

  get size(): number {
    return this.byHash.size;
  }

  has(hash: Hex): boolean {
    return this.byHash.has(hash);
  }

  get(hash: Hex): SignedTx | undefined {
    return this.byHash.get(hash)?.tx;
  }

  /** Admit `tx` if it may run on `head`'s chain now or once earlier nonces arrive. */
  add(tx: SignedTx, head: PoolHead): PoolAdd {
    if (this.byHash.has(tx.hash)) return { ok: false, error: 'already known' };
    const why = whyRefused(tx, head, this.limits.perSender);
    if (why) return { ok: false, error: why };
    const mine = this.bySender.get(tx.from);
    const old = mine?.get(tx.nonce);
    if (old) {
      if (!outbids(tx, old.tx)) return { ok: false, error: 'replacement transaction underpriced' };
    } else if (this.byHash.size >= this.limits.total || (mine?.size ?? 0) >= this.limits.perSender) {
      return { ok: false, error: 'txpool is full' };
    }
    const entry: Entry = { tx, seq: this.arrivals++ };
    if (old) this.byHash.delete(old.tx.hash);
    this.byHash.set(tx.hash, entry);
    (mine ?? this.bySender.set(tx.from, new Map()).get(tx.from)!).set(tx.nonce, entry);
    return { ok: true, replaced: old ? old.tx.hash : null };
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

  /** Every pending transaction, by sender then nonce (for the RPC). */
  pending(): SignedTx[] {
    return [...this.bySender.values()].flatMap((m) =>
      [...m.values()].sort((a, b) => (a.tx.nonce < b.tx.nonce ? -1 : 1)).map((e) => e.tx),
    );
  }

  clear(): void {
    this.bySender.clear();
    this.byHash.clear();
  }
}

/** geth's pool checks for one transaction on `head`, or null when it may be admitted. */
export function whyRefused(tx: SignedTx, head: PoolHead, perSender: number = POOL_LIMITS.perSender): string | null {
  if (tx.chainId !== head.chainId) return `invalid chain id for signer: have ${tx.chainId} want ${head.chainId}`;
  if (tx.gasLimit < TRANSFER_GAS) return `intrinsic gas too low: gas ${tx.gasLimit}, minimum needed ${TRANSFER_GAS}`;
  if (tx.gasLimit > head.gasLimit) return 'exceeds block gas limit';
  if (tx.maxPriorityFeePerGas > tx.maxFeePerGas) return 'max priority fee per gas higher than max fee per gas';
  const account = accountOf(head.accounts, tx.from);
  if (tx.nonce < account.nonce) return `nonce too low: next nonce ${account.nonce}, tx nonce ${tx.nonce}`;
  if (tx.nonce >= account.nonce + BigInt(perSender))
    return `nonce too high: next nonce ${account.nonce}, tx nonce ${tx.nonce} (the pool keeps ${perSender} per sender)`;
  const cost = maxCost(tx);
  if (account.balance < cost)
    return `insufficient funds for gas * price + value: balance ${account.balance}, tx cost ${cost}, overshot ${cost - account.balance}`;
  return null;
}

/** geth's price bump: both fee fields at least 10% above the replaced transaction's. */
function outbids(tx: SignedTx, old: SignedTx): boolean {
  const bumped = (v: bigint) => v + v / 10n;
  return tx.maxFeePerGas >= bumped(old.maxFeePerGas) && tx.maxPriorityFeePerGas >= bumped(old.maxPriorityFeePerGas);
}
