/**
 * What the reports read from the main domain (service nodes, parent chain): the validators' keys,
 * when each checkpoint was buffered and acked, and the records of the run, from the result's
 * plain main-domain report (`result.main`).
 */
import { type Address } from '../../src/core/address';
import { type RunRecord } from '../core/record';
import { type RunResult } from '../run/run';

export interface MainFacts {
  /** The validators (1-based index) and their signer addresses. */
  validators: ReadonlyArray<{ index: number; signer: Address }>;
  /** Per checkpoint (by start block): when it was first buffered and first acked (virtual ms). */
  checkpointTimes: ReadonlyArray<{ startBlock: string; bufferedMs?: number; ackedMs?: number }>;
  /** Everything the main domain's nodes and client recorded, in time order. */
  records: readonly RunRecord[];
}

export function mainFacts(r: RunResult): MainFacts {
  return r.main;
}
