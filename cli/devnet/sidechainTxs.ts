/**
 * A live devnet's sidechain transactions from wallets (`eth_sendRawTransaction`): the raw signed
 * transaction is checked at once against the node's state and pool (geth answers a bad one with
 * an error, synchronously: `nonce too low`, `insufficient funds …`, `already known`, …), then
 * journaled and delivered to the node at the next window barrier, where the node checks it again,
 * admits it to its pool and gossips it; the call answers the hash once it is journaled.
 *
 * Between the answer and the node taking it in (the next window), the transaction counts as
 * pending: a wallet that asks the pending nonce, or looks the transaction up, right after sending
 * sees it, so a second transfer takes the next nonce.
 */
import { type Address } from '../../src/core/address';
import { type Hex } from '../../src/core/bytes';
import { type SidechainPoolView, type SubmitResult } from '../../src/rpc/ports';
import { type SignedTx, decodeSignedTx } from '../../src/sidechain/transaction';
import { whyRefused } from '../../src/sidechain/txPool';
import { type LiveInbox, type LiveNodes, type LiveState } from './liveTypes';

/** A transaction journaled for node `i` and not yet taken in by it. */
interface InFlight {
  node: number;
  tx: SignedTx;
  /** The virtual time by which the node has taken it in (its delivery time). */
  untilMs: number;
}

export class SidechainTxs {
  private inFlight: InFlight[] = [];
  /** Journaled for the next barrier, not delivered yet. */
  private waiting: InFlight[] = [];

  constructor(private readonly net: LiveNodes & LiveState & LiveInbox) {}

  /** `eth_sendRawTransaction` on node `i`: the hash once journaled, or geth's error. */
  submit(i: number, raw: Hex): Promise<SubmitResult> {
    const net = this.net;
    if (net.isStopped) return Promise.resolve({ ok: false, error: 'the devnet is stopping: nothing was sent' });
    const node = net.sidechainNode(i);
    const d = decodeSignedTx(raw, node.chain.scheme);
    if (!d.ok) return Promise.resolve({ ok: false, error: d.error });
    const tx = d.tx;
    const head = node.chain.head();
    if (node.txs.pool.has(tx.hash) || this.pending(i).some((p) => p.hash === tx.hash))
      return Promise.resolve({ ok: false, error: 'already known' });
    const why = whyRefused(tx, {
      accounts: head.accounts,
      chainId: node.chain.cfg.chainId,
      gasLimit: head.block.header.gasLimit,
    });
    if (why) return Promise.resolve({ ok: false, error: why });
    const mine = this.pending(i).find((p) => p.from === tx.from && p.nonce === tx.nonce);
    if (mine)
      return Promise.resolve({
        ok: false,
        error: `replacement transaction underpriced (a transaction with nonce ${tx.nonce} was just sent: wait for it to reach the pool)`,
      });
    const entry: InFlight = { node: i, tx, untilMs: Number.POSITIVE_INFINITY };
    this.waiting.push(entry);
    return new Promise<SubmitResult>((resolve) => {
      net.enqueue({
        input: { k: 'scTx', node: `sc-${i}`, tx: raw.toLowerCase() },
        journaled: () => resolve({ ok: true, hash: tx.hash }),
        refused: (message) => {
          this.waiting = this.waiting.filter((w) => w !== entry);
          resolve({ ok: false, error: message });
        },
      });
    });
  }

  /** A journaled transaction enters the network (live or replayed), delivered at `deliverAtMs`. */
  entered(node: number, raw: Hex, deliverAtMs: number): void {
    const w = this.waiting.find((x) => x.node === node && x.tx.raw === raw.toLowerCase());
    if (w) {
      this.waiting = this.waiting.filter((x) => x !== w);
      w.untilMs = deliverAtMs;
      this.inFlight.push(w);
    }
  }

  /** The ones the network has taken in by now. */
  private settle(): void {
    const now = this.net.run.ranToMs();
    if (this.inFlight.some((f) => f.untilMs <= now)) this.inFlight = this.inFlight.filter((f) => f.untilMs > now);
  }

  /** Node `i`'s transactions sent and not taken in yet. */
  private pending(i: number): SignedTx[] {
    this.settle();
    return [...this.inFlight, ...this.waiting].filter((f) => f.node === i).map((f) => f.tx);
  }

  /** What `eth_getTransactionCount(…, "pending")` and a pending look-up see on node `i`. */
  poolView(i: number): SidechainPoolView {
    const node = this.net.sidechainNode(i);
    const sent = this.pending(i);
    return {
      pendingNonce: (address: Address) => {
        let n = node.txs.pendingNonce(address);
        while (sent.some((t) => t.from === address && t.nonce === n)) n++;
        return n;
      },
      transaction: (hash: Hex) => node.txs.pool.get(hash) ?? sent.find((t) => t.hash === hash),
    };
  }

  /** A revert or a stop: what was not journaled is gone, and in-flight ones are the replay's business. */
  clear(): void {
    this.inFlight = [];
    this.waiting = [];
  }
}
