/**
 * The service's BFT consensus: Tendermint's algorithm ("The latest gossip on BFT consensus",
 * Buchman, Kwon, Milosevic 2018) over voting power. One instance per validator node.
 *
 * It is a deterministic step machine: each input (a proposal, a vote, a timeout) updates the state
 * and returns outputs (messages to broadcast, timers to set, a decision). It never reads a clock or
 * the network. Timers carry the (height, round, step) they were set for; a timer that fires after
 * the state moved on is ignored.
 */
import { type Address } from '../core/address';
import { type Hex } from '../core/bytes';
import { assert } from '../core/errors';
import { type ValidatorSet } from '../core/validatorSet';
import { type Proposal, type ServiceBlock, type Step, type Vote } from './types';
import { VoteSet } from './voteSet';
import { isPlanted } from '../core/plants';

export interface TimeoutConfig {
  proposeMs: number;
  proposeDeltaMs: number;
  prevoteMs: number;
  prevoteDeltaMs: number;
  precommitMs: number;
  precommitDeltaMs: number;
}

export const DEFAULT_TIMEOUTS: TimeoutConfig = {
  proposeMs: 3000,
  proposeDeltaMs: 500,
  prevoteMs: 1000,
  prevoteDeltaMs: 500,
  precommitMs: 1000,
  precommitDeltaMs: 500,
};

export type TimeoutStep = 'propose' | 'prevote' | 'precommit';

export interface TimeoutInput {
  kind: 'timeout';
  height: bigint;
  round: number;
  step: TimeoutStep;
}

export type ConsensusInput = { kind: 'proposal'; proposal: Proposal } | { kind: 'vote'; vote: Vote } | TimeoutInput;

export type ConsensusOutput =
  | { kind: 'propose'; height: bigint; round: number; polRound: number; reuse: ServiceBlock | null }
  | { kind: 'vote'; type: 'prevote' | 'precommit'; height: bigint; round: number; blockHash: Hex | null }
  | { kind: 'timer'; afterMs: number; timeout: TimeoutInput }
  | { kind: 'decide'; height: bigint; round: number; block: ServiceBlock; blockHash: Hex; commit: Vote[] }
  | { kind: 'evidence'; votes: [Vote, Vote] };

/** Host callbacks: block validity is the app's business, not consensus's. */
export interface ConsensusHost {
  validBlock(block: ServiceBlock, blockHash: Hex): boolean;
}

interface RoundVotes {
  prevotes: VoteSet;
  precommits: VoteSet;
}

/** The answer "nothing to do" (most votes): one shared empty list, never changed. */
const NONE: ConsensusOutput[] = [];

/** The "first time" upon-rules of a round, as keys `round * 4 + rule` of `fired`. */
const PREVOTE_TIMER = 0;
const POLKA = 1;
const PRECOMMIT_TIMER = 2;

export class Tendermint {
  height: bigint;
  round = 0;
  step: Step = 'propose';
  private lockedRound = -1;
  private lockedHash: Hex | null = null;
  private validRound = -1;
  private validBlock: ServiceBlock | null = null;
  private readonly proposals = new Map<number, Proposal>();
  /** The same proposals in the order they came (the decide rule looks at them in this order). */
  private readonly proposalOrder: Proposal[] = [];
  private readonly votes = new Map<number, RoundVotes>();
  /** The highest round any vote was seen for (-1: none); rounds above ours may trigger a skip. */
  private maxVoteRound = -1;
  private decided = false;
  /** The "first time" upon-rules that already fired (`round * 4 + rule`). */
  private readonly fired = new Set<number>();
  /** The votes this node cast (`round * 2 + 0|1` for prevote|precommit): one of each type per round. */
  private readonly cast = new Set<number>();
  /** Whether start() ran (round 0 is entered once). */
  private started = false;
  private readonly validity = new Map<Hex, boolean>();

  constructor(
    readonly me: Address | null,
    height: bigint,
    /** The consensus validator set at this height, with round-0 proposer priorities. */
    readonly validators: ValidatorSet,
    private readonly host: ConsensusHost,
    private readonly timeouts: TimeoutConfig = DEFAULT_TIMEOUTS,
  ) {
    this.height = height;
  }

  /** The proposer of `round`: the set's proposer after `round` more increments (Tendermint). */
  proposerOf(round: number): Address {
    if (round === 0) return this.validators.proposer.address;
    const s = this.validators.copy();
    s.incrementProposerPriority(isPlanted('round-proposer') ? round + 1 : round);
    return s.proposer.address;
  }

  /** Begin the height at round 0. */
  start(): ConsensusOutput[] {
    return this.startRound(0);
  }

  private powerOf = (a: Address): bigint => this.validators.powerOf(a);

  private roundVotes(r: number): RoundVotes {
    let rv = this.votes.get(r);
    if (!rv) {
      const total = this.validators.totalVotingPower();
      rv = { prevotes: new VoteSet(this.validators, total), precommits: new VoteSet(this.validators, total) };
      this.votes.set(r, rv);
      if (r > this.maxVoteRound) this.maxVoteRound = r;
    }
    return rv;
  }

  private startRound(r: number): ConsensusOutput[] {
    // Rounds only rise: a round is entered once, and never one below the current.
    if (!(r > this.round || (r === 0 && !this.started)))
      assert(false, 'a round is entered once and rounds only rise', { height: this.height, round: this.round, to: r });
    this.started = true;
    this.round = r;
    this.step = 'propose';
    const out: ConsensusOutput[] = [];
    if (this.me !== null && this.proposerOf(r) === this.me) {
      out.push({ kind: 'propose', height: this.height, round: r, polRound: this.validRound, reuse: this.validBlock });
    }
    out.push({
      kind: 'timer',
      afterMs: this.timeouts.proposeMs + r * this.timeouts.proposeDeltaMs,
      timeout: { kind: 'timeout', height: this.height, round: r, step: 'propose' },
    });
    // Messages for this round may have arrived before we got here.
    out.push(...this.evaluate());
    return out;
  }

  /** Outputs of one input; the list returned for "nothing" is shared: read it, never change it. */
  handle(input: ConsensusInput): ConsensusOutput[] {
    if (this.decided) return NONE;
    switch (input.kind) {
      case 'proposal': {
        const p = input.proposal;
        if (p.height !== this.height || p.round < 0 || this.proposals.has(p.round)) return NONE;
        if (p.proposer !== this.proposerOf(p.round)) return NONE;
        this.proposals.set(p.round, p);
        this.proposalOrder.push(p);
        return this.evaluate();
      }
      case 'vote':
        return this.handleVote(input.vote);
      case 'timeout':
        return this.onTimeout(input);
    }
  }

  /** `handle({ kind: 'vote', vote })` (every node receives every vote: no input object for it). */
  handleVote(v: Vote): ConsensusOutput[] {
    if (this.decided || v.height !== this.height || v.round < 0) return NONE;
    const rv = this.roundVotes(v.round);
    const set = v.type === 'prevote' ? rv.prevotes : rv.precommits;
    const conflictsBefore = set.conflicts.length;
    const added = set.add(v);
    if (set.conflicts.length > conflictsBefore) {
      const out: ConsensusOutput[] = [{ kind: 'evidence', votes: set.conflicts[set.conflicts.length - 1]! }];
      if (added) out.push(...this.evaluate());
      return out;
    }
    return added ? this.evaluate() : NONE;
  }

  private onTimeout(t: TimeoutInput): ConsensusOutput[] {
    if (t.height !== this.height || t.round !== this.round) return NONE;
    if (t.step === 'propose' && this.step === 'propose') {
      this.step = 'prevote';
      return [this.vote('prevote', null), ...this.evaluate()];
    }
    if (t.step === 'prevote' && this.step === 'prevote') {
      this.step = 'precommit';
      return [this.vote('precommit', null), ...this.evaluate()];
    }
    if (t.step === 'precommit') return this.startRound(this.round + 1);
    return NONE;
  }

  private vote(type: 'prevote' | 'precommit', blockHash: Hex | null): ConsensusOutput {
    // A correct node casts one vote of each type per round (two would be its own equivocation),
    // and precommits a block only in the round it locked it.
    const key = this.round * 2 + (type === 'prevote' ? 0 : 1);
    if (this.cast.has(key))
      assert(false, 'one vote of each type per round', { height: this.height, round: this.round, type });
    this.cast.add(key);
    if (
      type === 'precommit' &&
      blockHash !== null &&
      (this.lockedHash !== blockHash || this.lockedRound !== this.round)
    )
      assert(false, 'a block is precommitted only in the round it was locked', {
        height: this.height,
        round: this.round,
        lockedRound: this.lockedRound,
      });
    return { kind: 'vote', type, height: this.height, round: this.round, blockHash };
  }

  private isValid(p: Proposal): boolean {
    let v = this.validity.get(p.blockHash);
    if (v === undefined) {
      v = p.block.height === this.height && this.host.validBlock(p.block, p.blockHash);
      this.validity.set(p.blockHash, v);
    }
    return v;
  }

  private once(round: number, rule: number): boolean {
    const key = round * 4 + rule;
    if (this.fired.has(key)) return false;
    this.fired.add(key);
    return true;
  }

  /** Apply every upon-rule that is now enabled, until none is. */
  private evaluate(): ConsensusOutput[] {
    let out: ConsensusOutput[] | null = null;
    for (let guard = 0; guard < 64; guard++) {
      const step = this.evaluateOnce();
      this.checkLocks();
      if (step === null) return out ?? NONE;
      if (step.length > 0) {
        if (out === null) out = [];
        for (const o of step) out.push(o);
      }
      if (this.decided) return out ?? NONE;
    }
    assert(false, 'consensus rules did not settle', { height: this.height, round: this.round });
  }

  /** One enabled rule's outputs ([] when it changed state without output), or null when none is enabled. */
  private evaluateOnce(): ConsensusOutput[] | null {
    const r = this.round;
    const rv = this.roundVotes(r);
    const proposal = this.proposals.get(r);

    // Decide: a proposal of any round with +2/3 precommits for it.
    for (let i = 0; i < this.proposalOrder.length; i++) {
      const p = this.proposalOrder[i]!;
      const pr = p.round;
      const prv = this.votes.get(pr);
      if (prv?.precommits.twoThirdsFor(p.blockHash) && this.isValid(p)) {
        // One decision per instance, of a block of its own height, from a round it has seen.
        if (p.block.height !== this.height || pr > this.maxVoteRound)
          assert(false, 'a decision is of this height, from a round with votes', { height: this.height, round: pr });
        this.decided = true;
        this.step = 'commit';
        return [
          {
            kind: 'decide',
            height: this.height,
            round: pr,
            block: p.block,
            blockHash: p.blockHash,
            commit: prv.precommits.votesFor(p.blockHash),
          },
        ];
      }
    }

    if (this.step === 'propose' && proposal) {
      if (proposal.polRound === -1) {
        const ok =
          this.isValid(proposal) &&
          (isPlanted('lock-rule') || this.lockedRound === -1 || this.lockedHash === proposal.blockHash);
        this.step = 'prevote';
        return [this.vote('prevote', ok ? proposal.blockHash : null)];
      }
      const vr = proposal.polRound;
      if (vr >= 0 && vr < r && this.votes.get(vr)?.prevotes.twoThirdsFor(proposal.blockHash)) {
        const ok = this.isValid(proposal) && (this.lockedRound <= vr || this.lockedHash === proposal.blockHash);
        this.step = 'prevote';
        return [this.vote('prevote', ok ? proposal.blockHash : null)];
      }
    }

    if (this.step === 'prevote' && rv.prevotes.twoThirdsAny() && this.once(r, PREVOTE_TIMER)) {
      return [
        {
          kind: 'timer',
          afterMs: this.timeouts.prevoteMs + r * this.timeouts.prevoteDeltaMs,
          timeout: { kind: 'timeout', height: this.height, round: r, step: 'prevote' },
        },
      ];
    }

    if (
      proposal &&
      (this.step === 'prevote' || this.step === 'precommit') &&
      rv.prevotes.twoThirdsFor(proposal.blockHash) &&
      this.isValid(proposal) &&
      this.once(r, POLKA)
    ) {
      const out: ConsensusOutput[] = [];
      if (this.step === 'prevote') {
        this.lockedHash = proposal.blockHash;
        this.lockedRound = r;
        this.step = 'precommit';
        out.push(this.vote('precommit', proposal.blockHash));
      }
      this.validBlock = proposal.block;
      this.validRound = r;
      return out;
    }

    if (this.step === 'prevote' && rv.prevotes.twoThirdsFor(null)) {
      this.step = 'precommit';
      return [this.vote('precommit', null)];
    }

    if (rv.precommits.twoThirdsAny() && this.once(r, PRECOMMIT_TIMER)) {
      return [
        {
          kind: 'timer',
          afterMs: this.timeouts.precommitMs + r * this.timeouts.precommitDeltaMs,
          timeout: { kind: 'timeout', height: this.height, round: r, step: 'precommit' },
        },
      ];
    }

    // Skip ahead: +1/3 of the power is already at a later round.
    if (this.maxVoteRound > r && !isPlanted('round-skip'))
      for (const [vr, votes] of this.votes) {
        if (vr <= r) continue;
        const seen = new Set<Address>(votes.prevotes.voters());
        for (const a of votes.precommits.voters()) seen.add(a);
        let power = 0n;
        for (const a of seen) power += this.powerOf(a);
        if (power * 3n > this.validators.totalVotingPower()) return this.startRound(vr);
      }
    return null;
  }

  /**
   * What every rule keeps: a lock is the latest polka this node acted on, so the locked round is
   * at most the valid round, which is at most the current round, and a lock names a block.
   */
  private checkLocks(): void {
    const { lockedRound, validRound, round } = this;
    if (lockedRound > validRound || validRound > round || lockedRound >= 0 !== (this.lockedHash !== null))
      assert(false, 'locked round <= valid round <= round, and a lock names a block', {
        height: this.height,
        round,
        lockedRound,
        validRound,
      });
  }

  get hasDecided(): boolean {
    return this.decided;
  }

  /** Everything this node holds for the height (for re-broadcast to lagging peers). */
  knownVotes(): Vote[] {
    const out: Vote[] = [];
    for (const rv of this.votes.values()) out.push(...rv.prevotes.all(), ...rv.precommits.all());
    return out;
  }

  /**
   * What a node relays for others while the height is undecided (Tendermint's vote gossip): every
   * vote it holds of the current round, and the prevotes of its valid and locked rounds (the
   * polkas it acted on). Tendermint's liveness needs what one correct node received to reach every
   * correct node: a Byzantine validator may send a vote to only part of the network, and a polka
   * only some nodes saw would otherwise lock them on a block the rest never learn of.
   */
  relayedVotes(): Vote[] {
    const out: Vote[] = [];
    const current = this.votes.get(this.round);
    if (current) out.push(...current.prevotes.everyVote(), ...current.precommits.everyVote());
    for (const r of new Set([this.validRound, this.lockedRound]))
      if (r >= 0 && r !== this.round) out.push(...(this.votes.get(r)?.prevotes.everyVote() ?? []));
    return out;
  }

  knownProposals(): Proposal[] {
    return [...this.proposals.values()];
  }
}
