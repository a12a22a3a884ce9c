/**
 * A service node's view of the sidechain: the canonical headers its local sidechain node last
 * reported over RPC. Side handlers read it (head number, checkpoint roots); it is only as fresh as
 * the last poll, as a real node's RPC answers would be.
 */
import { type Hex, toHex } from '../core/bytes';
import { checkpointRootHashBytes } from '../core/hashRules';
import { type SidechainObserver } from '../modules/framework/observers';

export interface HeaderSummary {
  number: bigint;
  hash: Hex;
  time: bigint;
  txHash: Hex;
  receiptHash: Hex;
}

export class SidechainView implements SidechainObserver {
  private readonly headers = new Map<bigint, HeaderSummary>();
  private head: bigint | null = null;
  /** Roots are cached per (start, end, hash of end): a reorg changes the end hash. */
  private readonly rootCache = new Map<string, Hex>();

  /**
   * Apply an RPC answer: canonical headers from `from` to the reporter's head, with the reporter's
   * canonical hash at `from - 1` as an anchor. If the anchor differs from ours, the reorg went deeper
   * than we asked: nothing is applied and the caller asks again from further back.
   */
  update(anchor: { number: bigint; hash: Hex } | null, headers: readonly HeaderSummary[], headNumber: bigint): boolean {
    if (anchor) {
      const mine = this.headers.get(anchor.number);
      if (mine && mine.hash !== anchor.hash) {
        this.deepReorgs++;
        return false;
      }
    }
    for (const h of headers) this.headers.set(h.number, h);
    if (this.head !== null) for (let k = headNumber + 1n; k <= this.head; k++) this.headers.delete(k);
    this.head = headNumber;
    return true;
  }

  /** How often an answer did not connect (a reorg deeper than the poll overlap). */
  deepReorgs = 0;

  /** The first block number the next poll should ask for (re-ask a few to notice short reorgs). */
  nextFrom(overlap = 32n): bigint {
    if (this.head === null) return 0n;
    return this.head > overlap ? this.head - overlap : 0n;
  }

  headNumber(): bigint | null {
    return this.head;
  }

  header(n: bigint): HeaderSummary | undefined {
    return this.headers.get(n);
  }

  rootHash(start: bigint, end: bigint, confirmations: bigint): Hex | null {
    if (this.head === null || start > end || end + confirmations > this.head) return null;
    const last = this.headers.get(end);
    if (!last) return null;
    const key = `${start}/${end}/${last.hash}`;
    const hit = this.rootCache.get(key);
    if (hit) return hit;
    const hs: HeaderSummary[] = [];
    for (let k = start; k <= end; k++) {
      const h = this.headers.get(k);
      if (!h) return null;
      hs.push(h);
    }
    const root = toHex(checkpointRootHashBytes(hs));
    this.rootCache.set(key, root);
    return root;
  }
}
