/**
 * Shared block execution. Every honest node of a simulation applies the same block to the same
 * state, and applying a block is a pure function of the two: the first node to apply it records
 * what it did (the store's writes and the hashes they led to, the results), and the others adopt
 * that record instead of running the block again. One `SharedExecution` serves the service nodes
 * of one run (a run option, on by default; see sim/run/run.ts): records never cross runs, and a run
 * without it executes every block on every node, which must give the same trace hash.
 *
 * A hit needs the same block object (blocks are immutable values handed from node to node) and the
 * same state before it: app hash, height, block time, chain id and signature scheme. A node whose
 * state differs misses and runs the block itself, so a divergence still shows in its app hash.
 */
import { type Hex } from '../core/bytes';
import { type DeepReadonly } from '../core/readonly';
import { type HashDelta, type StoreWrites } from '../store/kvStore';
import { type CommitResponse, type EndBlockResponse, type TxResult } from './blockResults';

/**
 * What applying a block gave: shared by every node that adopts the block's record, so no holder
 * may change it (DeepReadonly).
 */
export type AppliedBlock = DeepReadonly<{
  results: TxResult[];
  end: EndBlockResponse;
  commit: CommitResponse;
}>;

export interface ExecutionRecord {
  /** The block object it was made for (a hit must be the same object). */
  readonly block: object;
  readonly writes: StoreWrites;
  readonly delta: HashDelta;
  readonly applied: AppliedBlock;
}

/** The state before the block, and the block (its hash and the fields the caller read from it). */
export function executionKey(
  state: { mode: string; chainId: string; height: bigint; timeMs: number; appHash: Hex },
  block: string,
): string {
  return `${state.mode}|${state.chainId}|${state.height}|${state.timeMs}|${state.appHash}|${block}`;
}

/** The block records of one run's nodes, the latest `limit` of them. */
export class SharedExecution {
  private readonly records = new Map<string, ExecutionRecord>();
  /** Blocks adopted from a record, and blocks a node had to run (its own or a first). */
  hits = 0;
  misses = 0;

  /** Enough for every node of a run to find the record of the block it is applying. */
  constructor(private readonly limit = 64) {}

  find(key: string, block: object): ExecutionRecord | null {
    const r = this.records.get(key);
    const hit = r !== undefined && r.block === block;
    if (hit) this.hits++;
    else this.misses++;
    return hit ? r : null;
  }

  remember(key: string, record: ExecutionRecord): void {
    if (this.records.size >= this.limit) this.records.delete(this.records.keys().next().value!);
    this.records.set(key, record);
  }

  get size(): number {
    return this.records.size;
  }
}
