/**
 * Running a sweep's jobs over the piscina pool of sim/campaign: each result is handed back as its
 * run ends (the caller journals it at once), and a stop request ends the submitting; the runs
 * under way finish. Which runs to run, and what to make of them, is the caller's.
 */
import { runOnPool } from '../campaign/pool';
import { type SweepJob, type SweepRunRecord } from '../campaign/sweepTask';

export interface SweepPoolOptions {
  jobs: readonly SweepJob[];
  workers: number;
  onResult: (r: SweepRunRecord) => void;
  shouldStop?: () => boolean;
}

/** Runs the jobs; `interrupted` when a stop request left some unrun. */
export async function runSweepJobs(o: SweepPoolOptions): Promise<{ interrupted: boolean }> {
  let next = 0;
  let interrupted = false;
  await runOnPool<SweepJob, SweepRunRecord>({
    task: 'sweepTask',
    workers: Math.max(1, Math.min(o.workers, o.jobs.length)),
    next: () => {
      if (next >= o.jobs.length) return null;
      if (o.shouldStop?.()) {
        interrupted = true;
        return null;
      }
      return o.jobs[next++]!;
    },
    onResult: (_job, r) => o.onResult(r),
  });
  return { interrupted };
}
