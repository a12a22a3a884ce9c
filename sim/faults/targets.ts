/**
 * What a fault kind may do to a run: the narrow targets the two domains offer a fault's `apply`
 * (sim/domain/mainDomain.ts and sim/domain/sidechainDomain.ts implement them). A fault kind knows
 * these interfaces, never the domains themselves, so the fault kinds stand below the domains that
 * run them.
 */
import { type Address } from '../../src/core/address';
import { type Hex } from '../../src/core/bytes';
import { type SignatureScheme } from '../../src/core/signatureScheme';
import { type BridgeAction } from '../../src/bridge/bridge';
import { type AppliedBlock } from '../../src/app/sharedExecution';
import { type CommittedBlock, type Vote } from '../../src/consensus/types';
import { type NodeMessage } from '../../src/node/messages';
import {
  type ByzantineBridgeTools,
  type ByzantineRoutes,
  type ByzantineTools,
  type ServiceNodeShell,
} from '../../src/node/service/config';
import { type ServiceNode } from '../../src/node/service/serviceNode';
import { type SidechainNode } from '../../src/node/sidechain/sidechainNode';
import { type SidechainBlock } from '../../src/sidechain/block';
import { type ImportResult } from '../../src/sidechain/chain';
import { type RunObservation } from '../core/record';
import { type UserKey, type ValidatorKeys } from '../core/runKeys';
import { type Engine } from '../engine/engine';
import { type Network } from '../env/network';
import { type Rng } from '../env/rng';

/** The run's keys, as a fault reads them. */
export interface FaultKeys {
  readonly keys: readonly ValidatorKeys[];
  readonly users: readonly UserKey[];
  /** The validator (1-based) of a signer address, genesis or rotated; undefined for others. */
  readonly validatorOfSigner: ReadonlyMap<Address, number>;
}

/** What a fault may change about one node: paused (until when), and its clock's skew. */
export interface NodeControl {
  paused: boolean;
  pausedUntilMs: number;
  skewMs: number;
}

/** What every domain offers a fault. */
export interface FaultTarget {
  readonly engine: Engine;
  readonly network: Network;
  /** The domain's stream; a fault forks its own from it by name. */
  readonly rng: Rng;
  readonly setup: FaultKeys;
  slot(id: string): NodeControl;
  /** Crash a node, or restart a crashed one. */
  crashOrRestart(id: string, crash: boolean): void;
  /** What the fault at `index` resolved to when it started, the same at its end. */
  resolveAtStart<T>(index: number, start: boolean, resolve: () => T): T;
  /** A record of a node, or of the simulator (`''`). */
  record(node: string, obs: RunObservation): void;
}

/**
 * What a Byzantine fault makes a validator's service node do (through its hooks): extra votes
 * besides each of its own, or its own proposals and votes routed (and re-signed) as the fault
 * likes. Signed with the validator's own key.
 */
export interface ValidatorBehaviour {
  onOwnVote?(vote: Vote, sign: (v: Omit<Vote, 'signature'>) => Vote): Vote[];
  routes?(msg: NodeMessage, tools: ByzantineTools): ByzantineRoutes | null;
  /** After the validator's node committed a block (a Byzantine sender acts here; see sendTxFrom). */
  onCommit?(node: ServiceNodeShell, block: CommittedBlock, end: AppliedBlock['end']): void;
  /** What the validator's bridge does instead of what it decided (null: that). */
  bridgeActions?(node: ServiceNodeShell, actions: BridgeAction[], tools: ByzantineBridgeTools): BridgeAction[] | null;
  /** The txs of a block the validator proposes, instead of those it reaped (null: those). */
  blockTxs?(node: ServiceNodeShell, reaped: Hex[], block: { height: bigint; timeMs: number }): Hex[] | null;
}

/** The main domain as a fault sees it: the service nodes and the parent chain. */
export interface MainTarget extends FaultTarget {
  readonly scheme: SignatureScheme;
  readonly serviceNodes: readonly ServiceNode[];
  /** The scenario's checkpoint length, in sidechain blocks. */
  readonly checkpointLength: number;
  /** A live service node with the highest committed height (for reading the network's state). */
  referenceServiceNode(): ServiceNode;
  /** Make validators behave as a Byzantine fault says (`key` names the fault; null ends it). */
  setBehaviour(key: string, validators: readonly number[], behaviour: ValidatorBehaviour | null): void;
  /** A transaction signed by a validator's node, spread from its node to every service node. */
  sendTxFrom(validator: number, tx: Hex): void;
}

/** A producer fault's effect on a validator's sidechain node. */
export type ProducerFlag = 'offline' | 'slow' | 'equivocate' | 'earlySeal';

/** A fault's hook on every block a sidechain node imports. */
export type ImportListener = (node: SidechainNode, block: SidechainBlock, result: ImportResult) => void;

/** The sidechain domain as a fault sees it: the sidechain nodes. */
export interface SidechainTarget extends FaultTarget {
  readonly sidechainNodes: readonly SidechainNode[];
  /** A fault's target validator: `inTurn` resolves, when the fault starts, to the producer in turn. */
  resolveTarget(validator: number | 'inTurn', index: number, start: boolean): number;
  /** Turn a producer fault's flag on or off for validator `v` (a slow producer's delay with it). */
  setProducerFlag(v: number, flag: ProducerFlag, on: boolean, delayS?: number): void;
  /** Act on every block a node imports (`key` names the fault; null ends it). */
  setImportListener(key: string, listen: ImportListener | null): void;
}

/** Where a fault starts or ends: the main domain (service nodes, parent chain) or the sidechain domain. */
export type FaultSite = { name: 'main'; domain: MainTarget } | { name: 'sidechain'; domain: SidechainTarget };
