/**
 * A live devnet's sidechain transactions from wallets (`eth_sendRawTransaction`): the raw signed
 * transaction is checked at once (geth answers a bad one with an error, synchronously: `nonce too
 * low`, `insufficient funds …`, `replacement transaction underpriced`, `already known`, …), then
 * journaled and delivered to the node at the next window barrier, where the node checks it again,
 * admits it to its pool and gossips it; the call answers the hash once it is journaled.
 *
 * The check runs the node's own pool admission on a copy of its pool with the transactions sent to
 * it and not yet taken in added first, in order (txIntake.ts `projected`): a hash is answered only
 * for a transaction the node will hold when it arrives. What can still part them is what no node
 * knows at submit: a block that includes the transaction being replaced before the replacement
 * arrives, a peer's transaction of the same sender and nonce gossiped in first, an eviction from a
 * full pool. Between the answer and the node taking it in, the transaction counts as pending: a
 * wallet that asks the pending nonce, or looks the transaction up, right after sending sees it.
 */
import { type Address } from '../../src/core/address';
import { type Hex } from '../../src/core/bytes';
import { type SidechainPoolView, type SubmitResult } from '../../src/rpc/ports';
import { type SignedTx, TX_ERRORS } from '../../src/sidechain/transaction';
import { type ProjectedPool } from '../../src/node/sidechain/txIntake';
import { type LiveInbox, type LiveNodes, type LiveState } from './liveTypes';

/** A transaction journaled for node `i` and not yet taken in by it. */
interface InFlight {
  node: number;
  tx: SignedTx;
  /** The virtual time by which the node has taken it in (its delivery time). */
  untilMs: number;
}

export class SidechainTxs {
  /**
   * The accounts the devnet impersonates (anvil_impersonateAccount): an unsigned transfer naming
   * one of them is taken (the nodes decode them, liveNetwork.ts); one naming anyone else is not.
   * Kept for as long as the devnet runs.
   */
  readonly impersonated = new Set<Address>();
  private inFlight: InFlight[] = [];
  /** Journaled for the next barrier, not delivered yet. */
  private waiting: InFlight[] = [];

  constructor(private readonly net: LiveNodes & LiveState & LiveInbox) {}

  /** `eth_sendRawTransaction` on node `i`: the hash once journaled, or geth's error. */
  submit(i: number, raw: Hex): Promise<SubmitResult> {
    const net = this.net;
    if (net.isStopped) return Promise.resolve({ ok: false, error: 'the devnet is stopping: nothing was sent' });
    const checked = net.sidechainNode(i).txs.projected(this.pending(i)).check(raw);
    if (!checked.ok) return Promise.resolve({ ok: false, error: checked.error });
    const tx = checked.tx;
    if (tx.impersonated && !this.impersonated.has(tx.from))
      return Promise.resolve({ ok: false, error: TX_ERRORS.invalidSignatureValues });
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

  /** What `eth_getTransactionCount(…, "pending")`, a pending look-up and `txpool_*` see on node `i`. */
  poolView(i: number): SidechainPoolView {
    let projected: ProjectedPool | undefined;
    const pool = () => (projected ??= this.net.sidechainNode(i).txs.projected(this.pending(i)));
    return {
      pendingNonce: (address) => pool().pendingNonce(address),
      transaction: (hash: Hex) => pool().transaction(hash),
      content: () => pool().content(),
    };
  }

  /** A revert or a stop: what was not journaled is gone, and in-flight ones are the replay's business. */
  clear(): void {
    this.inFlight = [];
    this.waiting = [];
  }
}
