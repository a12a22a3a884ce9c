/**
 * Which block a JSON-RPC block argument names, on one node's chain (geth's `BlockByNumberOrHash`
 * with Bor's tags, sidechain.md §3.2): `latest` and `pending` are the head (a simulated node has no
 * pending block of its own), `earliest` is genesis, `finalized` and `safe` are the finality floor
 * (the last acknowledged checkpoint's end block), and genesis before the first checkpoint: genesis
 * is final by definition, and a client asking for the finalized block (ethers, viem) gets a block
 * instead of an error it cannot interpret.
 */
import { type Address } from '../../core/address';
import { type SidechainReadPort, type StoredBlock } from '../../sidechain/readPort';
import { type Snapshot } from '../../sidechain/snapshot';
import { type BlockRef } from './goArguments';
import { handlerError } from './rpcErrors';

export const UNKNOWN_BLOCK = 'unknown block';

/** The block a reference names, or undefined if the node does not have it (undefined ref = latest). */
export function resolveBlock(chain: SidechainReadPort, ref: BlockRef | undefined): StoredBlock | undefined {
  if (ref === undefined) return chain.head();
  if ('none' in ref) return undefined;
  if ('hash' in ref) return chain.byHash(ref.hash);
  if ('number' in ref) return chain.byNumber(ref.number);
  switch (ref.tag) {
    case 'latest':
    case 'pending':
      return chain.head();
    case 'earliest':
      return chain.byNumber(0n);
    case 'finalized':
    case 'safe':
      return chain.finalized() ?? chain.genesis();
  }
}

export function mustResolveBlock(chain: SidechainReadPort, ref: BlockRef | undefined): StoredBlock {
  const b = resolveBlock(chain, ref);
  if (!b) throw handlerError(UNKNOWN_BLOCK);
  return b;
}

/** The snapshot a block's checks used (after its parent); undefined for genesis. */
export function parentSnapshot(chain: SidechainReadPort, b: StoredBlock): Snapshot | undefined {
  if (b.block.header.number === 0n) return undefined;
  return chain.byHash(b.block.header.parentHash)?.snapshot;
}

/** Bor `Author`: the seal's signer. Genesis has an all-zero seal, from which nothing recovers. */
export function authorOf(b: StoredBlock): Address {
  if (b.block.header.number === 0n) throw handlerError('recovery failed');
  return b.block.signer.toLowerCase() as Address;
}
