/**
 * Jobs over a piscina pool of worker threads: `workers` loops each take the next job, run it on
 * the pool and hand the result back, until `next` says there is none left (or the caller stopped
 * it). Results come back in finishing order; a caller that needs a stable order stores them by
 * key. Used by fuzz campaigns, sweeps and `lockstep test`.
 */
import { Piscina } from 'piscina';
import { fileURLToPath } from 'node:url';
import { taskModuleUrl } from '../workers/workerEntry';

export type PoolTask = 'fuzzTask' | 'scenarioTask' | 'sweepTask' | 'exploreTask';

export interface PoolRun<J, R> {
  /**
   * The task module beside this file, by name (`fuzzTask`, `scenarioTask`): from source its
   * loader `name.mjs`, compiled the bundled `name.js` (see sim/workers/workerEntry.ts).
   */
  task: PoolTask;
  workers: number;
  /** The next job, or null when there is none (or the caller wants to stop). */
  next: () => J | null;
  onResult: (job: J, result: R) => void;
}

function newPool(task: PoolTask, workers: number): Piscina {
  return new Piscina({
    filename: fileURLToPath(taskModuleUrl(import.meta.url, task)),
    minThreads: workers,
    maxThreads: workers,
    idleTimeout: 1_000,
  });
}

/**
 * A pool kept open across many rounds of jobs (the explorer's generations): its workers load the
 * code once. `run` takes one job; `close` ends the workers.
 */
export function openPool<J, R>(task: PoolTask, workers: number): { run(job: J): Promise<R>; close(): Promise<void> } {
  const pool = newPool(task, workers);
  return { run: async (job) => (await pool.run(job)) as R, close: () => pool.destroy() };
}

export async function runOnPool<J, R>(o: PoolRun<J, R>): Promise<void> {
  const pool = newPool(o.task, o.workers);
  const loop = async (): Promise<void> => {
    for (let job = o.next(); job !== null; job = o.next()) o.onResult(job, (await pool.run(job)) as R);
  };
  try {
    await Promise.all(Array.from({ length: o.workers }, () => loop()));
  } finally {
    await pool.destroy();
  }
}
