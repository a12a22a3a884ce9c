/**
 * Where each transaction of a node's canonical chain is: transaction hash → block, as geth's
 * transaction lookup entries (and Bor's "matic-bor-tx-lookup-" entries for the state-sync
 * transaction).
 *
 * Built lazily: a simulation never asks, so a chain pays nothing until a server reads it. Each
 * lookup first indexes the canonical blocks it has not seen, walking down from the head to the
 * first block it indexed at that height (after a reorg or a rewind, the blocks that replaced
 * others). An entry is trusted only while its block is still canonical at its height, so entries
 * of blocks a reorg or a rewind took away are never answered.
 */
import { type Hex } from '../core/bytes';
import { type BlockActivity, type SidechainTxEntry, blockActivity } from './blockActivity';
import { type SidechainChain, type StoredBlock } from './chain';

interface Indexed {
  blockHash: Hex;
  txHashes: readonly Hex[];
}

export interface TxLocation {
  readonly block: StoredBlock;
  readonly entry: SidechainTxEntry;
  readonly activity: BlockActivity;
}

export class TxIndex {
  /** tx hash → the blocks (by number and hash) that carry it. */
  private readonly where = new Map<Hex, Array<{ number: bigint; blockHash: Hex }>>();
  /** Height → the block indexed there. */
  private readonly indexedAt = new Map<bigint, Indexed>();

  constructor(private readonly chain: SidechainChain) {}

  /**
   * The canonical transaction with this hash (lower-case 0x hex), or undefined. Should the same
   * transaction be in two canonical blocks, the later one answers, as geth's lookup entry is
   * overwritten by the newer block.
   */
  lookup(txHash: Hex): TxLocation | undefined {
    this.catchUp();
    let found: StoredBlock | undefined;
    for (const at of this.where.get(txHash) ?? []) {
      const block = this.chain.byNumber(at.number);
      if (block?.block.hash === at.blockHash && (!found || at.number > found.block.header.number)) found = block;
    }
    if (!found) return undefined;
    const activity = blockActivity(found);
    const entry = activity.txs.find((t) => t.hash === txHash);
    return entry ? { block: found, entry, activity } : undefined;
  }

  private catchUp(): void {
    for (let n = this.chain.head().block.header.number; n >= 0n; n--) {
      const b = this.chain.byNumber(n);
      if (!b) break;
      const seen = this.indexedAt.get(n);
      if (seen?.blockHash === b.block.hash) break;
      if (seen) this.forget(n, seen);
      const txHashes = blockActivity(b).txs.map((t) => t.hash);
      for (const h of txHashes) {
        const list = this.where.get(h);
        const at = { number: n, blockHash: b.block.hash };
        if (list) list.push(at);
        else this.where.set(h, [at]);
      }
      this.indexedAt.set(n, { blockHash: b.block.hash, txHashes });
    }
  }

  /** Drop the entries of the block a reorg replaced at height n. */
  private forget(n: bigint, old: Indexed): void {
    for (const h of old.txHashes) {
      const list = this.where.get(h)?.filter((at) => !(at.number === n && at.blockHash === old.blockHash));
      if (list?.length) this.where.set(h, list);
      else this.where.delete(h);
    }
  }
}
