/**
 * How a service node drives its Tendermint engine (the consensus reactor): one engine per
 * height, its outputs turned into signed proposals and votes sent to the peers (or routed by a
 * Byzantine wrapper), its timeouts into timers, its decision into a commit; messages from later
 * heights kept for when the node gets there, and the blocks it misses fetched from a peer; the
 * validator sets it checks commits against; and the gossip that re-sends this height's messages
 * to lagging peers.
 */
import { type Address } from '../../core/address';
import { type Hex, fromHex, toHex } from '../../core/bytes';
import { weakMemo } from '../../core/memo';
import { ValidatorSet } from '../../core/validatorSet';
import { type ValidatorUpdate } from '../../modules/staking/currentValidators';
import { type ServiceApp } from '../../app/serviceApp';
import { Tendermint, type ConsensusOutput } from '../../consensus/tendermint';
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
} from '../../consensus/types';
import { type NodeContext } from '../ports';
import { type NodeMessage } from '../messages';
import { syncableBlock, validCommit, votableBlock } from './blockRules';
import { type ServiceTimer } from './config';
import { evidenceObservation, proposalObservation, spanVoteObservation, voteObservation } from './reporting';
import { castSideVotes } from './sideVoter';
import { getChainParams } from '../../modules/chain/keeper';
import { type ServiceNodeShell } from './config';

type Ctx = NodeContext<NodeMessage, ServiceTimer>;

/** Messages kept per future height at most (the next two heights only). */
export const FUTURE_INPUTS_PER_HEIGHT = 500;
/** A node behind by a whole block asks a peer for the blocks it misses at most this often. */
export const SYNC_REQUEST_INTERVAL_MS = 2_000;

/**
 * Votes are immutable objects shared by the nodes of one process; a vote's signature is checked
 * once (whether it recovers to its validator does not depend on who asks).
 */
const verifiedVotes = weakMemo<Vote, boolean>('serviceNode.verifiedVotes');
/** Likewise proposals: one signature check per proposal object, not one per receiving node. */
const verifiedProposals = weakMemo<Proposal, boolean>('serviceNode.verifiedProposals');

/**
 * Commits checked against a set, by the commit's vote list: whether +2/3 of the set's power signed
 * it. The answer depends only on the votes (immutable, their signatures checked once per process),
 * the height, the hash and the set's members and powers.
 */
const checkedCommits = weakMemo<readonly Vote[], { members: object; height: bigint; hash: Hex; ok: boolean }>(
  'serviceNode.checkedCommits',
);

/**
 * The consensus set at genesis: the genesis validators that start in epoch 1. Built once per
 * genesis object (every node of a run and every restart share it; sets are copy-on-write).
 */
const genesisSets = weakMemo<object, ValidatorSet>('serviceNode.genesisSets');

function genesisSetOf(genesis: unknown, app: ServiceApp): ValidatorSet {
  const build = () =>
    new ValidatorSet(
      app.genesis.staking.validators
        .filter((v) => v.startEpoch <= 1n)
        .map((v) => ({ address: v.signer, power: v.power })),
    );
  return (typeof genesis === 'object' && genesis !== null ? genesisSets.getOrCompute(genesis, build) : build()).copy();
}

export class ConsensusDriver {
  consensus: Tendermint | null = null;
  /** The set of the height being decided, and the one before (the last block's commit is checked against it). */
  consensusSet: ValidatorSet;
  private previousSet: ValidatorSet | null = null;
  /** The precommits that committed the last block (the next block carries them). */
  private lastCommit: Vote[] = [];
  /** This validator's side-tx votes on the last block, carried by its next non-nil precommit. */
  private mySideVotes: SideVoteEntry[] = [];
  private futureInputs = new Map<bigint, NodeMessage[]>();
  /** The last round > 0 reported for the height being decided (consensus.round). */
  private reportedRound = 0;
  private lastSyncRequestMs = -Infinity;

  constructor(
    private readonly node: ServiceNodeShell,
    genesis: unknown,
  ) {
    this.consensusSet = genesisSetOf(genesis, node.app);
  }

  private get address(): Address {
    return this.node.address;
  }

  startHeight(ctx: Ctx, height: bigint): void {
    const isValidator = this.consensusSet.hasAddress(this.address);
    this.reportedRound = 0;
    this.consensus = new Tendermint(
      isValidator ? this.address : null,
      height,
      this.consensusSet.copy(),
      { validBlock: (b, h) => this.validBlock(b, h, ctx) },
      this.node.cfg.timeouts,
    );
    this.process(ctx, this.consensus.start());
    ctx.setTimer(this.node.cfg.gossipMs, { kind: 'gossip', height });
    const queued = this.futureInputs.get(height) ?? [];
    this.futureInputs.delete(height);
    for (const m of queued) this.node.onMessage('', m, ctx);
    for (const h of [...this.futureInputs.keys()]) if (h < height) this.futureInputs.delete(h);
  }

  process(ctx: Ctx, outs: ConsensusOutput[]): void {
    const c = this.consensus;
    if (c && c.round > this.reportedRound && !c.hasDecided) {
      this.reportedRound = c.round;
      ctx.observe({ kind: 'consensus.round', height: c.height, round: c.round });
    }
    // Most inputs (a vote that completes nothing) have no output: an index loop, no iterator for those.
    for (let i = 0; i < outs.length; i++) {
      const o = outs[i]!;
      if (!this.consensus || (o.kind !== 'decide' && this.consensus.height !== this.node.app.height + 1n)) return;
      switch (o.kind) {
        case 'propose': {
          const block = o.reuse ?? this.node.proposeBlock(ctx);
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
          ctx.observe(voteObservation(vote, 'consensus'));
          const extra = this.node.hooks.onOwnVote?.(vote, (v) => this.signWrapperVote(ctx, v)) ?? [];
          this.broadcastOwn(ctx, { kind: 'c.vote', vote });
          for (const e of extra) this.broadcastSome(ctx, { kind: 'c.vote', vote: e });
          this.process(ctx, this.consensus.handle({ kind: 'vote', vote }));
          break;
        }
        case 'timer':
          ctx.setTimer(o.afterMs, { kind: 'consensus', timeout: o.timeout });
          break;
        case 'decide':
          this.node.commitBlock(ctx, { block: o.block, blockHash: o.blockHash, commit: o.commit });
          ctx.setTimer(this.node.cfg.commitTimeoutMs, { kind: 'nextHeight', height: this.node.app.height + 1n });
          return;
        case 'evidence':
          ctx.observe(evidenceObservation(o.votes));
          break;
      }
    }
  }

  /** Hand a proposal of the current height to consensus (the first of its round is on record). */
  handleProposal(ctx: Ctx, p: Proposal): void {
    if (!this.consensus) return;
    if (!this.consensus.knownProposals().some((k) => k.round === p.round)) ctx.observe(proposalObservation(p));
    this.process(ctx, this.consensus.handle({ kind: 'proposal', proposal: p }));
  }

  // --- messages from peers ---------------------------------------------------------------------

  onProposal(from: string, p: Proposal, msg: NodeMessage, ctx: Ctx): void {
    if (this.aheadOf(from, p.height, msg, ctx)) return;
    if (!this.consensus || p.height !== this.consensus.height) return;
    if (!this.verifyProposal(p)) return;
    this.handleProposal(ctx, p);
  }

  onVote(from: string, v: Vote, msg: NodeMessage, ctx: Ctx): void {
    if (this.aheadOf(from, v.height, msg, ctx)) return;
    if (!this.consensus || v.height !== this.consensus.height || !this.verifyVote(v)) return;
    this.process(ctx, this.consensus.handleVote(v));
  }

  onTimeout(ctx: Ctx, tag: Extract<ServiceTimer, { kind: 'consensus' }>): void {
    if (this.consensus && tag.timeout.height === this.consensus.height)
      this.process(ctx, this.consensus.handle(tag.timeout));
  }

  /** A message from a later height: keep it for when we get there, and ask for the blocks we miss. */
  private aheadOf(from: string, height: bigint, msg: NodeMessage, ctx: Ctx): boolean {
    // Between a commit and the next height (the commit timeout) no consensus runs: messages for the
    // next height must wait for it, not be dropped.
    const appHeight = this.node.app.height;
    const mine = this.consensus?.height ?? appHeight;
    if (height <= mine) return false;
    if (height <= mine + 2n) {
      const q = this.futureInputs.get(height) ?? [];
      if (q.length < FUTURE_INPUTS_PER_HEIGHT) q.push(msg);
      this.futureInputs.set(height, q);
    }
    // Only a message beyond the next height means a whole block is missing: ask for it. A message
    // for the next height just arrived before our commit timeout ran out.
    if (height > appHeight + 1n && from !== '' && ctx.nowMs() - this.lastSyncRequestMs > SYNC_REQUEST_INTERVAL_MS) {
      this.lastSyncRequestMs = ctx.nowMs();
      ctx.send(from, { kind: 'c.syncReq', fromHeight: appHeight + 1n });
    }
    return true;
  }

  /** Blocks a peer sent for `c.syncReq`: apply those that continue this node's chain, then decide the next height. */
  onSync(ctx: Ctx, blocks: CommittedBlock[]): void {
    let applied = false;
    for (const cb of blocks) {
      if (cb.block.height !== this.node.app.height + 1n) continue;
      if (
        !syncableBlock(cb, this.node.tip(), (c) =>
          this.validCommit(c.commit, c.block.height, c.blockHash, this.consensusSet),
        )
      )
        break;
      this.node.commitBlock(ctx, cb);
      applied = true;
    }
    if (applied) {
      ctx.observe({ kind: 'service.synced', height: this.node.app.height });
      this.startHeight(ctx, this.node.app.height + 1n);
    }
  }

  /** Re-send this height's proposals and own votes to lagging peers, until it is decided. */
  gossip(ctx: Ctx, height: bigint): void {
    if (this.consensus && this.consensus.height === height && !this.consensus.hasDecided) {
      for (const p of this.consensus.knownProposals()) this.broadcast(ctx, { kind: 'c.proposal', proposal: p });
      for (const v of this.consensus.knownVotes())
        if (v.validator === this.address) this.broadcast(ctx, { kind: 'c.vote', vote: v });
      // Others' votes of the current and POL rounds too (see relayedVotes).
      for (const v of this.consensus.relayedVotes())
        if (v.validator !== this.address) this.broadcast(ctx, { kind: 'c.vote', vote: v });
      ctx.setTimer(this.node.cfg.gossipMs, { kind: 'gossip', height });
    }
  }

  /** After a commit: the next height's set (the block's validator updates, one proposer rotation). */
  advance(commit: Vote[], updates: readonly ValidatorUpdate[]): void {
    this.lastCommit = commit;
    this.previousSet = this.consensusSet;
    // The same for every node that applies this block: computed once, shared (see ValidatorSet.advanced).
    this.consensusSet = this.consensusSet.advanced(
      updates.map((u) => ({ address: u.address, power: u.power })),
      1,
    );
    this.consensus = null;
  }

  /** Vote on the side txs of the block just committed (carried by the next non-nil precommit). */
  voteOnSideTxs(ctx: Ctx, txs: readonly Hex[], sidechainHead: bigint | null): void {
    const app = this.node.app;
    const voting = castSideVotes(app.sideTxVotes(this.node.views), txs, {
      sidechainChainId: getChainParams(app.store).sidechainChainId,
      signDigest: (d) => this.node.sign(d),
    });
    this.mySideVotes = voting.entries;
    for (const v of voting.spanVotes) ctx.observe(spanVoteObservation(app, v, sidechainHead));
    const views = this.node.views;
    for (const t of voting.targets)
      ctx.observe({
        kind: 'side.voteRead',
        height: app.height,
        txHash: t.txHash,
        msgType: t.msgType,
        vote: t.vote,
        parent: t.parentEvent
          ? { eventBlock: views.parent.eventBlock(t.parentEvent.txHash), head: views.parent.head() }
          : null,
        sidechain: t.checkpointEnd !== null ? { endBlock: t.checkpointEnd, head: views.sidechain.headNumber() } : null,
      });
  }

  /** The set the last committed block's precommits were checked against (its height's set). */
  get lastCommitSet(): ValidatorSet {
    return this.previousSet ?? this.consensusSet;
  }

  /** The commit the next block carries. */
  get commitForNextBlock(): Vote[] {
    return this.lastCommit;
  }

  private validBlock(b: ServiceBlock, hash: Hex, ctx: Ctx): boolean {
    return votableBlock(b, hash, this.node.tip(), {
      nowMs: ctx.nowMs(),
      maxClockDriftMs: this.node.cfg.maxClockDriftMs,
      lastCommitValid: (votes) =>
        this.validCommit(votes, b.height - 1n, b.lastBlockHash, this.previousSet ?? this.consensusSet),
    });
  }

  /** +2/3 of `set`'s power in valid precommits for `hash` at `height`. */
  private validCommit(votes: readonly Vote[], height: bigint, hash: Hex, set: ValidatorSet): boolean {
    // Every node checks the same commit (the block object is shared) against the same set: once.
    const hit = checkedCommits.get(votes);
    if (hit && hit.members === set.membershipKey && hit.height === height && hit.hash === hash) return hit.ok;
    const ok = validCommit(votes, height, hash, set, (v) => this.verifyVote(v));
    checkedCommits.set(votes, { members: set.membershipKey, height, hash, ok });
    return ok;
  }

  // --- signing, sending, verifying -------------------------------------------------------------

  private signVote(v: Omit<Vote, 'signature'>): Vote {
    return signedVote(v, this.node.app.chainId, (digest) => toHex(this.node.sign(digest)));
  }

  /** A vote signed with this node's key outside its consensus (a Byzantine wrapper's), on record. */
  private signWrapperVote(ctx: Ctx, v: Omit<Vote, 'signature'>): Vote {
    const vote = this.signVote(v);
    ctx.observe(voteObservation(vote, 'wrapper'));
    return vote;
  }

  private signProposal(p: Omit<Proposal, 'signature'>): Proposal {
    const { block: _b, ...unsigned } = p;
    return { ...p, signature: toHex(this.node.sign(proposalDigest(unsigned, this.node.app.chainId))) };
  }

  /** Broadcast this node's own proposal or vote, unless a Byzantine wrapper routes it. */
  private broadcastOwn(ctx: Ctx, msg: NodeMessage): void {
    const routes = this.node.hooks.byzantineRoutes?.(this.node, msg, {
      signVote: (v) => this.signWrapperVote(ctx, v),
      signProposal: (p) => this.signProposal(p),
      peers: this.node.identity.peers,
    });
    if (!routes) {
      this.broadcast(ctx, msg);
      return;
    }
    for (const r of routes) for (const to of r.to) ctx.send(to, r.msg);
  }

  private broadcast(ctx: Ctx, msg: NodeMessage): void {
    ctx.broadcast(this.node.identity.peers, msg);
  }

  /** Send to half of the peers (a Byzantine double-signer splits its votes). */
  private broadcastSome(ctx: Ctx, msg: NodeMessage): void {
    this.node.identity.peers.forEach((p, i) => {
      if (i % 2 === 1) ctx.send(p, msg);
    });
  }

  private verifyVote(v: Vote): boolean {
    // Every node checks every vote: a hit must not allocate (no closure for getOrCompute).
    const hit = verifiedVotes.get(v);
    if (hit !== undefined) return hit;
    // The digest covers everything but the signature (cached on the signed vote by identity).
    const ok =
      this.node.scheme.recover(voteDigest(v, this.node.app.chainId), fromHex(v.signature))?.address === v.validator;
    verifiedVotes.set(v, ok);
    return ok;
  }

  private verifyProposal(p: Proposal): boolean {
    return verifiedProposals.getOrCompute(p, () => {
      const { signature, block: _block, ...unsigned } = p;
      return (
        this.node.scheme.recover(proposalDigest(unsigned, this.node.app.chainId), fromHex(signature))?.address ===
        p.proposer
      );
    });
  }
}
