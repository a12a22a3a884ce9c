/**
 * What a devnet's journal says about the run it replays: the inputs to enter at each barrier, the
 * virtual time each position line names (a replay that reaches another time is not the same run),
 * the snapshots in force, whether it was paused, the time offset of every evm_increaseTime, and
 * how far to replay. Read once per (re)start or revert; pure.
 */
import { type JournalEntry, type JournalInput, isInput } from './journal';
import { type SnapshotInfo } from './liveTypes';
import { type ServedMark } from './servedMark';

export interface ReplayPlan {
  inputs: Map<number, JournalInput[]>;
  expectedTimes: Map<number, number>;
  snapshots: SnapshotInfo[];
  /** The next free snapshot id (at least `nextSnapshotId` given). */
  nextSnapshotId: number;
  paused: boolean;
  timeOffsetS: number;
  /** The furthest barrier the journal names, at least the one asked for. */
  targetBarrier: number;
  /** The furthest virtual time it names, with the served mark's when that mark lies within. */
  targetMs: number;
}

export function planReplay(
  entries: readonly JournalEntry[],
  atLeastBarrier: number,
  mark: ServedMark,
  nextSnapshotId: number,
): ReplayPlan {
  const plan: ReplayPlan = {
    inputs: new Map(),
    expectedTimes: new Map(),
    snapshots: [],
    nextSnapshotId,
    paused: false,
    timeOffsetS: 0,
    targetBarrier: atLeastBarrier,
    targetMs: mark.b <= atLeastBarrier ? mark.t : 0,
  };
  entries.forEach((e, line) => {
    plan.targetBarrier = Math.max(plan.targetBarrier, e.b);
    if (isInput(e)) (plan.inputs.get(e.b) ?? plan.inputs.set(e.b, []).get(e.b)!).push(e);
    else {
      plan.expectedTimes.set(e.b, e.t);
      plan.targetMs = Math.max(plan.targetMs, e.t);
    }
    if (e.k === 'snapshot') {
      plan.snapshots = plan.snapshots.filter((s) => s.name !== e.name && s.id !== e.id);
      plan.snapshots.push({ id: e.id, name: e.name, barrier: e.b, timeMs: e.t, line });
      plan.nextSnapshotId = Math.max(plan.nextSnapshotId, Number(e.id) + 1);
    }
    if (e.k === 'pause') plan.paused = true;
    if (e.k === 'resume') plan.paused = false;
    if (e.k === 'advance' && e.by === 'evm_increaseTime') plan.timeOffsetS += e.s ?? 0;
  });
  return plan;
}
