/**
 * Blocks that arrived before their parent, by the parent they wait for, and the parents being
 * fetched. A parent asked for must arrive: a lost request or answer would otherwise stall the walk
 * back to a known block for good (nothing asks again until a new block needs the same parent).
 * Like geth's block fetcher, the node asks again after a timeout, each time another peer, a few
 * times.
 *
 * A block whose parent is itself held is missing an older block: the parent of the oldest held
 * ancestor. That block is the one to ask for (geth's downloader asks the peer for what the node
 * lacks, not again for what it holds): asking for the held parent instead walks the held chain
 * again one round trip a block, and such a walk ends at its first lost message, as the fetch of a
 * block that is held counts as arrived.
 */
import { type Hex } from '../../core/bytes';
import { type SidechainBlock } from '../../sidechain/block';

/** A missing parent is asked for again after this long, at most this many times in all. */
export const FETCH_TIMEOUT_MS = 2_000;
export const MAX_FETCH_ATTEMPTS = 6;
/** Blocks held for one missing parent at most (a peer cannot fill the node's memory). */
export const MAX_ORPHANS_PER_PARENT = 64;

export interface Orphan {
  block: SidechainBlock;
  /** The peer it came from ('' for this node's own). */
  from: string;
  /** A fresh block (pushed or announced), passed on to the peers once it imports; catch-up blocks are not. */
  relay: boolean;
}

export class OrphanPool {
  private waiting = new Map<Hex, Orphan[]>();
  /** The held blocks: each one's hash, to the parent it waits for. */
  private held = new Map<Hex, Hex>();
  private fetching = new Set<Hex>();

  /** Hold `block` until `parentHash` arrives (once, and within the cap). */
  hold(parentHash: Hex, o: Orphan): void {
    const list = this.waiting.get(parentHash) ?? [];
    if (list.length < MAX_ORPHANS_PER_PARENT && !list.some((x) => x.block.hash === o.block.hash)) {
      list.push(o);
      this.held.set(o.block.hash, parentHash);
    }
    this.waiting.set(parentHash, list);
  }

  /** The blocks that waited for `hash` (now arrived), taken out of the pool. */
  release(hash: Hex): Orphan[] {
    const list = this.waiting.get(hash);
    if (list === undefined) return [];
    this.waiting.delete(hash);
    for (const o of list) this.held.delete(o.block.hash);
    return list;
  }

  /** Whether some held block waits for `hash`. */
  wants(hash: Hex): boolean {
    return this.waiting.has(hash);
  }

  /** Whether the block `hash` itself is held (it arrived; its own parent is missing). */
  holds(hash: Hex): boolean {
    return this.held.has(hash);
  }

  /**
   * The block to fetch for a block waiting for `parentHash`: `parentHash` itself, or, when that
   * block is held, the parent the oldest of its held ancestors waits for.
   */
  missingAncestor(parentHash: Hex): Hex {
    let hash = parentHash;
    for (let next = this.held.get(hash); next !== undefined; next = this.held.get(hash)) hash = next;
    return hash;
  }

  /** Start fetching `hash` (a timeout to arm); false when a fetch is already under way. */
  startFetch(hash: Hex): boolean {
    if (this.fetching.has(hash)) return false;
    this.fetching.add(hash);
    return true;
  }

  endFetch(hash: Hex): void {
    this.fetching.delete(hash);
  }

  /** Forget the fetches under way (their timers were dropped: a re-plan of the node). */
  endFetches(): void {
    this.fetching = new Set();
  }

  /** Forget the held blocks (a rewind drops them; a crash also forgets the fetches). */
  clear(opts: { fetches: boolean }): void {
    this.waiting = new Map();
    this.held = new Map();
    if (opts.fetches) this.fetching = new Set();
  }
}
