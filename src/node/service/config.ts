/**
 * A service node's settings, identity, timers and the hooks the simulator bends it through
 * (oracles observe, Byzantine wrappers route its messages, a devnet takes its client answers).
 */
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { type ServiceAppOptions } from '../../app/serviceApp';
import { type AppliedBlock } from '../../app/sharedExecution';
import { DEFAULT_TIMEOUTS, type TimeoutConfig, type TimeoutInput } from '../../consensus/tendermint';
import { type CommittedBlock, type Proposal, type Vote } from '../../consensus/types';
import { type BridgeAction, type BridgeConfig, DEFAULT_BRIDGE_CONFIG } from '../../bridge/bridge';
import { type NodeMessage } from '../messages';
import { type ClientReplyPort } from '../ports';
import { type SignatureScheme } from '../../core/signatureScheme';
import { type ServiceApp } from '../../app/serviceApp';
import { type ServiceBlock } from '../../consensus/types';
import { type NodeContext } from '../ports';
import { type ChainTip } from './blockRules';
import { type ChainViews } from './chainViews';

export type ServiceTimer =
  | { kind: 'consensus'; timeout: TimeoutInput }
  | { kind: 'nextHeight'; height: bigint }
  | { kind: 'pollParent' }
  | { kind: 'pollSidechain' }
  | { kind: 'bridge' }
  | { kind: 'gossip'; height: bigint };

export interface ServiceNodeConfig {
  timeouts: TimeoutConfig;
  /** Pause after a commit before the next height (Tendermint's timeout_commit). */
  commitTimeoutMs: number;
  parentPollMs: number;
  sidechainPollMs: number;
  bridgeTickMs: number;
  /** Re-send this height's votes and proposal to lagging peers this often. */
  gossipMs: number;
  /** A proposal more than this far ahead of the node's clock is invalid. */
  maxClockDriftMs: number;
  maxSyncBlocks: number;
  bridge: BridgeConfig;
  /** How the node's app runs blocks (invariant checks, shared execution). */
  app?: ServiceAppOptions;
}

export const DEFAULT_SERVICE_NODE_CONFIG: ServiceNodeConfig = {
  timeouts: DEFAULT_TIMEOUTS,
  commitTimeoutMs: 2_000,
  parentPollMs: 6_000,
  sidechainPollMs: 2_000,
  bridgeTickMs: 2_000,
  gossipMs: 3_000,
  maxClockDriftMs: 10_000,
  maxSyncBlocks: 20,
  bridge: DEFAULT_BRIDGE_CONFIG,
};

export interface ServiceNodeIdentity {
  id: string;
  address: Address;
  privateKey: Hex;
  /** Other service nodes (gossip peers). */
  peers: string[];
  parentNode: string;
  sidechainNode: string;
}

/** Where a Byzantine node sends each version of a message. */
export type ByzantineRoutes = Array<{ to: string[]; msg: NodeMessage }>;

/** Hooks for the simulator: oracles and Byzantine wrappers observe or bend behaviour here. */
export interface ServiceNodeHooks {
  /** Called with each signed vote before it is broadcast; may return extra votes to send (equivocation). */
  onOwnVote?(vote: Vote, sign: (v: Omit<Vote, 'signature'>) => Vote): Vote[];
  /**
   * A Byzantine wrapper may route this node's own proposal or vote itself: the equivocating
   * proposer sends two blocks to two halves of the network, its accomplices vote for each block
   * in the half that saw it. Null = broadcast normally.
   */
  byzantineRoutes?(node: ServiceNodeShell, msg: NodeMessage, tools: ByzantineTools): ByzantineRoutes | null;
  onCommit?(
    node: ServiceNodeShell,
    block: CommittedBlock,
    end: AppliedBlock['end'],
    results: AppliedBlock['results'],
  ): void;
  /**
   * A Byzantine proposer puts what it likes in its block: given the txs it reaped from its mempool
   * and the block it would propose (height, time), the txs its block carries instead (any bytes;
   * the other nodes must DeliverTx them). Null or absent = the reaped ones.
   */
  blockTxs?(node: ServiceNodeShell, reaped: Hex[], block: { height: bigint; timeMs: number }): Hex[] | null;
  /**
   * A Byzantine bridge: given the actions this node's bridge decided (after each tick and each
   * commit, none included), the actions it takes instead: a checkpoint of another range, a
   * submission held back and sent late. Null or absent = as decided.
   */
  bridgeActions?(node: ServiceNodeShell, actions: BridgeAction[], tools: ByzantineBridgeTools): BridgeAction[] | null;
  /** Where this node's answers to transaction-submitting clients go (a devnet's REST layer). */
  clientReplies?: ClientReplyPort;
}

/** What a Byzantine bridge may read: this node's sidechain view's root of a range (null: not confirmed yet). */
export interface ByzantineBridgeTools {
  rootHash(startBlock: bigint, endBlock: bigint): Hex | null;
}

/** What a Byzantine wrapper may do with this node's key: sign other versions of its messages. */
export interface ByzantineTools {
  signVote(v: Omit<Vote, 'signature'>): Vote;
  signProposal(p: Omit<Proposal, 'signature'>): Proposal;
  peers: readonly string[];
}

/**
 * What a service node's parts (the consensus driver, the tx intake, the bridge work) and its hooks
 * see of the node: its app, identity, settings, hooks and views, and the few acts they ask of it
 * (sign, tip, propose, commit, take a message). The node (serviceNode.ts) implements it; its parts
 * depend on this view, not on the node.
 */
export interface ServiceNodeShell {
  readonly id: string;
  readonly app: ServiceApp;
  readonly identity: ServiceNodeIdentity;
  readonly address: Address;
  readonly scheme: SignatureScheme;
  readonly cfg: ServiceNodeConfig;
  readonly hooks: ServiceNodeHooks;
  readonly views: ChainViews;
  sign(digest: Uint8Array): Uint8Array;
  tip(): ChainTip;
  proposeBlock(ctx: NodeContext<NodeMessage, ServiceTimer>): ServiceBlock;
  commitBlock(ctx: NodeContext<NodeMessage, ServiceTimer>, cb: CommittedBlock): void;
  onMessage(from: string, msg: NodeMessage, ctx: NodeContext<NodeMessage, ServiceTimer>): void;
}
