/**
 * A sidechain node's transactions: what clients send it (a wallet through `eth_sendRawTransaction`,
 * the simulation's workload: one path), what its peers gossip, its pool, and what the operator of a
 * devnet asks of the next block (balance overrides, a next-block time).
 *
 * - A client's transaction is decoded and checked (signature, chain id, nonce, funds: txPool.ts);
 *   admitted, it goes to every peer once (`sc.txs`); peers admit it without passing it on, so a
 *   transaction costs one message per peer. The node reports what it did (`sidechain.tx`). A
 *   devnet answers its client before the node takes the transaction in: `projected` lets it run
 *   the same admission first, on the pool with what is already on its way.
 * - When the head moves the pool drops what the chain has passed. After a reorg (or a rewind) the
 *   transactions of the blocks that left the canonical chain go back into the pool and to the
 *   peers again, so a producer on the winning branch includes them: a reorged-out transfer is
 *   included again, with a new receipt in a new block.
 * - Durable state is the chain; the pool, like geth's, is lost in a crash.
 */
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { type BalanceOverride } from '../../sidechain/block';
import { nextBaseFee } from '../../sidechain/baseFee';
import { type Reorg, type SidechainChain, type StoredBlock } from '../../sidechain/chain';
import { type SignedTx, decodeSignedTx } from '../../sidechain/transaction';
import { type PoolContent, type PoolHead, TxPool } from '../../sidechain/txPool';
import { type PoolAdmissionFact } from '../observations';
import { admissionFact, headFact } from './sidechainFacts';

/** What the node reports about a client's transaction (and about one a reorg gave back). */
export interface TxVerdict {
  hash: Hex | null;
  ok: boolean;
  error: string | null;
}

/** The pool with what is on its way into it (`SidechainTxIntake.projected`). */
export interface ProjectedPool {
  /** What `submit` will answer for `raw` (decoded and checked against the projected pool). */
  check(raw: Hex): { ok: true; tx: SignedTx } | { ok: false; error: string };
  pendingNonce(address: Address): bigint;
  transaction(hash: Hex): SignedTx | undefined;
  content(): PoolContent;
}

export class SidechainTxIntake {
  readonly pool = new TxPool();
  /** Balances the operator set that no block of this node's chain carries yet. */
  private overrides: BalanceOverride[] = [];
  /** The operator's time for the next block: the block numbered `number` is sealed no earlier than `timeS`. */
  nextBlockTime: { number: bigint; timeS: bigint } | null = null;
  /**
   * Whether this node takes a devnet's impersonated transfers (transaction.ts): a devnet's nodes
   * do (its RPC decides whom it impersonates); a simulation's never see one.
   */
  impersonation = false;

  constructor(private readonly chain: SidechainChain) {}

  private head(): PoolHead {
    const h = this.chain.head();
    return { accounts: h.accounts, chainId: this.chain.cfg.chainId, gasLimit: h.block.header.gasLimit };
  }

  /**
   * A client's signed transaction (raw bytes as 0x hex): the verdict, the transaction to gossip if
   * admitted, and what the pool answered on (for the node's report; null when it did not decode).
   */
  submit(raw: Hex): { verdict: TxVerdict; gossip: SignedTx | null; admission: PoolAdmissionFact | null } {
    const d = this.decode(raw);
    if (!d.ok) return { verdict: { hash: null, ok: false, error: d.error }, gossip: null, admission: null };
    const head = this.head();
    const before = this.pool.ofSender(d.tx.from);
    const poolSize = this.pool.size;
    const r = this.pool.add(d.tx, head);
    const admission = admissionFact(d.tx, headFact(this.chain), head, {
      before,
      after: this.pool.ofSender(d.tx.from),
      poolSize,
    });
    return r.ok
      ? { verdict: { hash: d.tx.hash, ok: true, error: null }, gossip: d.tx, admission }
      : { verdict: { hash: d.tx.hash, ok: false, error: r.error }, gossip: null, admission };
  }

  /**
   * The pool as it will be once `sent` (transactions on their way to this node, in the order they
   * will arrive) are in: what a devnet checks a client's transaction against before it answers, so
   * that an answered hash is one the pool will hold. Nothing here changes.
   */
  projected(sent: readonly SignedTx[]): ProjectedPool {
    const pool = this.pool.clone();
    const head = this.head();
    for (const t of sent) pool.add(t, head);
    return {
      check: (raw) => {
        const d = this.decode(raw);
        if (!d.ok) return d;
        const r = pool.clone().add(d.tx, head);
        return r.ok ? { ok: true, tx: d.tx } : { ok: false, error: r.error };
      },
      pendingNonce: (address) => pool.pendingNonce(address, head.accounts),
      transaction: (hash) => pool.get(hash),
      content: () => pool.content(head.accounts),
    };
  }

  private decode(raw: Hex) {
    return decodeSignedTx(raw, this.chain.scheme, this.impersonation ? { impersonation: true } : {});
  }

  /** Transactions a peer gossiped: each checked again from its bytes (a peer is not trusted), admitted or dropped. */
  receive(txs: readonly SignedTx[]): void {
    const head = this.head();
    for (const t of txs) {
      const d = this.decode(t.raw);
      if (d.ok) this.pool.add(d.tx, head);
    }
  }

  /** The head moved (a new block, a reorg, a switch to a checkpointed fork): what to gossip again. */
  headMoved(reorg: Reorg | null): SignedTx[] {
    const back = reorg ? this.abandoned(reorg.oldHead) : [];
    return this.settle(back);
  }

  /** The transactions of the canonical blocks above `n`, before a rewind forgets them. */
  above(n: bigint): SignedTx[] {
    return this.chain.canonicalRange(n + 1n).flatMap((b) => b.block.body.txs);
  }

  /** After a rewind: the forgotten blocks' transactions go back into the pool. */
  rewound(txs: readonly SignedTx[]): SignedTx[] {
    return this.settle(txs);
  }

  /** Put `back` into the pool (those the new head still allows), drop what the head has passed. */
  private settle(back: readonly SignedTx[]): SignedTx[] {
    const head = this.head();
    const readded = back.filter((t) => this.pool.add(t, head).ok);
    this.pool.prune(head.accounts);
    const top = this.chain.head().block;
    if (top.body.balances.length)
      this.overrides = this.overrides.filter(
        (o) => !top.body.balances.some((b) => b.address === o.address && b.balance === o.balance),
      );
    if (this.nextBlockTime && top.header.number >= this.nextBlockTime.number) this.nextBlockTime = null;
    return readded;
  }

  /** The transactions of the blocks from `oldHead` down to the new canonical chain, oldest first. */
  private abandoned(oldHead: Hex): SignedTx[] {
    const blocks: StoredBlock[] = [];
    let b = this.chain.get(oldHead);
    while (b && this.chain.byNumber(b.block.header.number)?.block.hash !== b.block.hash) {
      blocks.push(b);
      b = this.chain.get(b.block.header.parentHash);
    }
    return blocks.reverse().flatMap((x) => x.block.body.txs);
  }

  /** What a producer should try in its next block. */
  candidates(): SignedTx[] {
    const h = this.chain.head();
    return this.pool.candidates(h.accounts, nextBaseFee(h.block.header));
  }

  /** The nonce a sender's next transaction should carry on this node (its pending nonce). */
  pendingNonce(address: Address): bigint {
    return this.pool.pendingNonce(address, this.chain.head().accounts);
  }

  /** The operator set a balance: the node's next block carries it. */
  setBalance(o: BalanceOverride): void {
    this.overrides = [...this.overrides.filter((x) => x.address !== o.address), o];
  }

  pendingOverrides(): readonly BalanceOverride[] {
    return this.overrides;
  }

  /** Forget everything in memory (a crash). */
  clear(): void {
    this.pool.clear();
    this.overrides = [];
    this.nextBlockTime = null;
  }
}
