/**
 * Shared block execution. Every honest node of a simulation applies the same block to the same
 * state, and applying a block is a pure function of the two: the first node to apply it records
 * what it did (the store's writes and the hashes they led to, the results), and the others adopt
 * that record instead of running the block again. It is cached the way verified signatures are
 * (architecture: crypto modes), per process and bounded.
 *
 * A hit needs the same block object (blocks are immutable values handed from node to node) and the
 * same state before it: app hash, height, block time, chain id and signature scheme. A node whose
 * state differs misses and runs the block itself, so a divergence still shows in its app hash.
 */
import { type Hex } from '../core/bytes';
import { type HashDelta, type StoreWrites } from '../store/kvStore';
import { type CommitResponse, type EndBlockResponse, type TxResult } from './serviceApp';

export interface AppliedBlock {
  results: TxResult[];
  end: EndBlockResponse;
  commit: CommitResponse;
}

export interface ExecutionRecord {
  /** The block object it was made for (a hit must be the same object). */
  readonly block: object;
  readonly writes: StoreWrites;
  readonly delta: HashDelta;
  readonly applied: AppliedBlock;
}

/** Enough for every node of a run to find the record of the block it is applying. */
const LIMIT = 64;
const records = new Map<string, ExecutionRecord>();

/** The state before the block, and the block (its hash and the fields the caller read from it). */
export function executionKey(
  state: { mode: string; chainId: string; height: bigint; timeMs: number; appHash: Hex },
  block: string,
): string {
  return `${state.mode}|${state.chainId}|${state.height}|${state.timeMs}|${state.appHash}|${block}`;
}

export function findExecution(key: string, block: object): ExecutionRecord | null {
  const r = records.get(key);
  return r !== undefined && r.block === block ? r : null;
}

export function rememberExecution(key: string, record: ExecutionRecord): void {
  if (records.size >= LIMIT) records.delete(records.keys().next().value!);
  records.set(key, record);
}
