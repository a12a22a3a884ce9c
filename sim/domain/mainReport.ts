/**
 * Everything a run's result takes from the main domain (service nodes, parent chain, client) at
 * its end: plain data, read from the nodes once, so the result never holds a live network. The
 * sidechain domain's counterpart is SidechainReport (sidechainDomain.ts).
 */
import { type Address } from '../../src/core/address';
import { type Hex } from '../../src/core/bytes';
import { type NetworkStats } from '../env/network';
import { type IndexedFaultFired } from './faultBook';
import { type RunRecord } from '../core/record';

/** A service node at the end of the run, with the blocks on its disk. */
export interface ServiceNodeReport {
  id: string;
  alive: boolean;
  height: bigint;
  appHash: Hex;
  /** Every committed block on its disk, in height order (block time on the node's epoch clock). */
  commits: Array<{ height: bigint; blockHash: Hex; timeMs: number }>;
}

export interface MainReport {
  nodes: ServiceNodeReport[];
  /** The validators' keys the report shows (1-based index, signer and owner addresses). */
  validators: Array<{ index: number; signer: Address; owner: Address }>;
  /** Highest over the nodes: committed height, last span id, checkpoints acked. */
  serviceBlocks: number;
  spans: number;
  checkpointsAcked: number;
  /** Service heights whose block carried an accepted no-ack. */
  noAcks: number;
  /** Per checkpoint (by start block, in the order first buffered): when first buffered and first acked (virtual ms). */
  checkpointTimes: Array<{ startBlock: string; bufferedMs?: number; ackedMs?: number }>;
  /** What the main domain's nodes and client recorded, in time order: the records a run keeps (domain/keptRecords.ts). */
  records: RunRecord[];
  samples: { timeMs: number[]; serviceHeight: number[] };
  /** Blocks the nodes adopted from another node's record, and blocks they ran (null: sharing off). */
  sharedExecution: { hits: number; misses: number } | null;
  faultsFired: IndexedFaultFired[];
  network: NetworkStats;
  events: number;
  traceDigest: Hex;
}
