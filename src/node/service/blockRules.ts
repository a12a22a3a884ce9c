/**
 * The service chain's block rules, as pure functions of the chain's tip: the block a proposer
 * makes, whether a proposed block may be voted for, whether a commit is valid, and whether a
 * block fetched from a peer continues this node's chain.
 */
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { type ValidatorSet } from '../../core/validatorSet';
import { BLOCK_MAX_BYTES } from '../../app/serviceApp';
import { blockHash, type CommittedBlock, type ServiceBlock, type Vote } from '../../consensus/types';

/** The parent hash of block 1. */
export const GENESIS_PARENT_HASH = `0x${'00'.repeat(32)}` as Hex;

/** Where a node's chain stands: its last committed block (GENESIS_PARENT_HASH before block 1). */
export interface ChainTip {
  height: bigint;
  blockHash: Hex;
  appHash: Hex;
  /** The last block's time (the genesis time before block 1). */
  timeMs: number;
}

/** The proposer's block on `tip`: its time is its clock, but always after the last block's. */
export function proposeBlock(
  tip: ChainTip,
  p: { proposer: Address; nowMs: number; lastCommit: Vote[]; txs: Hex[] },
): ServiceBlock {
  return {
    height: tip.height + 1n,
    timeMs: Math.max(p.nowMs, tip.timeMs + 1),
    proposer: p.proposer,
    lastBlockHash: tip.blockHash,
    lastAppHash: tip.appHash,
    lastCommit: p.lastCommit,
    txs: p.txs,
  };
}

/** The bytes of a block's txs (hex, two digits a byte). */
export function blockTxBytes(txs: readonly Hex[]): number {
  let bytes = 0;
  for (const t of txs) bytes += (t.length - 2) / 2;
  return bytes;
}

/** A block's place on the chain: the next height, on the last block and its app hash. */
export function continuesTip(b: ServiceBlock, tip: ChainTip): boolean {
  return b.height === tip.height + 1n && b.lastBlockHash === tip.blockHash && b.lastAppHash === tip.appHash;
}

/**
 * Whether a proposed block may get this node's prevote: its hash, its place on the chain, a time
 * after the last block's and not too far ahead of this node's clock, the byte limit, and the
 * commit of the previous block (none for block 1).
 */
export function votableBlock(
  b: ServiceBlock,
  hash: Hex,
  tip: ChainTip,
  v: { nowMs: number; maxClockDriftMs: number; lastCommitValid: (votes: readonly Vote[]) => boolean },
): boolean {
  if (blockHash(b) !== hash) return false;
  if (!continuesTip(b, tip)) return false;
  if (!(b.timeMs > tip.timeMs) || b.timeMs > v.nowMs + v.maxClockDriftMs) return false;
  if (blockTxBytes(b.txs) > BLOCK_MAX_BYTES) return false;
  return tip.height === 0n ? b.lastCommit.length === 0 : v.lastCommitValid(b.lastCommit);
}

/** +2/3 of `set`'s power in distinct, valid precommits for `hash` at `height`. */
export function validCommit(
  votes: readonly Vote[],
  height: bigint,
  hash: Hex,
  set: ValidatorSet,
  verify: (v: Vote) => boolean,
): boolean {
  const seen = new Set<Address>();
  let power = 0n;
  for (const v of votes) {
    if (v.type !== 'precommit' || v.height !== height || v.blockHash !== hash || seen.has(v.validator)) return false;
    const member = set.getByAddress(v.validator);
    if (!member || !verify(v)) return false;
    seen.add(v.validator);
    power += member.power;
  }
  return power * 3n > set.totalVotingPower() * 2n;
}

/** A committed block from a peer (a sync answer): its hash, its commit and its place on the chain. */
export function syncableBlock(
  cb: CommittedBlock,
  tip: ChainTip,
  commitValid: (cb: CommittedBlock) => boolean,
): boolean {
  return blockHash(cb.block) === cb.blockHash && commitValid(cb) && continuesTip(cb.block, tip);
}
