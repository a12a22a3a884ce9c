/**
 * The scenario format: validators and stakes, parameters, the network model, a fault schedule, a
 * workload, run bounds and expectations (the types; decodeScenario.ts reads a file, filling
 * defaults and naming the bad field of a bad one, encodeScenario.ts writes one). A fault fires at a
 * time (`at`) or when a chain first reaches a height (`atHeight`, see HeightTrigger and
 * scenarios/README.md). `scenarios/scenario.schema.json` describes the same format for editors.
 */
import { type LinkModel } from '../core/linkModel';
import { type CryptoMode } from '../../src/core/signatureScheme';
import { type FaultSpec } from '../faults/registry';
import { type PlantName } from '../../src/core/plants';
import { MESSAGE_NAMES, UNDECODABLE } from '../core/messageNames';
import { type BalanceOverrideItem } from './balanceOverrides';

import { type Repeats } from './repeats';
import { type Buggify } from './buggify';

export type { Repeats } from './repeats';

/** The message types an expectation may bound (the client table's, and bytes that do not decode). */
export const MESSAGE_TYPES: readonly string[] = [...MESSAGE_NAMES.values(), UNDECODABLE];

export type { FaultSpec, FaultKind } from '../faults/registry';
export { FAULT_KINDS } from '../faults/registry';

export type Verdict = 'pass' | 'safety' | 'liveness' | 'crash';

export interface ScenarioParams {
  producerCount: number;
  sprint: number;
  spanDuration: number;
  firstSpanDuration: number;
  checkpointBufferTimeMs: number;
  checkpointLength: number;
  sidechainConfirmations: number;
  parentConfirmations: number;
  parentBlockTimeMs: number;
  periodS: number;
  producerDelayS: number;
  backupMultiplierS: number;
  stateSyncDelayS: number;
  commitTimeoutMs: number;
  relayDelayPerRankMs: number;
  validatorSlots: number;
  /** Clique-style random delay for backups (off by default). */
  jitter: boolean;
  /** The bank module's `sendenabled` at genesis (absent: true): false refuses every send and top-up. */
  sendEnabled?: boolean;
  /**
   * Sidechain accounts funded at genesis besides the users, that no workload signs with (absent:
   * none): a devnet's own dev accounts when the workload sends sidechain transfers from the users.
   */
  sidechainDevAccounts?: number;
}

export const DEFAULT_PARAMS: ScenarioParams = {
  producerCount: 4,
  sprint: 16,
  spanDuration: 1600,
  firstSpanDuration: 256,
  checkpointBufferTimeMs: 1_000_000,
  checkpointLength: 256,
  sidechainConfirmations: 10,
  parentConfirmations: 6,
  parentBlockTimeMs: 12_000,
  periodS: 2,
  producerDelayS: 4,
  backupMultiplierS: 2,
  stateSyncDelayS: 128,
  commitTimeoutMs: 2_000,
  relayDelayPerRankMs: 2_000,
  validatorSlots: 32,
  jitter: false,
};

export interface WorkloadSpec {
  transfers: { everyMs: number; amountWei: bigint } | null;
  /** A user pays `outputs` others `amountWei` each in one MsgMultiSend, every `everyMs`. */
  multiSends?: { everyMs: number; outputs: number; amountWei: bigint } | null;
  topups: Array<{ atMs: number; validator: number; amountTokens: bigint; repeat: number; everyMs?: number }>;
  /** The validator's signer withdraws fees into its dividend account (MsgWithdrawFee); 0 tokens = its whole balance. */
  withdrawals?: Array<{ atMs: number; validator: number; amountTokens: bigint } & Repeats>;
  stateSyncs: Array<{ atMs: number; count: number } & Repeats>;
  stakeUpdates: Array<{ atMs: number; validator: number; amountTokens: bigint } & Repeats>;
  joins: Array<{ atMs: number; stakeTokens: bigint } & Repeats>;
  exits: Array<{ atMs: number; validator: number } & Repeats>;
  signerChanges: Array<{ atMs: number; validator: number } & Repeats>;
  /** An operator's anvil_setBalance on the sidechain (sim/scenario/balanceOverrides.ts). */
  balanceOverrides?: BalanceOverrideItem[];
  /**
   * A wallet sends a sidechain transfer every `everyMs`, signed in the network's scheme; with
   * `fastSignedEveryMs`, also one every `fastSignedEveryMs` signed in the fast scheme's format (on a
   * real-crypto network a forged sender, which must be refused); with `probeEveryMs`, also a probe
   * of the pool every `probeEveryMs`: a transaction geth's pool must refuse, or one it takes in a
   * way an everyday wallet's never asks of it (a replacement, a nonce gap: sidechainWallets.ts).
   */
  sidechainTxs: { everyMs: number; fastSignedEveryMs?: number; probeEveryMs?: number } | null;
}

export interface Counts {
  serviceBlocks: number;
  sidechainBlocks: number;
  spans: number;
  checkpointsAcked: number;
  noAcks: number;
  reorgs: number;
  /** User transfers on the sidechain's canonical chain at the end (the node with the highest head). */
  sidechainTransfers: number;
}

/**
 * Bounds on the transactions a run's committed blocks delivered, by message type of the client
 * table (`MsgSend`, …, `undecodable`): delivered, accepted (a side message once its side-tx result
 * is in), refused (any code).
 */
export interface MessageBounds {
  delivered?: Record<string, number>;
  accepted?: Record<string, number>;
  refused?: Record<string, number>;
}

export interface Expectations {
  verdict: Verdict;
  /** The first violation must come from this oracle (for failing scenarios). */
  oracle?: string;
  /** `byzantine`: per Byzantine kind, its txs delivered by its own blocks and refused with the reference's code. */
  min: Partial<Counts & { backupBlocks: number }> & MessageBounds & { byzantine?: Record<string, number> };
  max: Partial<Counts & { reorgDepth: number }> & MessageBounds;
  /**
   * Bounds on the run's metrics (sim/metrics/metrics.ts), by name: a property's own check written
   * down, so a shrunk counterexample that breaks it fails when it is run.
   */
  metrics?: { min: Record<string, number>; max: Record<string, number> };
}

export interface Scenario {
  name: string;
  description: string;
  crypto: CryptoMode;
  durationMs: number;
  maxEvents: number;
  /** Unix-epoch ms the virtual clock starts at (block times read like real dates). */
  epochMs: number;
  validators: Array<{ stakeTokens: bigint; balanceTokens: bigint }>;
  params: ScenarioParams;
  network: LinkModel;
  faults: FaultSpec[];
  workload: WorkloadSpec;
  expect: Expectations;
  /** A planted bug to switch on (test builds only: src/core/plants.ts). */
  plant?: PlantName;
  /** The seed a regression fails with (the suite runs it; default 1). */
  seed?: number;
  /**
   * The name the run's random streams are drawn under, with the seed (default: `name`). A copy of
   * a run under another name (a fuzz failure, a shrunk regression) keeps the original's here, so
   * it replays the same run.
   */
  streams?: string;
  /** Rare paths on purpose, simulation only (sim/scenario/buggify.ts); absent: none. */
  buggify?: Buggify;
}

/**
 * The runaway guard's default: 20 million events for a set of up to 7 validators, growing with
 * the square of the set's size beyond (the BFT votes and the block gossip grow so): a 105-validator
 * network delivers some 18,000 events per simulated second.
 */
export function defaultMaxEvents(validators: number): number {
  return 20_000_000 * Math.max(1, Math.ceil((validators * validators) / 49));
}

/** A workload with nothing in it: every list empty, every periodic item off. */
export function emptyWorkload(): WorkloadSpec {
  return {
    transfers: null,
    multiSends: null,
    topups: [],
    withdrawals: [],
    stateSyncs: [],
    stakeUpdates: [],
    joins: [],
    exits: [],
    signerChanges: [],
    sidechainTxs: null,
  };
}
