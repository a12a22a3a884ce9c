/**
 * What a server may read from one node's sidechain: its blocks (canonical by number, any branch by
 * hash), their producer snapshots, transactions, receipts and logs, the finalized block and the
 * checkpoint root. Read-only, and in the chain's own terms: formatting them for a wire (geth's
 * JSON-RPC, the console) is the servers' business (src/rpc).
 */
import { weakMemo } from '../core/memo';
import { type Hex } from '../core/bytes';
import { type BlockActivity, type SidechainReceipt, blockActivity } from './blockActivity';
import { type SidechainChain, type StoredBlock } from './chain';
import { type TxLocation, TxIndex } from './txIndex';

export type { BlockActivity, SidechainLog, SidechainReceipt, SidechainTxEntry } from './blockActivity';
export type { TxLocation } from './txIndex';
export type { StoredBlock } from './chain';

export interface SidechainReadPort {
  genesis(): StoredBlock;
  head(): StoredBlock;
  /** The canonical block at height n. */
  byNumber(n: bigint): StoredBlock | undefined;
  /** A stored block on any branch, by its hash (lower-case 0x hex). */
  byHash(hash: Hex): StoredBlock | undefined;
  /** The finality floor (the end block of the last acknowledged checkpoint), if any. */
  finalized(): StoredBlock | undefined;
  /** `sidechain_getRootHash(start, end)` over the canonical chain (hex without 0x), with Bor's errors. */
  rootHash(start: bigint, end: bigint): { ok: true; root: string } | { ok: false; error: string };
  /** A block's transactions (the state-sync one included), receipts and logs. */
  activity(block: StoredBlock): BlockActivity;
  /** A canonical transaction by hash (lower-case 0x hex). */
  transaction(hash: Hex): TxLocation | undefined;
  /** The receipt of a canonical transaction. */
  receipt(hash: Hex): SidechainReceipt | undefined;
}

// One index per chain, kept across the views a server takes of it. The chain changes; its index
// follows it (TxIndex catches up on each read), so a cleared index is simply rebuilt.
const indexes = weakMemo<SidechainChain, TxIndex>('sidechain.txIndexes');

function indexOf(chain: SidechainChain): TxIndex {
  return indexes.getOrCompute(chain, () => new TxIndex(chain));
}

export function chainReadPort(chain: SidechainChain): SidechainReadPort {
  return {
    genesis: () => chain.genesis,
    head: () => chain.head(),
    byNumber: (n) => chain.byNumber(n),
    byHash: (hash) => chain.get(hash),
    finalized: () => {
      const floor = chain.finalityFloor();
      return floor ? chain.get(floor.hash) : undefined;
    },
    rootHash: (start, end) => chain.rootHash(start, end),
    activity: (block) => blockActivity(block),
    transaction: (hash) => indexOf(chain).lookup(hash),
    receipt: (hash) => {
      const at = indexOf(chain).lookup(hash);
      return at?.activity.receipts[at.entry.index];
    },
  };
}
