/**
 * What the reports read from the main domain (service nodes, parent chain): the validators' keys,
 * when each checkpoint was buffered and acked, and the records of the run. This is the only place
 * under sim/report that reaches into `result.cluster`; everything else reads the plain fields of
 * the result and of its `sidechain` report.
 */
import { type Address } from '../../src/core/address';
import { type RunRecord } from '../domain/domain';
import { type RunResult } from '../run';

export interface MainFacts {
  /** The validators (1-based index) and their signer addresses. */
  validators: ReadonlyArray<{ index: number; signer: Address }>;
  /** Per checkpoint (by start block): when it was first buffered and first acked (virtual ms). */
  checkpointTimes: ReadonlyArray<{ startBlock: string; bufferedMs?: number; ackedMs?: number }>;
  /** Everything the main domain's nodes and client recorded, in time order. */
  records: readonly RunRecord[];
}

export function mainFacts(r: RunResult): MainFacts {
  const c = r.cluster;
  return {
    validators: c.keys,
    checkpointTimes: [...c.checkpointTimes].map(([startBlock, t]) => ({ startBlock, ...t })),
    records: c.records,
  };
}
