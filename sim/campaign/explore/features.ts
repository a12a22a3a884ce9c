/**
 * The explorer's feedback: a cheap abstraction of the states a run reached, as a set of short
 * strings (features). A run that shows a feature no earlier run showed reached new ground, and the
 * explorer keeps it in its corpus (corpus.ts). The features come from the run's own records (every
 * record the oracles see, through `onRecord`) and from its result, never from the code under test,
 * so the same features mean the same thing on any build and a mutant or a plant never steers them
 * except by what it makes the network do.
 *
 * The families (each feature starts with its family's name and a colon):
 * - `rule`: the rules of docs/RULES.md some oracle judged (sim/rules/coverage.ts);
 * - `tx`: the service's answers: per message type, DeliverTx's code and the side-tx result's;
 * - `bft`: consensus tuples: (step, nil or a block, round 0 / 1 / 2+, lock held or not), proposals
 *   with a POL round, round changes, evidence, the round a block committed in, set changes; a node
 *   that (re)joins a height in round 0 while others are in a later round of it, with no fault but
 *   crashes in force or under one (where the round-skip rule must act);
 * - `sc`: sidechain events: in-turn or backup seals (difficulty), reorg depth buckets, rejections by
 *   reason, the pool's refusals, equivocation, checkpointed forks and rewinds, the finality floor;
 * - `bridge`: what the bridges relayed and called, the parent chain's events and failed calls, the
 *   clients' queries and their answers;
 * - `load`: the workload and Byzantine crafts that ran, the fault kinds that started;
 * - `count`: the run's counts in log2 buckets (reorgs, backup blocks, no-acks, spans, …);
 * - `at`: a notable event (a round > 0, a reorg, a refusal, a rejection) paired with each fault
 *   kind active when it happened ("the fault kinds active at each").
 *
 * Messages are normalised (numbers and hex masked, cut to 60 characters), so a feature names a
 * kind of event, not one event.
 */
import { type RunRecord } from '../../core/record';
import { type RunResult } from '../../run/runResult';

export const FEATURE_FAMILIES = ['rule', 'tx', 'bft', 'sc', 'bridge', 'load', 'count', 'at'] as const;
export type FeatureFamily = (typeof FEATURE_FAMILIES)[number];

/** A count in a log2 bucket: 0, 1, 2, 3-4, 5-8, 9-16, … (AFL's hit-count buckets, unbounded). */
export function bucket(n: number): string {
  if (n <= 2) return String(Math.max(0, n));
  let hi = 4;
  while (n > hi) hi *= 2;
  return `${hi / 2 + 1}-${hi}`;
}

/** A message with its numbers and hex masked and its length bounded. */
export function normalise(text: string): string {
  return text
    .replace(/0x[0-9a-fA-F]+|\d+/g, (m) => (m.startsWith('0x') ? '0x…' : 'N'))
    .replace(/\s+/g, ' ')
    .slice(0, 60);
}

const roundClass = (r: number): string => (r <= 0 ? 'r0' : r === 1 ? 'r1' : 'r2+');

/**
 * Collects a run's features from its records as they are released (pass `onRecord` to the run),
 * then from its result (`finish`). One collector per run.
 */
export class FeatureCollector {
  private readonly out = new Set<string>();
  /** The fault kinds active now, with how many of each (faults of one kind may overlap). */
  private readonly active = new Map<string, number>();
  /** Per node, the height and the rounds it precommitted a block in (a lock, as Tendermint's). */
  private readonly locks = new Map<string, { height: bigint; round: number }>();
  /** Per service node, the height it is at and the highest round it entered there (last record). */
  private readonly at = new Map<string, { height: bigint; round: number }>();
  private readonly families: ReadonlySet<FeatureFamily>;

  constructor(families: readonly FeatureFamily[] = FEATURE_FAMILIES) {
    this.families = new Set(families);
  }

  /**
   * A node starts `height` in round 0 (a restart, a catch-up): where others already are in a later
   * round of it, it must skip to theirs on their votes; that this happened, and whether any fault
   * was in force, is ground a run can reach without any rule breaking.
   */
  private joins(node: string, height: bigint): void {
    let ahead = 0;
    for (const [other, p] of this.at) if (other !== node && p.height === height) ahead = Math.max(ahead, p.round);
    this.at.set(node, { height, round: 0 });
    // A restart is recorded before its crash's end, so crashes do not count as faults in force here.
    const inForce = this.active.size - (this.active.has('crash') ? 1 : 0);
    if (ahead > 0) this.add('bft', `joinsBehind:${roundClass(ahead)}:${inForce ? 'faulty' : 'calm'}`);
  }

  private add(family: FeatureFamily, text: string, notable = false): void {
    if (this.families.has(family)) this.out.add(`${family}:${text}`);
    if (notable && this.families.has('at') && this.active.size > 0)
      for (const kind of this.active.keys()) this.out.add(`at:${family}:${text}@${kind}`);
  }

  readonly onRecord = (r: RunRecord): void => {
    const o = r.obs;
    switch (o.kind) {
      case 'fault.start':
        this.active.set(o.fault, (this.active.get(o.fault) ?? 0) + 1);
        this.add('load', `fault:${o.fault}${o.atHeight ? ':height' : ''}`);
        return;
      case 'fault.end': {
        const n = (this.active.get(o.fault) ?? 1) - 1;
        if (n <= 0) this.active.delete(o.fault);
        else this.active.set(o.fault, n);
        return;
      }
      case 'workload.topup':
      case 'workload.stateSync':
      case 'workload.stakeUpdate':
      case 'workload.join':
      case 'workload.exit':
      case 'workload.signerChange':
      case 'workload.withdrawal':
        this.add('load', o.kind);
        return;
      case 'byzantine.tx':
        this.add('load', `byzantine:${o.craft}:${o.via}`);
        return;
      case 'consensus.vote': {
        const v = o.vote;
        const lock = this.locks.get(r.node);
        const locked = lock !== undefined && lock.height === v.height && lock.round < v.round;
        if (v.type === 'precommit' && v.blockHash !== null)
          this.locks.set(r.node, { height: v.height, round: v.round });
        this.add(
          'bft',
          `${v.type}:${v.blockHash === null ? 'nil' : 'block'}:${roundClass(v.round)}:${locked ? 'locked' : 'free'}${o.origin === 'wrapper' ? ':wrapper' : ''}`,
          v.round > 0 || locked,
        );
        return;
      }
      case 'consensus.proposal':
        this.add('bft', `proposal:${roundClass(o.round)}:${o.polRound >= 0 ? 'pol' : 'nopol'}`, o.round > 0);
        return;
      case 'consensus.round': {
        this.add('bft', `round:${roundClass(o.round)}`, true);
        const p = this.at.get(r.node);
        if (p && p.height === o.height) p.round = Math.max(p.round, o.round);
        else this.at.set(r.node, { height: o.height, round: o.round });
        return;
      }
      case 'consensus.evidence':
        this.add('bft', `evidence:${o.voteType}`, true);
        return;
      case 'consensus.setChange':
        for (const c of o.changes) this.add('bft', `setChange:${c.power === 0n ? 'remove' : 'power'}`);
        this.add('bft', `setChange:${bucket(o.changes.length)}`);
        return;
      case 'service.started':
        this.add('bft', `started:${o.height === 0n ? 'genesis' : 'later'}`, o.height > 0n);
        this.joins(r.node, o.height + 1n);
        return;
      case 'service.synced':
        this.add('bft', 'synced', true);
        this.joins(r.node, o.height + 1n);
        return;
      case 'service.commit':
        this.at.set(r.node, { height: o.height + 1n, round: 0 });
        this.add('bft', `commitRound:${roundClass(o.commit.round)}`, o.commit.round > 0);
        this.add('tx', `block:${bucket(o.txs.length)}`);
        for (const t of o.txs) {
          const type = t.msg === null ? 'undecodable' : t.msg.type === 'other' ? 'other' : t.msg.type;
          this.add('tx', `${type}:${t.codespace}/${t.code}`, t.code !== 0);
        }
        for (const s of o.sideTxs) this.add('tx', `side:${s.msgType}:${s.tally}:${s.code}`, s.code !== 0);
        return;
      case 'service.query':
        this.add('bridge', `query:${normalise(o.path.split('?')[0]!)}:${o.answer.ok ? 'ok' : o.answer.kind}`);
        return;
      case 'side.vote':
        this.add('tx', `spanVote:${o.vote}`, o.vote !== 'yes');
        return;
      case 'side.voteRead':
        this.add(
          'tx',
          `voteRead:${o.msgType}:${o.vote}:${o.parent ? (o.parent.eventBlock === null ? 'unheld' : 'held') : '-'}`,
          o.vote !== 'yes',
        );
        return;
      case 'bridge.tx':
        this.add('bridge', `tx:${o.msgType}`);
        return;
      case 'bridge.parentCall':
        this.add('bridge', `call:${o.method}`);
        return;
      case 'parent.block':
        for (const e of o.events) this.add('bridge', `event:${e.event}`);
        return;
      case 'parent.callFailed':
        this.add('bridge', `callFailed:${normalise(o.error)}`, true);
        return;
      case 'sidechain.produced':
        this.add('sc', `produced:d${o.difficulty}`);
        return;
      case 'sidechain.imported':
        this.add('sc', `imported:txs${bucket(o.block.transfers?.txs.length ?? 0)}`);
        if (o.block.stateSyncs.length) this.add('sc', `imported:stateSyncs${bucket(o.block.stateSyncs.length)}`);
        if (o.block.spanCommit) this.add('sc', 'imported:spanCommit');
        if (o.block.transfers?.balances.length) this.add('sc', 'imported:balanceOverride');
        return;
      case 'sidechain.rejected':
        this.add('sc', `rejected:${normalise(o.reason)}`, true);
        return;
      case 'sidechain.tx':
        this.add(
          'sc',
          `pool:${o.origin}:${o.ok ? 'ok' : normalise(o.error ?? 'refused')}`,
          !o.ok || o.origin === 'reorg',
        );
        return;
      case 'sidechain.equivocated':
        this.add('sc', 'equivocated', true);
        return;
      case 'sidechain.reorg':
        this.add('sc', `reorg:${bucket(o.depth)}`, true);
        return;
      case 'sidechain.finalized':
        this.add('sc', 'finalized');
        return;
      case 'sidechain.checkpointFork':
        this.add('sc', 'checkpointFork', true);
        return;
      case 'sidechain.checkpointMismatch':
        this.add('sc', `checkpointMismatch:${o.rewoundTo === null ? 'kept' : 'rewound'}`, true);
        return;
      case 'sidechain.setHead':
        this.add('sc', `setHead:${o.error === null ? 'ok' : normalise(o.error)}`, true);
        return;
      case 'sidechain.query':
        this.add('sc', `rpc:${o.method}:${o.answer.ok ? 'ok' : o.answer.code}`);
        return;
      default:
        return;
    }
  };

  /** Add what the result says (rules, counts, the verdict's oracle) and return the sorted set. */
  finish(r: RunResult): string[] {
    for (const id of r.rulesExercised) this.add('rule', id);
    const c = r.counts;
    this.add('count', `reorgs:${bucket(c.reorgs)}`);
    this.add('count', `reorgDepth:${bucket(r.maxReorgDepth)}`);
    this.add('count', `backupBlocks:${bucket(r.backupBlocks)}`);
    this.add('count', `noAcks:${bucket(c.noAcks)}`);
    this.add('count', `acked:${bucket(c.checkpointsAcked)}`);
    this.add('count', `spans:${bucket(c.spans)}`);
    this.add('count', `scTransfers:${bucket(c.sidechainTransfers)}`);
    this.add('count', `dropped:${bucket(r.network.dropped)}`);
    return [...this.out].sort();
  }
}
