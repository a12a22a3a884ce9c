/**
 * The observation stream of a run: what the nodes report (src/node/observations.ts) plus what the
 * simulator itself records (faults firing and healing, the client's workload). Oracles, the trace
 * and the reports read this one typed stream; the trace recorder alone turns it into text.
 */
import { type Observation } from '../../src/node/observations';
import { type TriggerChain } from '../scenario/scenario';

export interface FaultFact {
  /** The fault's index in the scenario. */
  index: number;
  /** Its kind (`crash`, `isolateProducer`, …). */
  fault: string;
  /** What it resolved to (a node, `validator 3`, a link), plus the height that fired it. */
  detail: string;
  /** No `for`: it lasts to the end of the run. */
  permanent: boolean;
  atHeight: { chain: TriggerChain; height: number; node: string } | null;
}

export type SimObservation =
  | ({ kind: 'fault.start' } & FaultFact)
  | ({ kind: 'fault.end' } & FaultFact)
  | { kind: 'workload.topup'; validator: number; repeat: number }
  | { kind: 'workload.stateSync'; count: number }
  | { kind: 'workload.stakeUpdate'; validator: number }
  | { kind: 'workload.join'; stake: bigint }
  | { kind: 'workload.exit'; validator: number }
  | { kind: 'workload.signerChange'; validator: number }
  | { kind: 'workload.withdrawal'; validator: number };

export type RunObservation = Observation | SimObservation;

/** One observation as the run recorded it: virtual ms since the start, and who reported it ('' = the simulator). */
export interface RunRecord {
  t: number;
  node: string;
  obs: RunObservation;
}
