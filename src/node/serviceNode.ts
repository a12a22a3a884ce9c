/**
 * A service validator node: the service app + Tendermint consensus + mempool + bridge, with views
 * of the parent chain and of its local sidechain node kept fresh by polling their RPC. Its only
 * durable state is its disk of committed blocks: a crash loses everything else, and a restart
 * replays the disk into a fresh app and rejoins consensus.
 */
import { type Address } from '../core/address';
import { type Hex, fromHex, toHex } from '../core/bytes';
import { assert } from '../core/errors';
import { ValidatorSet } from '../core/validatorSet';
import { type SignatureScheme } from '../core/signatureScheme';
import { ServiceApp, BLOCK_MAX_BYTES, BLOCK_MAX_GAS, type EndBlockResponse, type TxResult } from '../app/serviceApp';
import { type SideTxVotes } from '../app/sideTx';
import { MSG_REGISTRY } from '../app/registry';
import { decodeTx, encodeTx, signTx, type StdTx, txHash as hashTx } from '../modules/auth/stdTx';
import { isCheckpointTx } from '../modules/auth/ante';
import { type MsgDef, type SideVote } from '../modules/types';
import { type Observers } from '../modules/observers';
import { getChainParams } from '../modules/chainParams';
import { getBuffer, getCheckpointParams, getLastCheckpoint } from '../modules/checkpoint/keeper';
import { getLastSpan, getSpan } from '../modules/sidechain/keeper';
import { getSidechainParams } from '../modules/sidechain/params';
import { getAuthParams } from '../modules/auth/params';
import { type MsgProposeSpan } from '../modules/sidechain/msgs';
import { listRecords } from '../modules/clerk/keeper';
import {
  Tendermint,
  type ConsensusOutput,
  type TimeoutConfig,
  type TimeoutInput,
  DEFAULT_TIMEOUTS,
} from '../consensus/tendermint';
import {
  type CommittedBlock,
  type Proposal,
  type ServiceBlock,
  type SideVoteEntry,
  type Vote,
  blockHash,
  proposalDigest,
  signedVote,
  voteDigest,
} from '../consensus/types';
import { checkpointSignDigest } from '../parent/contracts/checkpointSignDigest';
import { Bridge, type BridgeAction, type BridgeConfig, DEFAULT_BRIDGE_CONFIG } from '../bridge/bridge';
import { type ClientReplyPort, type NodeContext, type SimNode } from './ports';
import { type NodeMessage } from './messages';
import { type VoteFact } from './observations';
import { stateWritesOf, txFactOf } from './stateFacts';
import { ParentView } from '../bridge/parentView';
import { SidechainView } from '../bridge/sidechainView';
import { type MsgCheckpoint } from '../modules/checkpoint/msgs';
import { type CommittedSpan, type StateSyncRecord } from '../sidechain/systemState';

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
  byzantineRoutes?(node: ServiceNode, msg: NodeMessage, tools: ByzantineTools): ByzantineRoutes | null;
  onCommit?(node: ServiceNode, block: CommittedBlock, end: EndBlockResponse, results: TxResult[]): void;
  /** Where this node's answers to transaction-submitting clients go (a devnet's REST layer). */
  clientReplies?: ClientReplyPort;
}

/** What a Byzantine wrapper may do with this node's key: sign other versions of its messages. */
export interface ByzantineTools {
  signVote(v: Omit<Vote, 'signature'>): Vote;
  signProposal(p: Omit<Proposal, 'signature'>): Proposal;
  peers: readonly string[];
}

interface MempoolEntry {
  tx: Hex;
  key: string | null;
}

export class ServiceNode implements SimNode<NodeMessage, ServiceTimer> {
  readonly id: string;
  /** Durable: survives crashes. */
  readonly disk: CommittedBlock[] = [];
  app!: ServiceApp;
  private consensus: Tendermint | null = null;
  private consensusSet!: ValidatorSet;
  private previousSet: ValidatorSet | null = null;
  private mempool = new Map<Hex, MempoolEntry>();
  private parentView = new ParentView();
  private sidechainView = new SidechainView();
  private bridge!: Bridge;
  private mySideVotes: SideVoteEntry[] = [];
  private lastCommit: Vote[] = [];
  private futureInputs = new Map<bigint, NodeMessage[]>();
  private lastSyncRequestMs = -Infinity;
  private sidechainFrom: bigint | null = null;
  private alive = true;
  /** Hashes of client-submitted txs this node accepted and has not yet seen committed (their results are recorded). */
  private clientTxs = new Set<Hex>();

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

  /** Fresh volatile state from genesis (constructor and restart). */
  private reset(): void {
    this.app = new ServiceApp(this.genesis, this.scheme);
    this.consensusSet = genesisSetOf(this.genesis, this.app);
    this.previousSet = null;
    this.consensus = null;
    this.mempool = new Map();
    this.clientTxs = new Set();
    this.parentView = new ParentView();
    this.sidechainView = new SidechainView();
    this.bridge = new Bridge(this.cfg.bridge, getChainParams(this.app.store).sidechainChainId);
    this.mySideVotes = [];
    this.lastCommit = [];
    this.futureInputs = new Map();
    this.sidechainFrom = null;
  }

  start(ctx: NodeContext<NodeMessage, ServiceTimer>): void {
    this.alive = true;
    if (this.app.height === 0n) this.observeGenesis(ctx);
    ctx.observe({ kind: 'service.started', height: this.app.height });
    ctx.setTimer(0, { kind: 'pollParent' });
    ctx.setTimer(0, { kind: 'pollSidechain' });
    ctx.setTimer(this.cfg.bridgeTickMs, { kind: 'bridge' });
    this.startHeight(ctx, this.app.height + 1n);
  }

  crash(): void {
    this.alive = false;
    this.reset();
  }

  restart(ctx: NodeContext<NodeMessage, ServiceTimer>): void {
    this.reset();
    // Replay the disk: the same blocks and commits give the same state.
    for (const cb of this.disk) this.applyBlock(cb, null, ctx, false);
    this.start(ctx);
  }

  // --- consensus driving ---------------------------------------------------------------------

  private startHeight(ctx: NodeContext<NodeMessage, ServiceTimer>, height: bigint): void {
    const isValidator = this.consensusSet.hasAddress(this.address);
    this.consensus = new Tendermint(
      isValidator ? this.address : null,
      height,
      this.consensusSet.copy(),
      { validBlock: (b, h) => this.validBlock(b, h, ctx) },
      this.cfg.timeouts,
    );
    this.process(ctx, this.consensus.start());
    ctx.setTimer(this.cfg.gossipMs, { kind: 'gossip', height });
    const queued = this.futureInputs.get(height) ?? [];
    this.futureInputs.delete(height);
    for (const m of queued) this.onMessage('', m, ctx);
    for (const h of [...this.futureInputs.keys()]) if (h < height) this.futureInputs.delete(h);
  }

  private process(ctx: NodeContext<NodeMessage, ServiceTimer>, outs: ConsensusOutput[]): void {
    for (const o of outs) {
      if (!this.consensus || (o.kind !== 'decide' && this.consensus.height !== this.app.height + 1n)) return;
      switch (o.kind) {
        case 'propose': {
          const block = o.reuse ?? this.buildBlock(ctx, o.height);
          const hash = blockHash(block);
          const unsigned = {
            height: o.height,
            round: o.round,
            blockHash: hash,
            polRound: o.polRound,
            proposer: this.address,
          };
          const proposal = this.signProposal({ ...unsigned, block });
          this.broadcastOwn(ctx, { kind: 'c.proposal', proposal });
          this.handleProposal(ctx, proposal);
          break;
        }
        case 'vote': {
          const vote = this.signVote({
            type: o.type,
            height: o.height,
            round: o.round,
            blockHash: o.blockHash,
            validator: this.address,
            ...(o.type === 'precommit' && o.blockHash !== null ? { sideTxVotes: this.mySideVotes } : {}),
          });
          observeVote(ctx, vote, 'consensus');
          const extra = this.hooks.onOwnVote?.(vote, (v) => this.signWrapperVote(ctx, v)) ?? [];
          this.broadcastOwn(ctx, { kind: 'c.vote', vote });
          for (const e of extra) this.broadcastSome(ctx, { kind: 'c.vote', vote: e });
          this.process(ctx, this.consensus.handle({ kind: 'vote', vote }));
          break;
        }
        case 'timer':
          ctx.setTimer(o.afterMs, { kind: 'consensus', timeout: o.timeout });
          break;
        case 'decide':
          this.onDecide(ctx, { block: o.block, blockHash: o.blockHash, commit: o.commit });
          return;
        case 'evidence':
          ctx.observe({
            kind: 'consensus.evidence',
            validator: o.votes[0].validator,
            height: o.votes[0].height,
            round: o.votes[0].round,
            voteType: o.votes[0].type,
          });
          break;
      }
    }
  }

  /** Hand a proposal of the current height to consensus (the first of its round is on record). */
  private handleProposal(ctx: NodeContext<NodeMessage, ServiceTimer>, p: Proposal): void {
    if (!this.consensus) return;
    if (!this.consensus.knownProposals().some((k) => k.round === p.round))
      ctx.observe({
        kind: 'consensus.proposal',
        height: p.height,
        round: p.round,
        blockHash: p.blockHash,
        polRound: p.polRound,
        proposer: p.proposer,
      });
    this.process(ctx, this.consensus.handle({ kind: 'proposal', proposal: p }));
  }

  /** A vote signed with this node's key outside its consensus (a Byzantine wrapper's), on record. */
  private signWrapperVote(ctx: NodeContext<NodeMessage, ServiceTimer>, v: Omit<Vote, 'signature'>): Vote {
    const vote = this.signVote(v);
    observeVote(ctx, vote, 'wrapper');
    return vote;
  }

  private signProposal(p: Omit<Proposal, 'signature'>): Proposal {
    const { block: _b, ...unsigned } = p;
    return {
      ...p,
      signature: toHex(this.scheme.sign(proposalDigest(unsigned, this.app.chainId), this.identity.privateKey)),
    };
  }

  /** Broadcast this node's own proposal or vote, unless a Byzantine wrapper routes it. */
  private broadcastOwn(ctx: NodeContext<NodeMessage, ServiceTimer>, msg: NodeMessage): void {
    const routes = this.hooks.byzantineRoutes?.(this, msg, {
      signVote: (v) => this.signWrapperVote(ctx, v),
      signProposal: (p) => this.signProposal(p),
      peers: this.identity.peers,
    });
    if (!routes) {
      this.broadcast(ctx, msg);
      return;
    }
    for (const r of routes) for (const to of r.to) ctx.send(to, r.msg);
  }

  private signVote(v: Omit<Vote, 'signature'>): Vote {
    return signedVote(v, this.app.chainId, (digest) => toHex(this.scheme.sign(digest, this.identity.privateKey)));
  }

  /** The proposer's block: mempool txs within the gas and byte limits; a checkpoint tx goes alone. */
  private buildBlock(ctx: NodeContext<NodeMessage, ServiceTimer>, height: bigint): ServiceBlock {
    const txs: Hex[] = [];
    let bytes = 0;
    let gas = 0n;
    for (const { tx } of this.mempool.values()) {
      const raw = fromHex(tx);
      let decoded: StdTx;
      try {
        decoded = decodeTx(raw, MSG_REGISTRY);
      } catch {
        continue;
      }
      if (isCheckpointTx(decoded)) {
        if (txs.length === 0) {
          txs.push(tx);
          break;
        }
        continue;
      }
      const txGas = BigInt(raw.length) * 10n + 1000n;
      if (bytes + raw.length > BLOCK_MAX_BYTES || gas + txGas > BLOCK_MAX_GAS) break;
      txs.push(tx);
      bytes += raw.length;
      gas += txGas;
    }
    const last = this.disk[this.disk.length - 1];
    const timeMs = Math.max(ctx.nowMs(), this.app.lastBlockTimeMs + 1);
    return {
      height,
      timeMs,
      proposer: this.address,
      lastBlockHash: last?.blockHash ?? (toHex(new Uint8Array(32)) as Hex),
      lastAppHash: this.app.appHash,
      lastCommit: this.lastCommit,
      txs,
    };
  }

  private validBlock(b: ServiceBlock, hash: Hex, ctx: NodeContext<NodeMessage, ServiceTimer>): boolean {
    const last = this.disk[this.disk.length - 1];
    if (blockHash(b) !== hash) return false;
    if (b.height !== this.app.height + 1n) return false;
    if (b.lastBlockHash !== (last?.blockHash ?? toHex(new Uint8Array(32)))) return false;
    if (b.lastAppHash !== this.app.appHash) return false;
    if (!(b.timeMs > this.app.lastBlockTimeMs) || b.timeMs > ctx.nowMs() + this.cfg.maxClockDriftMs) return false;
    let bytes = 0;
    for (const t of b.txs) bytes += (t.length - 2) / 2;
    if (bytes > BLOCK_MAX_BYTES) return false;
    return last === undefined
      ? b.lastCommit.length === 0
      : this.validCommit(b.lastCommit, b.height - 1n, last.blockHash, this.previousSet ?? this.consensusSet);
  }

  /** +2/3 of `set`'s power in valid precommits for `hash` at `height`. */
  private validCommit(votes: readonly Vote[], height: bigint, hash: Hex, set: ValidatorSet): boolean {
    // Every node checks the same commit (the block object is shared) against the same set: once.
    const hit = checkedCommits.get(votes);
    if (hit && hit.members === set.membershipKey && hit.height === height && hit.hash === hash) return hit.ok;
    const ok = this.checkCommit(votes, height, hash, set);
    checkedCommits.set(votes, { members: set.membershipKey, height, hash, ok });
    return ok;
  }

  private checkCommit(votes: readonly Vote[], height: bigint, hash: Hex, set: ValidatorSet): boolean {
    const seen = new Set<Address>();
    let power = 0n;
    for (const v of votes) {
      if (v.type !== 'precommit' || v.height !== height || v.blockHash !== hash || seen.has(v.validator)) return false;
      const member = set.getByAddress(v.validator);
      if (!member || !this.verifyVote(v)) return false;
      seen.add(v.validator);
      power += member.power;
    }
    return power * 3n > set.totalVotingPower() * 2n;
  }

  private verifyVote(v: Vote): boolean {
    const hit = verifiedVotes.get(v);
    if (hit !== undefined) return hit;
    // The digest covers everything but the signature (cached on the signed vote by identity).
    const ok = this.scheme.recover(voteDigest(v, this.app.chainId), fromHex(v.signature))?.address === v.validator;
    verifiedVotes.set(v, ok);
    return ok;
  }

  private verifyProposal(p: Proposal): boolean {
    const hit = verifiedProposals.get(p);
    if (hit !== undefined) return hit;
    const { signature, block: _block, ...unsigned } = p;
    const ok =
      this.scheme.recover(proposalDigest(unsigned, this.app.chainId), fromHex(signature))?.address === p.proposer;
    verifiedProposals.set(p, ok);
    return ok;
  }

  private onDecide(ctx: NodeContext<NodeMessage, ServiceTimer>, cb: CommittedBlock): void {
    this.applyBlock(cb, ctx.nowMs(), ctx, true);
    ctx.setTimer(this.cfg.commitTimeoutMs, { kind: 'nextHeight', height: this.app.height + 1n });
  }

  /**
   * Apply a committed block to the app and the consensus set; `live` is false while replaying the
   * disk after a restart (no votes, no bridge, no records).
   */
  private applyBlock(
    cb: CommittedBlock,
    _nowMs: number | null,
    ctx: NodeContext<NodeMessage, ServiceTimer>,
    live: boolean,
  ): void {
    const b = cb.block;
    assert(b.height === this.app.height + 1n, 'blocks apply in order', {
      node: this.id,
      height: b.height,
      app: this.app.height,
    });
    const sideTxVotes = sideVotesOf(b.lastCommit);
    // The block's own hash (not the one it came with): the shared execution record is keyed by it.
    const { results, end, commit, writes } = this.app.applyBlock(
      { timeMs: b.timeMs, proposer: b.proposer, sideTxVotes },
      b.txs,
      b,
      blockHash(b),
    );
    if (live) this.disk.push(cb);
    this.lastCommit = cb.commit;
    this.previousSet = this.consensusSet;
    // The same for every node that applies this block: computed once, shared (see ValidatorSet.advanced).
    this.consensusSet = this.consensusSet.advanced(
      end.validatorUpdates.map((u) => ({ address: u.address, power: u.power })),
      1,
    );
    this.consensus = null;
    // Mempool: drop what the block carried, re-check the rest against the new state.
    for (let i = 0; i < b.txs.length; i++) {
      const h = hashTx(fromHex(b.txs[i]!));
      this.mempool.delete(h);
      // A client's tx (e.g. from a devnet's REST API) gets its delivery result on record.
      if (live && this.clientTxs.delete(h)) {
        const r = results[i]!;
        this.hooks.clientReplies?.reply({
          kind: 'delivered',
          hash: h,
          height: b.height,
          code: r.code,
          codespace: r.codespace,
          log: r.log,
          gasWanted: r.gasWanted,
          gasUsed: r.gasUsed,
        });
      }
    }
    this.app.resetCheckState();
    for (const [h, e] of [...this.mempool]) if (this.app.checkTx(fromHex(e.tx)).code !== 0) this.mempool.delete(h);
    if (!live) return;
    ctx.observe({
      kind: 'service.commit',
      height: commit.height,
      blockHash: cb.blockHash,
      appHash: commit.appHash,
      proposer: b.proposer,
      timeMs: b.timeMs,
      commit: cb.commit.map(voteFact),
      txs: b.txs.map((t, i) => txFactOf(i, t, results[i]!)),
      sideTxs: end.sideTxResults.map((r) => ({
        txHash: r.txHash,
        msgType: r.msgType,
        tally: r.tally.result,
        code: r.code,
      })),
      writes: stateWritesOf(writes),
    });
    this.hooks.onCommit?.(this, cb, end, results);
    this.computeSideVotes(ctx);
    this.afterCommitBridge(ctx, cb, end, sideTxVotes);
  }

  /** The genesis state as stored, and the parameters the oracles' models need. */
  private observeGenesis(ctx: NodeContext<NodeMessage, ServiceTimer>): void {
    const store = this.app.store;
    const sc = getSidechainParams(store);
    ctx.observe({
      kind: 'service.genesis',
      chainId: this.app.chainId,
      timeMs: this.app.genesis.genesisTimeMs,
      params: {
        txFees: getAuthParams(store).txFees,
        checkpointBufferTimeMs: getCheckpointParams(store).checkpointBufferTimeMs,
        sprint: sc.sprintDuration,
        spanDuration: sc.spanDuration,
        producerCount: sc.producerCount,
      },
      state: stateWritesOf(store.entries()),
    });
  }

  /** Vote on the side txs of the block just committed (carried by our next precommit). */
  private computeSideVotes(ctx: NodeContext<NodeMessage, ServiceTimer>): void {
    const observers = { parent: this.parentView, sidechain: this.sidechainView };
    const sidechainChainId = getChainParams(this.app.store).sidechainChainId;
    const votes = this.app.sideTxVotes(observers);
    // The side txs voted on are the last block's: decode that block once, not once per vote.
    const msgs = new Map<Hex, { type: string; msg: unknown }>();
    const last = this.disk[this.disk.length - 1];
    if (votes.length && last) {
      for (const t of last.block.txs) {
        const raw = fromHex(t);
        try {
          const tx = decodeTx(raw, MSG_REGISTRY);
          msgs.set(hashTx(raw), { type: tx.def.type, msg: tx.msg });
        } catch {
          /* an undecodable tx has no side vote */
        }
      }
    }
    const msgOf = <M>(txHash: Hex, type: string): M | null => {
      const m = msgs.get(txHash);
      return m && m.type === type ? (m.msg as M) : null;
    };
    this.mySideVotes = votes.map(({ txHash, vote }) => {
      const entry: SideVoteEntry = { txHash, vote };
      const span = msgOf<MsgProposeSpan>(txHash, 'sidechain/MsgProposeSpan');
      if (span) {
        const current = getLastSpan(this.app.store);
        ctx.observe({
          kind: 'side.vote',
          height: this.app.height,
          txHash,
          spanId: span.spanId,
          vote: vote.result,
          head: this.sidechainView.headNumber(),
          currentStart: current?.startBlock ?? 0n,
          currentEnd: current?.endBlock ?? 0n,
        });
      }
      const cp = msgOf<MsgCheckpoint>(txHash, 'checkpoint/MsgCheckpoint');
      if (vote.result === 'yes' && cp) {
        entry.signature = toHex(
          this.scheme.sign(checkpointSignDigest({ ...cp, sidechainChainId }), this.identity.privateKey),
        );
      }
      return entry;
    });
  }

  private afterCommitBridge(
    ctx: NodeContext<NodeMessage, ServiceTimer>,
    cb: CommittedBlock,
    end: EndBlockResponse,
    votes: SideTxVotes[],
  ): void {
    for (const r of end.sideTxResults) {
      if (r.msgType !== 'checkpoint/MsgCheckpoint' || r.code !== 0) continue;
      const buf = getBuffer(this.app.store);
      if (!buf) continue;
      const sigs = (votes.find((v) => v.txHash === r.txHash)?.votes ?? [])
        .filter((v) => v.vote.result === 'yes')
        .map((v) => (v as { signature?: Hex }).signature)
        .filter((s): s is Hex => typeof s === 'string');
      const action = this.bridge.onCheckpointBuffered(this.bridgeInputs(ctx), buf, sigs);
      if (action) this.act(ctx, action);
    }
    void cb;
  }

  // --- messages and timers -------------------------------------------------------------------

  onMessage(from: string, msg: NodeMessage, ctx: NodeContext<NodeMessage, ServiceTimer>): void {
    if (!this.alive) return;
    switch (msg.kind) {
      case 'c.proposal': {
        const p = msg.proposal;
        if (this.aheadOf(from, p.height, msg, ctx)) return;
        if (!this.consensus || p.height !== this.consensus.height) return;
        if (!this.verifyProposal(p)) return;
        this.handleProposal(ctx, p);
        return;
      }
      case 'c.vote': {
        const v = msg.vote;
        if (this.aheadOf(from, v.height, msg, ctx)) return;
        if (!this.consensus || v.height !== this.consensus.height || !this.verifyVote(v)) return;
        this.process(ctx, this.consensus.handleVote(v));
        return;
      }
      case 'c.tx':
        this.addTx(ctx, msg.tx, null, false);
        return;
      case 'client.tx':
        this.addClientTx(ctx, msg.tx);
        return;
      case 'c.syncReq': {
        const from0 = msg.fromHeight;
        const blocks = this.disk.filter((cb) => cb.block.height >= from0).slice(0, this.cfg.maxSyncBlocks);
        if (blocks.length) ctx.send(from, { kind: 'c.syncRes', blocks });
        return;
      }
      case 'c.syncRes':
        this.onSync(ctx, msg.blocks);
        return;
      case 'p.syncRes':
        this.parentView.update(msg.result);
        return;
      case 'sc.headers': {
        const ok = this.sidechainView.update(msg.anchor, msg.headers, msg.head);
        this.sidechainFrom = ok ? null : msg.anchor && msg.anchor.number > 256n ? msg.anchor.number - 256n : 0n;
        return;
      }
      case 'svc.getSpan':
        ctx.send(from, { kind: 'svc.span', id: msg.id, span: this.spanFor(msg.id) });
        return;
      case 'svc.getStateSyncs':
        ctx.send(from, { kind: 'svc.stateSyncs', records: this.stateSyncsFrom(msg.fromId) });
        return;
      case 'svc.getCheckpoint': {
        const last = getLastCheckpoint(this.app.store);
        const cp = last?.checkpoint;
        ctx.send(from, {
          kind: 'svc.checkpoint',
          checkpoint: cp ? { start: cp.startBlock, end: cp.endBlock, rootHash: cp.rootHash } : null,
        });
        return;
      }
      default:
        return;
    }
  }

  /** A message from a later height: keep it for when we get there, and ask for the blocks we miss. */
  private aheadOf(
    from: string,
    height: bigint,
    msg: NodeMessage,
    ctx: NodeContext<NodeMessage, ServiceTimer>,
  ): boolean {
    // Between a commit and the next height (the commit timeout) no consensus runs: messages for the
    // next height must wait for it, not be dropped.
    const mine = this.consensus?.height ?? this.app.height;
    if (height <= mine) return false;
    if (height <= mine + 2n) {
      const q = this.futureInputs.get(height) ?? [];
      if (q.length < 500) q.push(msg);
      this.futureInputs.set(height, q);
    }
    // Only a message beyond the next height means a whole block is missing: ask for it. A message
    // for the next height just arrived before our commit timeout ran out.
    if (height > this.app.height + 1n && from !== '' && ctx.nowMs() - this.lastSyncRequestMs > 2_000) {
      this.lastSyncRequestMs = ctx.nowMs();
      ctx.send(from, { kind: 'c.syncReq', fromHeight: this.app.height + 1n });
    }
    return true;
  }

  private onSync(ctx: NodeContext<NodeMessage, ServiceTimer>, blocks: CommittedBlock[]): void {
    let applied = false;
    for (const cb of blocks) {
      if (cb.block.height !== this.app.height + 1n) continue;
      if (
        blockHash(cb.block) !== cb.blockHash ||
        !this.validCommit(cb.commit, cb.block.height, cb.blockHash, this.consensusSet)
      )
        break;
      const last = this.disk[this.disk.length - 1];
      if (
        cb.block.lastBlockHash !== (last?.blockHash ?? toHex(new Uint8Array(32))) ||
        cb.block.lastAppHash !== this.app.appHash
      )
        break;
      this.applyBlock(cb, ctx.nowMs(), ctx, true);
      applied = true;
    }
    if (applied) {
      ctx.observe({ kind: 'service.synced', height: this.app.height });
      this.startHeight(ctx, this.app.height + 1n);
    }
  }

  onTimer(tag: ServiceTimer, ctx: NodeContext<NodeMessage, ServiceTimer>): void {
    if (!this.alive) return;
    switch (tag.kind) {
      case 'consensus':
        if (this.consensus && tag.timeout.height === this.consensus.height)
          this.process(ctx, this.consensus.handle(tag.timeout));
        return;
      case 'nextHeight':
        if (tag.height === this.app.height + 1n && (!this.consensus || this.consensus.hasDecided))
          this.startHeight(ctx, tag.height);
        return;
      case 'gossip':
        if (this.consensus && this.consensus.height === tag.height && !this.consensus.hasDecided) {
          for (const p of this.consensus.knownProposals()) this.broadcast(ctx, { kind: 'c.proposal', proposal: p });
          for (const v of this.consensus.knownVotes())
            if (v.validator === this.address) this.broadcast(ctx, { kind: 'c.vote', vote: v });
          // Others' votes of the current and POL rounds too (see relayedVotes).
          for (const v of this.consensus.relayedVotes())
            if (v.validator !== this.address) this.broadcast(ctx, { kind: 'c.vote', vote: v });
          ctx.setTimer(this.cfg.gossipMs, { kind: 'gossip', height: tag.height });
        }
        return;
      case 'pollParent':
        ctx.send(this.identity.parentNode, {
          kind: 'p.sync',
          fromBlock: this.parentView.nextFrom(),
          fromHeaderBlock: this.parentView.lastHeaderBlock() + 1n,
        });
        ctx.setTimer(this.cfg.parentPollMs, { kind: 'pollParent' });
        return;
      case 'pollSidechain':
        ctx.send(this.identity.sidechainNode, {
          kind: 'sc.getHeaders',
          from: this.sidechainFrom ?? this.sidechainView.nextFrom(),
        });
        ctx.setTimer(this.cfg.sidechainPollMs, { kind: 'pollSidechain' });
        return;
      case 'bridge':
        for (const a of this.bridge.tick(this.bridgeInputs(ctx))) this.act(ctx, a);
        ctx.setTimer(this.cfg.bridgeTickMs, { kind: 'bridge' });
        return;
    }
  }

  // --- bridge actions, mempool ---------------------------------------------------------------

  private bridgeInputs(ctx: NodeContext<NodeMessage, ServiceTimer>) {
    return {
      me: this.address,
      nowMs: ctx.nowMs(),
      state: this.app.store,
      parent: this.parentView,
      sidechain: this.sidechainView,
      inMempool: (key: string) => [...this.mempool.values()].some((e) => e.key === key),
      genesisTimeMs: this.app.genesis.genesisTimeMs,
    };
  }

  private act(ctx: NodeContext<NodeMessage, ServiceTimer>, a: BridgeAction): void {
    if (a.kind === 'parentCall') {
      ctx.send(this.identity.parentNode, { kind: 'p.submit', call: a.call });
      ctx.observe({ kind: 'bridge.parentCall', method: a.call.method, key: a.key });
      return;
    }
    const tx = this.signOwnTx(a.def, a.msg);
    if (tx === null) return;
    ctx.observe({ kind: 'bridge.tx', msgType: a.def.type, key: a.key });
    this.addTx(ctx, tx, a.key, true);
  }

  /** Sign a message with this node's key at the check state's sequence. */
  signOwnTx(def: MsgDef, msg: unknown): Hex | null {
    const acc = this.app.signingAccount(this.address);
    if (!acc) return null;
    return toHex(
      encodeTx(
        signTx(
          def,
          msg,
          { chainId: this.app.chainId, accountNumber: acc.accountNumber, sequence: acc.sequence, memo: '' },
          this.identity.privateKey,
          this.scheme,
        ),
      ),
    );
  }

  /** A client's tx: the CheckTx answer goes on record (what a node's broadcast endpoint answers). */
  private addClientTx(ctx: NodeContext<NodeMessage, ServiceTimer>, tx: Hex): void {
    const answer = this.hooks.clientReplies;
    const refuse = (hash: Hex | null, code: number, log: string) =>
      answer?.reply({ kind: 'checked', hash, code, codespace: 'sdk', log, gasWanted: null, gasUsed: null });
    let raw: Uint8Array;
    try {
      raw = fromHex(tx);
    } catch {
      refuse(null, 2, 'tx is not hex');
      return;
    }
    const h = hashTx(raw);
    if (this.mempool.has(h)) {
      refuse(h, 19, 'tx already in mempool');
      return;
    }
    if (this.mempool.size >= 5_000) {
      refuse(h, 20, 'mempool is full');
      return;
    }
    const r = this.app.checkTx(raw);
    answer?.reply({
      kind: 'checked',
      hash: h,
      code: r.code,
      codespace: r.codespace,
      log: r.log,
      gasWanted: r.gasWanted,
      gasUsed: r.gasUsed,
    });
    if (r.code !== 0) return;
    this.clientTxs.add(h);
    this.mempool.set(h, { tx, key: mempoolKeyOf(raw) });
    this.broadcast(ctx, { kind: 'c.tx', tx });
  }

  private addTx(ctx: NodeContext<NodeMessage, ServiceTimer>, tx: Hex, key: string | null, gossip: boolean): void {
    let raw: Uint8Array;
    try {
      raw = fromHex(tx);
    } catch {
      return;
    }
    const h = hashTx(raw);
    if (this.mempool.has(h) || this.mempool.size >= 5_000) return;
    if (this.app.checkTx(raw).code !== 0) return;
    this.mempool.set(h, { tx, key: key ?? mempoolKeyOf(raw) });
    if (gossip) this.broadcast(ctx, { kind: 'c.tx', tx });
  }

  /** What this node sees of the parent chain and the sidechain (for REST queries that need it). */
  observers(): Observers {
    return { parent: this.parentView, sidechain: this.sidechainView };
  }

  get mempoolSize(): number {
    return this.mempool.size;
  }

  private broadcast(ctx: NodeContext<NodeMessage, ServiceTimer>, msg: NodeMessage): void {
    ctx.broadcast(this.identity.peers, msg);
  }

  /** Send to half of the peers (a Byzantine double-signer splits its votes). */
  private broadcastSome(ctx: NodeContext<NodeMessage, ServiceTimer>, msg: NodeMessage): void {
    this.identity.peers.forEach((p, i) => {
      if (i % 2 === 1) ctx.send(p, msg);
    });
  }

  // --- REST answers for the sidechain node ---------------------------------------------------

  private spanFor(id: bigint): CommittedSpan | null {
    const s = getSpan(this.app.store, id);
    if (!s) return null;
    return {
      id: s.id,
      startBlock: s.startBlock,
      endBlock: s.endBlock,
      producers: s.selectedProducers.map((p) => ({ id: p.id, address: p.signer, power: p.power })),
    };
  }

  private stateSyncsFrom(fromId: bigint): StateSyncRecord[] {
    return listRecords(this.app.store, { fromId, toTimeMs: Number.MAX_SAFE_INTEGER, limit: 50 }).map((r) => ({
      id: r.id,
      contract: r.contract,
      data: r.data,
      txHash: r.txHash,
      logIndex: r.logIndex,
      chainId: r.sidechainChainId,
      timeS: BigInt(Math.floor(r.recordTimeMs / 1000)),
    }));
  }

  /** Views, for oracles and reports. */
  get views(): { parent: ParentView; sidechain: SidechainView } {
    return { parent: this.parentView, sidechain: this.sidechainView };
  }
}

/**
 * Votes are immutable objects shared by the nodes of one process; a vote's signature is checked
 * once (whether it recovers to its validator does not depend on who asks).
 */
const verifiedVotes = new WeakMap<Vote, boolean>();
/** Likewise proposals: one signature check per proposal object, not one per receiving node. */
const verifiedProposals = new WeakMap<Proposal, boolean>();

/**
 * Commits checked against a set, by the commit's vote list: whether +2/3 of the set's power signed
 * it. The answer depends only on the votes (immutable, their signatures checked once per process),
 * the height, the hash and the set's members and powers.
 */
const checkedCommits = new WeakMap<readonly Vote[], { members: object; height: bigint; hash: Hex; ok: boolean }>();

/**
 * The consensus set at genesis: the genesis validators that start in epoch 1. Built once per
 * genesis object (every node of a run and every restart share it; sets are copy-on-write).
 */
const genesisSets = new WeakMap<object, ValidatorSet>();

function genesisSetOf(genesis: unknown, app: ServiceApp): ValidatorSet {
  const key = typeof genesis === 'object' && genesis !== null ? genesis : null;
  let set = key ? genesisSets.get(key) : undefined;
  if (set === undefined) {
    set = new ValidatorSet(
      app.genesis.staking.validators
        .filter((v) => v.startEpoch <= 1n)
        .map((v) => ({ address: v.signer, power: v.power })),
    );
    if (key) genesisSets.set(key, set);
  }
  return set.copy();
}

function voteFact(v: Vote): VoteFact {
  return { type: v.type, height: v.height, round: v.round, blockHash: v.blockHash, validator: v.validator };
}

function observeVote(ctx: NodeContext<NodeMessage, ServiceTimer>, v: Vote, origin: 'consensus' | 'wrapper'): void {
  ctx.observe({ kind: 'consensus.vote', vote: voteFact(v), origin });
}

/** Group the side-tx votes carried by a commit's precommits by tx. */
export function sideVotesOf(commit: readonly Vote[]): SideTxVotes[] {
  const byTx = new Map<Hex, SideTxVotes['votes']>();
  for (const v of commit) {
    for (const e of v.sideTxVotes ?? []) {
      const list = byTx.get(e.txHash) ?? [];
      list.push({
        validator: v.validator,
        vote: e.vote as SideVote,
        ...(e.signature ? { signature: e.signature } : {}),
      } as SideTxVotes['votes'][number]);
      byTx.set(e.txHash, list);
    }
  }
  return [...byTx.entries()].map(([txHash, votes]) => ({ txHash, votes }));
}

/** The bridge key of a tx in the mempool: the same event or proposal gives the same key. */
export function mempoolKeyOf(raw: Uint8Array): string | null {
  try {
    const tx = decodeTx(raw, MSG_REGISTRY);
    const m = tx.msg as Record<string, unknown>;
    if (typeof m.txHash === 'string' && typeof m.logIndex === 'bigint') return `${m.txHash}/${m.logIndex}`;
    if (tx.def.type === 'sidechain/MsgProposeSpan') return `span/${m.spanId}`;
    if (tx.def.type === 'checkpoint/MsgCheckpoint') return `checkpoint/${m.startBlock}/${m.endBlock}/${m.rootHash}`;
    return null;
  } catch {
    return null;
  }
}
