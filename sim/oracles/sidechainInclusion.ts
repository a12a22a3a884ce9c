/**
 * What a pool admits as next in line, a block takes: a client's transfer that a node admitted
 * with the nonce its sender's account is at (or right after the sender's other pooled ones) is on
 * a chain within INCLUSION_BLOCKS blocks of the highest block seen when it was admitted, or its
 * nonce is taken by another transfer of the sender (a replacement, or the same nonce sent to
 * another node). A wallet that got a hash back waits for that (reference: sidechain.md §5 item 8,
 * `tx.wait()`); a producer that never takes its pool's transactions, or a pool that answers yes
 * and drops them, breaks it.
 *
 * A liveness rule, judged in calm weather only: a promise made while a fault is in force, or within
 * SETTLE_MS after the last one ended, is not judged, and a fault that starts voids the promises made
 * so far (a crash empties a pool; a partition keeps a transaction from the producers). On a lossy
 * network it is not judged at all: a transaction is gossiped once, as geth does, and a lost copy
 * may leave it with a node that does not produce. A balance override of the sender voids its
 * promises (the account may no longer pay). Queued transactions (behind a nonce gap) promise
 * nothing until the gap fills.
 */
import { type Address } from '../../src/core/address';
import { type Hex } from '../../src/core/bytes';
import { Oracle, type RunRecord } from './oracle';

/** Blocks past the highest one seen at admission by which a pending transfer is on a chain. */
export const INCLUSION_BLOCKS = 8n;
/** After the last fault ends, the time nodes get to reconnect and catch up before promises count. */
export const SETTLE_MS = 60_000;

interface Pending {
  hash: Hex;
  from: Address;
  nonce: bigint;
  node: string;
  atMs: number;
  byNumber: bigint;
}

export class SidechainInclusionOracle extends Oracle {
  readonly name = 'sidechain-inclusion';
  readonly class = 'liveness' as const;
  readonly reads = ['fault.start', 'fault.end', 'sidechain.tx', 'sidechain.imported'] as const;
  private openFaults = 0;
  private calmFromMs = 0;
  private highest = 0n;
  /** Per sender, the lowest nonce not yet seen on any chain. */
  private readonly taken = new Map<Address, bigint>();
  private readonly promises = new Map<string, Pending>();

  /** `lossy`: the network loses messages (nothing is judged). */
  constructor(private readonly lossy: boolean) {
    super();
  }

  override observe(r: RunRecord): void {
    const o = r.obs;
    switch (o.kind) {
      case 'fault.start':
        this.openFaults++;
        this.promises.clear();
        return;
      case 'fault.end':
        this.openFaults = Math.max(0, this.openFaults - 1);
        this.calmFromMs = r.t + SETTLE_MS;
        return;
      case 'sidechain.tx': {
        const a = o.admission;
        if (!o.ok || a === undefined || this.lossy || this.openFaults > 0 || r.t < this.calmFromMs) return;
        // Next in line: the account's nonce, or right after the sender's other pooled ones.
        const pooled = new Set(a.after.map((p) => p.nonce));
        let next = a.account.nonce;
        while (next < a.tx.nonce && pooled.has(next)) next++;
        if (next !== a.tx.nonce || a.tx.nonce < (this.taken.get(a.tx.from) ?? 0n)) return;
        this.saw('sidechain.pool.included');
        // The highest block seen, or the node's own head if higher (bigints: no Math.max).
        let base = this.highest;
        if (a.head.number > base) base = a.head.number;
        this.promises.set(`${a.tx.from}:${a.tx.nonce}`, {
          hash: a.tx.hash,
          from: a.tx.from,
          nonce: a.tx.nonce,
          node: r.node,
          atMs: r.t,
          byNumber: base + INCLUSION_BLOCKS,
        });
        return;
      }
      case 'sidechain.imported': {
        const b = o.block;
        if (b.number > this.highest) this.highest = b.number;
        for (const tx of b.transfers?.txs ?? []) {
          if (tx.nonce + 1n > (this.taken.get(tx.from) ?? 0n)) this.taken.set(tx.from, tx.nonce + 1n);
          this.keep(tx.from, (p) => p.nonce > tx.nonce);
        }
        for (const ov of b.transfers?.balances ?? []) this.keep(ov.address, () => false);
        if (this.promises.size === 0) return;
        for (const p of this.promises.values()) {
          if (b.number < p.byNumber) continue;
          this.fail(
            r.t,
            p.node,
            `transfer ${p.hash} (from ${p.from}, nonce ${p.nonce}), admitted by ${p.node} at ${p.atMs} ms as next in line, is on no chain by block ${p.byNumber}, and no other transfer took its nonce`,
            {
              tx: p.hash,
              from: p.from,
              nonce: p.nonce,
              admittedAtMs: p.atMs,
              byBlock: p.byNumber,
              rule: 'sidechain.pool.included',
            },
          );
          this.promises.delete(`${p.from}:${p.nonce}`);
        }
        return;
      }
      default:
        return;
    }
  }

  /** Keep only the promises of `from` that `still` holds for. */
  private keep(from: Address, still: (p: Pending) => boolean): void {
    for (const [k, p] of this.promises) if (p.from === from && !still(p)) this.promises.delete(k);
  }
}
