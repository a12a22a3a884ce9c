/**
 * What changed on a node's canonical chain since the last look, for subscriptions (geth's chain
 * events): the blocks that became canonical, oldest first, and the blocks announced before that
 * are canonical no more (a reorg or a rewind took them), in the order they were announced.
 *
 * The follower remembers the last `maxBlocks` blocks it announced. A jump of more than
 * `maxBlocks` (a node catching up) announces only the newest `maxBlocks`, as a subscriber cannot
 * use a flood of old headers anyway.
 */
import { type Hex } from '../../core/bytes';
import { type SidechainReadPort, type StoredBlock } from '../../sidechain/readPort';

export interface ChainChange {
  added: StoredBlock[];
  removed: StoredBlock[];
}

export const DEFAULT_FOLLOW_BLOCKS = 128;

export class ChainFollower {
  private readonly announced = new Map<bigint, StoredBlock>();
  private lastHead: Hex | undefined;

  constructor(readonly maxBlocks = DEFAULT_FOLLOW_BLOCKS) {}

  /** Forget everything: the next `poll` takes the head as it finds it, announcing nothing. */
  reset(): void {
    this.announced.clear();
    this.lastHead = undefined;
  }

  poll(chain: SidechainReadPort): ChainChange {
    const head = chain.head();
    const none: ChainChange = { added: [], removed: [] };
    if (this.lastHead === undefined) {
      this.lastHead = head.block.hash;
      this.announced.set(head.block.header.number, head);
      return none;
    }
    if (head.block.hash === this.lastHead) return none;
    this.lastHead = head.block.hash;

    // What was announced is a chain: the blocks that left it are its top, down to the first
    // one still canonical.
    const numbers = [...this.announced.keys()].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
    const removed: StoredBlock[] = [];
    let top: bigint | undefined;
    for (const n of numbers) {
      const b = this.announced.get(n)!;
      if (chain.byNumber(n)?.block.hash === b.block.hash) {
        top = n;
        break;
      }
      removed.push(b);
      this.announced.delete(n);
    }
    removed.reverse();

    const headNumber = head.block.header.number;
    const lowest = headNumber - BigInt(this.maxBlocks) + 1n;
    let from = top === undefined ? lowest : top + 1n;
    if (from < lowest) from = lowest;
    if (from < 0n) from = 0n;
    // A jump past what is remembered breaks the chain of announced blocks: start it anew.
    if (top === undefined || from > top + 1n) this.announced.clear();
    const added: StoredBlock[] = [];
    for (let n = from; n <= headNumber; n++) {
      const b = chain.byNumber(n);
      if (!b) break;
      added.push(b);
      this.announced.set(n, b);
    }
    for (const n of this.announced.keys()) if (n < lowest) this.announced.delete(n);
    return { added, removed };
  }
}
