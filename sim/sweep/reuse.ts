/**
 * Which finished runs a resumed sweep keeps: a run is kept only when it is the same run — the same
 * cell, seed and scenario file (by hash), made from the same source tree (the same commit, or a
 * commit git shows the simulation unchanged from, and the same uncommitted changes) — and every
 * other one runs again, counted by the reason, so the command can say why.
 */
import { type SweepJob, type SweepRunRecord } from '../campaign/sweepTask';
import { jobKey } from './jobs';
import { type SourceState, sourceText } from '../core/sourceState';

export interface ReuseDecision {
  kept: Map<string, SweepRunRecord>;
  /** Why finished runs run again: a reason and how many runs it covers, in first-seen order. */
  rerun: Array<{ reason: string; runs: number }>;
  /** Finished runs of cells or seeds no longer in the sweep (dropped, not run again). */
  dropped: number;
}

export function decideReuse(
  records: readonly SweepRunRecord[],
  jobs: readonly SweepJob[],
  now: SourceState,
  /** Whether two commits run the same simulation (git diff of what a run executes is empty). */
  sameSimulation: (a: string | null, b: string | null) => boolean,
): ReuseDecision {
  const wanted = new Map(jobs.map((j) => [jobKey(j), j]));
  const kept = new Map<string, SweepRunRecord>();
  const reasons = new Map<string, number>();
  const judged = new Map<string, string | null>();
  let dropped = 0;
  const why = (r: SweepRunRecord): string | null => {
    const src = r.source;
    if (!src) return 'they were made before runs recorded their source tree';
    const key = `${src.commit}|${src.dirty}`;
    if (judged.has(key)) return judged.get(key)!;
    let reason: string | null = null;
    if (src.commit === null || now.commit === null)
      reason = `they were made at ${sourceText(src)} and this tree is at ${sourceText(now)}: without two known commits nothing shows the simulation unchanged`;
    else if (src.commit !== now.commit && !sameSimulation(src.commit, now.commit))
      reason = `they were made at commit ${src.commit.slice(0, 12)} and the simulation's code changed since (this tree: commit ${now.commit.slice(0, 12)})`;
    else if (src.dirty !== now.dirty)
      reason = src.dirty
        ? now.dirty
          ? `they were made with uncommitted changes ${src.dirty.slice(0, 8)} and this tree has other ones (${now.dirty.slice(0, 8)})`
          : `they were made with uncommitted changes ${src.dirty.slice(0, 8)} and this tree has none`
        : `they were made from a clean tree and this tree has uncommitted changes ${now.dirty!.slice(0, 8)}`;
    judged.set(key, reason);
    return reason;
  };
  for (const r of records) {
    const j = wanted.get(jobKey(r));
    if (!j) {
      dropped++;
      continue;
    }
    const reason =
      j.scenarioSha256 !== r.scenarioSha256
        ? "their cell's scenario changed (the sweep file or its base scenario)"
        : why(r);
    if (reason === null) kept.set(jobKey(r), r);
    else reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  return { kept, rerun: [...reasons].map(([reason, runs]) => ({ reason, runs })), dropped };
}
