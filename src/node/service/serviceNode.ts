/**
 * A service validator node: the service app + Tendermint consensus + mempool + bridge, with views
 * of the parent chain and of its local sidechain node kept fresh by polling their RPC. Its only
 * durable state is its disk of committed blocks: a crash loses everything else, and a restart
 * replays the disk into a fresh app and rejoins consensus.
 *
 * This file is the node's ports, message and timer dispatch, lifecycle and commit; the parts are
 * beside it: the consensus driver (proposals, votes, gossip, sync), the mempool, the block rules,
 * the side voter, the answers to its sidechain node and the facts it reports.
 */
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { assert } from '../../core/errors';
import { type SignatureScheme } from '../../core/signatureScheme';
import { BLOCK_MAX_BYTES, BLOCK_MAX_GAS, ServiceApp } from '../../app/serviceApp';
import { type CommittedBlock, type ServiceBlock, blockHash } from '../../consensus/types';
import { type NodeContext, type SimNode } from '../ports';
import { type NodeMessage } from '../messages';
import { type ChainTip, GENESIS_PARENT_HASH, proposeBlock } from './blockRules';
import {
  DEFAULT_SERVICE_NODE_CONFIG,
  type ServiceNodeConfig,
  type ServiceNodeHooks,
  type ServiceNodeIdentity,
  type ServiceNodeShell,
  type ServiceTimer,
} from './config';
import { ConsensusDriver } from './consensusDriver';
import { sidechainAnswer, syncAnswer } from './peerAnswers';
import { commitObservation, genesisObservation } from './reporting';
import { sideVotesOf } from './sideVoter';
import { BridgeWork } from './bridgeWork';
import { ChainViews } from './chainViews';
import { TxIntake } from './txIntake';

type Ctx = NodeContext<NodeMessage, ServiceTimer>;

export class ServiceNode implements SimNode<NodeMessage, ServiceTimer>, ServiceNodeShell {
  readonly id: string;
  /** Durable: survives crashes. */
  readonly disk: CommittedBlock[] = [];
  app!: ServiceApp;
  private driver!: ConsensusDriver;
  private intake!: TxIntake;
  private bridge!: BridgeWork;
  private chainViews = new ChainViews();
  private alive = true;

  constructor(
    readonly identity: ServiceNodeIdentity,
    private readonly genesis: unknown,
    readonly scheme: SignatureScheme,
    readonly cfg: ServiceNodeConfig = DEFAULT_SERVICE_NODE_CONFIG,
    readonly hooks: ServiceNodeHooks = {},
  ) {
    this.id = identity.id;
    this.reset();
  }

  get address(): Address {
    return this.identity.address;
  }

  get height(): bigint {
    return this.app.height;
  }

  get isAlive(): boolean {
    return this.alive;
  }

  /** What this node sees of the parent chain and the sidechain (the bridge, REST queries and Byzantine faults read it). */
  get views(): ChainViews {
    return this.chainViews;
  }

  /** Fresh volatile state from genesis (constructor and restart). */
  private reset(): void {
    this.app = new ServiceApp(this.genesis, this.scheme, this.cfg.app);
    this.driver = new ConsensusDriver(this, this.genesis);
    this.intake = new TxIntake(this);
    this.chainViews = new ChainViews();
    this.bridge = new BridgeWork(this, this.chainViews, this.intake);
  }

  start(ctx: Ctx): void {
    this.alive = true;
    if (this.app.height === 0n) {
      ctx.observe(genesisObservation(this.app));
      const members = this.driver.consensusSet.validators.map((v) => ({ address: v.address, power: v.power }));
      ctx.observe({ kind: 'consensus.setChange', height: 1n, changes: members });
    }
    ctx.observe({ kind: 'service.started', height: this.app.height });
    ctx.setTimer(0, { kind: 'pollParent' });
    ctx.setTimer(0, { kind: 'pollSidechain' });
    ctx.setTimer(this.cfg.bridgeTickMs, { kind: 'bridge' });
    this.driver.startHeight(ctx, this.app.height + 1n);
  }

  crash(): void {
    this.alive = false;
    this.reset();
  }

  restart(ctx: Ctx): void {
    this.reset();
    // Replay the disk: the same blocks and commits give the same state.
    for (const cb of this.disk) this.applyBlock(cb, ctx, false);
    this.start(ctx);
  }

  /**
   * Take up a new signer key: its validator's signer changed on the parent chain and this node's
   * committed state now has the new signer (an operator installs the key it registered). Votes,
   * proposals and bridge transactions are signed with it from the next height on.
   */
  adoptSignerKey(privateKey: Hex, address: Address): void {
    this.identity.privateKey = privateKey;
    this.identity.address = address;
  }

  /** Sign a digest with this node's key. */
  sign(digest: Uint8Array): Uint8Array {
    return this.scheme.sign(digest, this.identity.privateKey);
  }

  /** Where this node's chain stands. */
  tip(): ChainTip {
    return {
      height: this.app.height,
      blockHash: this.disk[this.disk.length - 1]?.blockHash ?? GENESIS_PARENT_HASH,
      appHash: this.app.appHash,
      timeMs: this.app.lastBlockTimeMs,
    };
  }

  /**
   * The proposer's block: mempool txs within the byte and gas limits (a checkpoint tx alone). A
   * Byzantine proposer may put any bytes in its block instead (the `blockTxs` hook).
   */
  proposeBlock(ctx: Ctx): ServiceBlock {
    const reaped = this.intake.mempool.reap({ maxBytes: BLOCK_MAX_BYTES, maxGas: BLOCK_MAX_GAS }).map((e) => e.hex);
    const block = proposeBlock(this.tip(), {
      proposer: this.address,
      nowMs: ctx.nowMs(),
      lastCommit: this.driver.commitForNextBlock,
      txs: reaped,
    });
    const txs = this.hooks.blockTxs?.(this, reaped, block) ?? null;
    return txs === null ? block : { ...block, txs };
  }

  /** A decided block, or one fetched from a peer that continues this chain. */
  commitBlock(ctx: Ctx, cb: CommittedBlock): void {
    this.applyBlock(cb, ctx, true);
  }

  /**
   * Apply a committed block to the app and the consensus set; `live` is false while replaying the
   * disk after a restart (no votes, no bridge, no records).
   */
  private applyBlock(cb: CommittedBlock, ctx: Ctx, live: boolean): void {
    const b = cb.block;
    assert(b.height === this.app.height + 1n, 'blocks apply in order', {
      node: this.id,
      height: b.height,
      app: this.app.height,
    });
    // The block continues the chain it is applied on: its parent is the block below it on the disk
    // (consensus and sync both check this before a block gets here; a replay reads the same disk).
    const parentHash = b.height === 1n ? GENESIS_PARENT_HASH : this.disk[Number(b.height) - 2]?.blockHash;
    if (b.lastBlockHash !== parentHash || b.lastAppHash !== this.app.appHash)
      assert(false, "a committed block's parent is the head it is applied on", {
        node: this.id,
        height: b.height,
        lastBlockHash: b.lastBlockHash,
        parentHash: parentHash ?? null,
      });
    const sideTxVotes = sideVotesOf(b.lastCommit);
    // The block's own hash (not the one it came with): the shared execution record is keyed by it.
    const applied = this.app.applyBlock(
      { timeMs: b.timeMs, proposer: b.proposer, sideTxVotes },
      b.txs,
      b,
      blockHash(b),
    );
    if (live) {
      // This block carries the canonical commit of the one before (its proposer's +2/3 precommits):
      // the disk keeps that one from now on and lets this node's own seen commit go, as a
      // CometBFT block store answers LoadBlockCommit(h) from block h+1's LastCommit and keeps a
      // seen commit only for a height no later block has committed yet. Every node holds the same
      // canonical commit object, where each held its own seen commit of every height before.
      const last = this.disk.length - 1;
      if (last >= 0) this.disk[last] = { ...this.disk[last]!, commit: b.lastCommit };
      this.disk.push(cb);
    }
    this.driver.advance(cb.commit, applied.end.validatorUpdates);
    this.intake.afterCommit(b.txs, applied, live);
    if (!live) return;
    ctx.observe(commitObservation(cb, applied, applied.commit.appHash, applied.writes, this.driver.lastCommitSet));
    const updates = applied.end.validatorUpdates;
    if (updates.length > 0)
      ctx.observe({
        kind: 'consensus.setChange',
        height: b.height + 1n,
        changes: updates.map((u) => ({ address: u.address, power: u.power })),
      });
    this.hooks.onCommit?.(this, cb, applied.end, applied.results);
    this.driver.voteOnSideTxs(ctx, b.txs, this.chainViews.sidechain.headNumber());
    this.bridge.afterCommit(ctx, applied.end, sideTxVotes);
  }

  // --- messages and timers -------------------------------------------------------------------

  onMessage(from: string, msg: NodeMessage, ctx: Ctx): void {
    if (!this.alive) return;
    switch (msg.kind) {
      case 'c.proposal':
        this.driver.onProposal(from, msg.proposal, msg, ctx);
        return;
      case 'c.vote':
        this.driver.onVote(from, msg.vote, msg, ctx);
        return;
      case 'c.tx':
        this.intake.add(ctx, msg.tx, null, false);
        return;
      case 'client.tx':
        this.intake.addFromClient(ctx, msg.tx);
        return;
      case 'c.syncReq': {
        const blocks = syncAnswer(this.disk, msg.fromHeight, this.cfg.maxSyncBlocks);
        if (blocks.length) ctx.send(from, { kind: 'c.syncRes', blocks });
        return;
      }
      case 'c.syncRes':
        this.driver.onSync(ctx, msg.blocks);
        return;
      case 'p.syncRes':
        this.chainViews.parent.update(msg.result);
        return;
      case 'sc.headers':
        this.chainViews.onHeaders(msg);
        return;
      case 'svc.getSpan':
      case 'svc.getStateSyncs':
      case 'svc.getCheckpoint':
        ctx.send(from, sidechainAnswer(this.app.store, msg));
        return;
      default:
        return;
    }
  }

  onTimer(tag: ServiceTimer, ctx: Ctx): void {
    if (!this.alive) return;
    switch (tag.kind) {
      case 'consensus':
        this.driver.onTimeout(ctx, tag);
        return;
      case 'nextHeight': {
        const c = this.driver.consensus;
        if (tag.height === this.app.height + 1n && (!c || c.hasDecided)) this.driver.startHeight(ctx, tag.height);
        return;
      }
      case 'gossip':
        this.driver.gossip(ctx, tag.height);
        return;
      case 'pollParent':
        ctx.send(this.identity.parentNode, this.chainViews.parentPoll());
        ctx.setTimer(this.cfg.parentPollMs, { kind: 'pollParent' });
        return;
      case 'pollSidechain':
        ctx.send(this.identity.sidechainNode, this.chainViews.sidechainPoll());
        ctx.setTimer(this.cfg.sidechainPollMs, { kind: 'pollSidechain' });
        return;
      case 'bridge':
        this.bridge.tick(ctx);
        ctx.setTimer(this.cfg.bridgeTickMs, { kind: 'bridge' });
        return;
    }
  }
}
