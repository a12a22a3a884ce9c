/**
 * Progress of the service's consensus (Tendermint, "The latest gossip on BFT consensus"), timing
 * rules no safety oracle sees, with bounds derived from the configured timings and the network's
 * worst latency L (never tuned to a run's figures):
 *
 *  - calm heights: when no fault has been in force for a margin before a height starts and until
 *    it commits, on a lossless network, with the round-0 proposer and more than 2/3 of the power
 *    on running nodes, and the round-0 proposer not still catching up (a node back from an outage
 *    that was still fetching the heights it missed when the others began the height is not in
 *    consensus yet, and the others time its round 0 out, as CometBFT's do while a node is in
 *    block sync), every node commits the height in round 0, and within
 *    `commitTimeout + 4L` of its previous commit: the pause after a commit, then the proposer's
 *    start (up to L after ours), its proposal (L), the prevotes (L) and the precommits (L), each
 *    far inside its step's timeout, so no timeout fires;
 *  - round skip (the paper's line 55, which src/consensus follows: upon f + 1 messages of a later
 *    round, start that round; CometBFT's addVote asks for +2/3 of one vote type, which implies it):
 *    once validators holding more than 1/3 of the power have voted in round R of height h, every
 *    node still deciding h at a round below R has reached R within `gossip + L` of that moment, or
 *    of the last heal when faults kept the votes from it (each validator re-sends its votes of the
 *    height every gossip period), or of the node's own start of h when it came to h later (a node
 *    back from an outage fetches the heights it missed first, and sees no vote of h before it is
 *    at h) — unless some node committed h meanwhile (the others then catch up
 *    by fetching the block, not by skipping).
 *
 * Powers and the round-0 proposer come from the oracles' own consensus-set model
 * (model/consensusSets.ts); faults in force from the simulator's records.
 */
import { Oracle, type RunRecord } from './oracle';
import { ConsensusSets } from './model/consensusSets';
import { type PrioritySet } from './model/proposerPriority';
import { FaultWindows } from './model/faultWindows';
import { type OracleTimings } from './timings';

export interface BftProgressBounds {
  /** A calm height commits within this long after the node's previous commit, ms. */
  heightMs: number;
  /** A node reaches a round f + 1 of the power is in within this long, ms. */
  skipMs: number;
  /** A height is calm only if no fault was in force this long before it started, ms. */
  marginMs: number;
  /** The network may lose messages: calm heights are not judged. */
  lossy: boolean;
  /**
   * On a calm network every node begins a height within this long of every other (the last
   * precommit reaches each at most one worst latency after it was sent), ms: a round-0 proposer
   * that began it later was catching up, and its round 0 may time out.
   */
  startSkewMs: number;
}

/**
 * The bounds from the configured timings and the network's worst one-way latency. `lateTimers`:
 * BUGGIFY may fire a node's timer late (sim/scenario/buggify.ts), so a step may time out on a
 * network with no fault in force: calm heights are not judged, as on a lossy network.
 */
export function bftProgressBounds(
  t: OracleTimings,
  latencyMs: number,
  loss: number,
  lateTimers = false,
): BftProgressBounds {
  const heightMs = t.commitTimeoutMs + 4 * latencyMs;
  const skipMs = t.gossipMs + latencyMs;
  // After a heal: a lagging node fetches the blocks it missed and skips to the others' round, then
  // a height may still have started in the old state; two full rounds of timeouts cover both.
  const roundMs = t.proposeMs + t.prevoteMs + t.precommitMs + 4 * latencyMs;
  return {
    heightMs,
    skipMs,
    marginMs: skipMs + 2 * (t.commitTimeoutMs + roundMs),
    lossy: loss > 0 || lateTimers,
    startSkewMs: latencyMs,
  };
}

interface Position {
  height: bigint;
  round: number;
  /** When the node began deciding this height (its previous commit, or a restart). */
  sinceMs: number;
  /** Began after a restart or a sync: the height's time is not judged. */
  fresh: boolean;
  /**
   * The node's consensus took in a proposal of this height: it decided the height itself. A
   * height it only fetched (a batch of a block sync, after the first block of which the node is
   * no longer fresh) was decided by the others, perhaps while faults were in force: not judged.
   */
  live: boolean;
}

interface SkipDue {
  height: bigint;
  round: number;
  atMs: number;
}

export class BftProgressOracle extends Oracle {
  readonly name = 'bft-progress';
  readonly class = 'liveness' as const;
  readonly reads = [
    'fault.start',
    'fault.end',
    'consensus.setChange',
    'service.started',
    'service.synced',
    'consensus.proposal',
    'consensus.round',
    'consensus.vote',
    'service.commit',
  ] as const;
  private readonly sets = new ConsensusSets();
  private readonly faults = new FaultWindows();
  private readonly pos = new Map<string, Position>();
  /** Each node's position before its current one (the height it committed last, and when it began it). */
  private readonly prevPos = new Map<string, Position>();
  /** The node of each running validator address (lower case). */
  private readonly nodeOf = new Map<string, string>();
  /**
   * The lower-case address of every node with a position (nodes are never removed from `pos`),
   * kept as nodes appear: judging a height asks for it once per node and height, and building it
   * anew each time cost O(n²) per height at a hundred validators.
   */
  private readonly running = new Set<string>();
  /** The last live-power answer, for a set object and a size of `running` (which only grows). */
  private lastLive: { set: PrioritySet; running: number; power: bigint } | null = null;
  /** (height/round) → the validators that voted in it. */
  private readonly voters = new Map<string, Set<string>>();
  private readonly skipped = new Set<string>();
  private due: SkipDue[] = [];
  /** Height → when some node first committed it. */
  private readonly committedAt = new Map<bigint, number>();

  constructor(
    private readonly bounds: BftProgressBounds,
    /** The address each running service node signs with (by node id); fixed per node. */
    private readonly addressOf: (node: string) => string | undefined,
  ) {
    super();
  }

  override observe(r: RunRecord): void {
    const o = r.obs;
    // Deadlines come due at the records this oracle reads (the suite hands it no others): between
    // two of them nothing it judges by changes, and a judgment names its deadline, not the time of
    // the record that found it due.
    if (!this.readsKind(o.kind)) return;
    this.checkDue(r.t);
    this.faults.observe(r);
    this.sets.observe(r);
    switch (o.kind) {
      case 'service.started':
        this.place(r.node, { height: o.height + 1n, round: 0, sinceMs: r.t, fresh: true, live: false });
        return;
      case 'service.synced':
        this.place(r.node, { height: o.height + 1n, round: 0, sinceMs: r.t, fresh: true, live: false });
        return;
      case 'consensus.proposal': {
        const p = this.pos.get(r.node);
        if (p && p.height === o.height) p.live = true;
        return;
      }
      case 'consensus.round': {
        const p = this.pos.get(r.node);
        if (p && p.height === o.height && o.round > p.round) p.round = o.round;
        return;
      }
      case 'consensus.vote':
        if (o.origin === 'consensus') this.vote(r, o.vote.height, o.vote.round, o.vote.validator);
        return;
      case 'service.commit': {
        if (!this.committedAt.has(o.height)) this.committedAt.set(o.height, r.t);
        const p = this.pos.get(r.node);
        if (p && p.height === o.height && !p.fresh && p.live) this.judgeHeight(r, p, o.commit.round);
        this.place(r.node, { height: o.height + 1n, round: 0, sinceMs: r.t, fresh: false, live: false });
        return;
      }
      default:
        return;
    }
  }

  private judgeHeight(r: RunRecord, p: Position, round: number): void {
    if (this.bounds.lossy || !this.faults.calm(p.sinceMs, r.t, this.bounds.marginMs)) return;
    const set = this.sets.at(p.height);
    const proposer = this.sets.proposerOf(p.height, 0);
    if (!set || proposer === undefined) return;
    if (!this.running.has(proposer)) return;
    if (this.livePowerOf(set) * 3n <= set.total * 2n) return;
    if (this.proposerCatchingUp(proposer, p)) return;
    this.saw('consensus.progress.calm-round-zero');
    this.saw('consensus.progress.calm-height-time');
    const tookMs = r.t - p.sinceMs;
    if (round !== 0)
      this.fail(r.t, r.node, `height ${p.height} committed in round ${round} on a calm network (round 0 expected)`, {
        height: p.height,
        round,
        sinceMs: p.sinceMs,
      });
    else if (tookMs > this.bounds.heightMs)
      this.fail(
        r.t,
        r.node,
        `height ${p.height} took ${tookMs} ms after the previous commit on a calm network (bound ${this.bounds.heightMs} ms)`,
        { height: p.height, tookMs, boundMs: this.bounds.heightMs },
      );
  }

  /**
   * Whether the round-0 proposer's node was still catching up when this node began `p.height`: it
   * came back from a restart or a block sync (its position is fresh) and began the height more than
   * `startSkewMs` after this node did, or has not begun it yet. Such a node is not in consensus
   * yet (CometBFT's block sync), the others time its round 0 out, and the height is not a calm
   * one. A proposer that began the height late without a sync is not excused: that is slow
   * consensus, which this oracle is for.
   */
  private proposerCatchingUp(proposer: string, p: Position): boolean {
    const node = this.nodeOf.get(proposer);
    const now = node === undefined ? undefined : this.pos.get(node);
    if (node === undefined || now === undefined) return false;
    if (now.height < p.height) return now.fresh;
    const at = now.height === p.height ? now : this.prevPos.get(node);
    if (at === undefined || at.height !== p.height) return false;
    return at.fresh && at.sinceMs > p.sinceMs + this.bounds.startSkewMs;
  }

  /** The power of `set` on running nodes; every node of a height asks, so the last answer is kept. */
  private livePowerOf(set: PrioritySet): bigint {
    const last = this.lastLive;
    if (last !== null && last.set === set && last.running === this.running.size) return last.power;
    let power = 0n;
    for (const v of set.validators) if (this.running.has(v.address)) power += v.power;
    this.lastLive = { set, running: this.running.size, power };
    return power;
  }

  private place(node: string, p: Position): void {
    const before = this.pos.get(node);
    if (before === undefined) {
      const a = this.addressOf(node);
      if (a !== undefined) {
        this.running.add(a.toLowerCase());
        this.nodeOf.set(a.toLowerCase(), node);
      }
    } else this.prevPos.set(node, before);
    this.pos.set(node, p);
  }

  private vote(r: RunRecord, height: bigint, round: number, validator: string): void {
    if (round === 0) return;
    const key = `${height}/${round}`;
    if (this.skipped.has(key)) return;
    let s = this.voters.get(key);
    if (!s) {
      s = new Set();
      this.voters.set(key, s);
    }
    s.add(validator.toLowerCase());
    const set = this.sets.at(height);
    if (!set) return;
    let power = 0n;
    for (const a of s) power += set.powerOf(a);
    if (power * 3n <= set.total) return;
    this.skipped.add(key);
    this.voters.delete(key);
    this.due.push({ height, round, atMs: r.t });
  }

  /** Judge the round skips whose time is up (records come in time order). */
  private checkDue(nowMs: number): void {
    if (this.due.length === 0) return;
    const keep: SkipDue[] = [];
    for (const d of this.due) {
      const committed = this.committedAt.get(d.height);
      if (committed !== undefined && committed <= nowMs) continue;
      if (this.faults.inForce) {
        keep.push(d);
        continue;
      }
      const base = Math.max(d.atMs, this.faults.lastHealMs);
      const deadline = base + this.bounds.skipMs;
      if (deadline > nowMs) {
        keep.push(d);
        continue;
      }
      if (!this.judgeSkip(d, deadline, nowMs)) keep.push(d);
    }
    this.due = keep;
  }

  /** Judge a round skip that came due at `deadlineMs`; false: a node came to the height later and is not due yet. */
  private judgeSkip(d: SkipDue, deadlineMs: number, nowMs: number): boolean {
    this.saw('consensus.progress.round-skip');
    for (const [node, p] of this.pos) {
      if (p.height !== d.height || p.round >= d.round) continue;
      const mine = Math.max(deadlineMs, p.sinceMs + this.bounds.skipMs);
      if (mine > nowMs) return false;
      const after =
        mine > deadlineMs
          ? `it came to the height, where validators with more than 1/3 of the power had voted in round ${d.round}`
          : `validators with more than 1/3 of the power voted in round ${d.round}`;
      this.fail(
        mine,
        node,
        `still in round ${p.round} of height ${d.height} ${this.bounds.skipMs} ms after ${after} (round skip)`,
        {
          height: d.height,
          round: p.round,
          behind: d.round,
          sinceMs: d.atMs,
          atHeightSinceMs: p.sinceMs,
          boundMs: this.bounds.skipMs,
        },
      );
      return true;
    }
    return true;
  }

  /** At the end of the run: the round skips whose time is up. */
  finish(endMs: number): void {
    this.checkDue(endMs);
  }
}
