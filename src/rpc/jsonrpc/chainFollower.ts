/**
 * What changed on a node's canonical chain since the last look, for subscriptions (geth's chain
 * events): the blocks that became canonical, oldest first, and the blocks of the previous chain
 * that are canonical no more (a reorg or a rewind took them), oldest first.
 *
 * The follower walks back from the last head it announced along parent links until it meets the
 * canonical chain: that is the fork point, whatever the follower saw before, so a follower that
 * started on a head in the middle of a chain (a devnet opened at a time) reports a reorg as the
 * blocks it took and the blocks it brought, never the whole chain. Blocks a rewind forgot are
 * still known to the follower if it announced them (it remembers the last `maxBlocks`).
 *
 * At most `maxBlocks` blocks are reported each way: a node catching up by more than that announces
 * only the newest, as a subscriber cannot use a flood of old headers anyway.
 */
import { type Hex } from '../../core/bytes';
import { type SidechainReadPort, type StoredBlock } from '../../sidechain/readPort';

export interface ChainChange {
  added: StoredBlock[];
  removed: StoredBlock[];
}

export const DEFAULT_FOLLOW_BLOCKS = 128;

export class ChainFollower {
  /** Announced blocks by hash, the most recent `maxBlocks` (insertion order). */
  private readonly announced = new Map<Hex, StoredBlock>();
  private last: StoredBlock | undefined;

  constructor(readonly maxBlocks = DEFAULT_FOLLOW_BLOCKS) {}

  /** Forget everything: the next `poll` takes the head as it finds it, announcing nothing. */
  reset(): void {
    this.announced.clear();
    this.last = undefined;
  }

  poll(chain: SidechainReadPort): ChainChange {
    const head = chain.head();
    const none: ChainChange = { added: [], removed: [] };
    if (this.last === undefined) {
      this.remember(head);
      return none;
    }
    if (head.block.hash === this.last.block.hash) return none;

    // Back from the last announced head to the first block that is still canonical: the fork point.
    const removed: StoredBlock[] = [];
    let b: StoredBlock | undefined = this.last;
    while (b && chain.byNumber(b.block.header.number)?.block.hash !== b.block.hash) {
      if (removed.length === this.maxBlocks) break;
      removed.push(b);
      const parent: Hex = b.block.header.parentHash;
      b = this.announced.get(parent) ?? chain.byHash(parent);
    }
    removed.reverse();
    const oldest = removed[0]?.block.header.number;
    const forkPoint = oldest !== undefined ? oldest - 1n : this.last.block.header.number;

    const headNumber = head.block.header.number;
    let from = forkPoint + 1n;
    const lowest = headNumber - BigInt(this.maxBlocks) + 1n;
    if (from < lowest) from = lowest;
    if (from < 0n) from = 0n;
    const added: StoredBlock[] = [];
    for (let n = from; n <= headNumber; n++) {
      const c = chain.byNumber(n);
      if (!c) break;
      added.push(c);
      this.remember(c);
    }
    if (added.length === 0) this.remember(head);
    return { added, removed };
  }

  private remember(b: StoredBlock): void {
    this.last = b;
    this.announced.delete(b.block.hash);
    this.announced.set(b.block.hash, b);
    if (this.announced.size > this.maxBlocks) this.announced.delete(this.announced.keys().next().value!);
  }
}
