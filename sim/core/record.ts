/**
 * The observation stream of a run: what the nodes report (src/node/observations.ts) plus what the
 * simulator itself records (faults firing and healing, the client's workload). Oracles, the trace
 * and the reports read this one typed stream; the trace recorder alone turns it into text.
 */
import { type Observation } from '../../src/node/observations';
import { type Hex } from '../../src/core/bytes';

/** What the reference gives a Byzantine sender's crafted tx, delivered on the state it was crafted on. */
export interface ByzantineExpectFact {
  /** `deliver`: DeliverTx refuses it; `side`: DeliverTx takes it and its side-tx result refuses it. */
  stage: 'deliver' | 'side';
  /** The codespace of a deliver-stage refusal. */
  codespace: string;
  /** Any of these codes. */
  codes: readonly number[];
}

/** The chains a height trigger can watch: the service chain (main domain) or the sidechain. */
export type TriggerChain = 'service' | 'sidechain';

/**
 * A height trigger (`"atHeight": {"service": 120}` or `{"sidechain": 64}`): the fault fires when
 * the network first reaches that height, i.e. at the first `service.commit` record of a live
 * service node with height >= `height`, or the first `sidechain.imported` record of a live
 * sidechain node with number >= `height` (any branch, own blocks included). It acts at that
 * virtual millisecond, after the events already queued for it, and lasts `for` from there.
 */
export interface HeightTrigger {
  chain: TriggerChain;
  height: number;
}

export interface FaultFact {
  /** The fault's index in the scenario. */
  index: number;
  /** Its kind (`crash`, `isolateProducer`, …). */
  fault: string;
  /** What it resolved to (a node, `validator 3`, a link), plus the height that fired it. */
  detail: string;
  /** No `for`: it lasts to the end of the run. */
  permanent: boolean;
  /** What fired a triggered fault: the height reached (and for `atRound`, the round entered) and the node. */
  atHeight: { chain: TriggerChain; height: number; node: string; round?: number } | null;
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
  | { kind: 'workload.withdrawal'; validator: number }
  /**
   * A Byzantine sender's crafted tx (sim/faults/byzantineTxs.ts): put at `index` of the block it
   * proposed at `height` (`via: block`), or gossiped to the mempools (`via: gossip`, not judged).
   * `expect` is null for a tx valid on purpose; `ifAccepted` names the tx of the same block that
   * must have been accepted for `expect` to hold.
   */
  | {
      kind: 'byzantine.tx';
      validator: number;
      craft: string;
      txHash: Hex;
      via: 'block' | 'gossip';
      height: bigint | null;
      index: number | null;
      expect: ByzantineExpectFact | null;
      ifAccepted: number | null;
    }
  /**
   * A Byzantine producer's crafted sidechain block (sim/faults/byzantineBlocks.ts), sent to every
   * sidechain node: `refused` no honest node may import it; `held` (a block from the future) none
   * may import it before its time (`timeS`, seconds).
   */
  | {
      kind: 'byzantine.block';
      craft: string;
      hash: Hex;
      number: bigint;
      timeS: bigint;
      expect: 'refused' | 'held';
    };

export type RunObservation = Observation | SimObservation;

/** One observation as the run recorded it: virtual ms since the start, and who reported it ('' = the simulator). */
export interface RunRecord {
  t: number;
  node: string;
  obs: RunObservation;
}
