/**
 * One bug against one campaign, within a CPU budget: runs are taken from the campaign one at a
 * time and run with the bug switched on, until one fails or the budget is spent. The CPU-seconds to
 * the first catch are those of every run up to and including the failing one (the worker thread's
 * CPU time of each run, so the figure does not depend on the machine's load); a failure whose
 * cumulated CPU time goes past the budget is not a catch, and a bug not caught counts the budget.
 *
 * A failing run is run again with the bug off: if the unmodified code fails it too, the campaign
 * found something else (an oracle's false alarm, or a real bug of its own); it is recorded apart
 * (`alsoFailsUnmodified`) and the campaign goes on. The runner is injected, so the accounting is
 * tested with a fake one (hunt.test.ts).
 */
import { type HuntJob, type RunSource } from './strategies';

export type CatchKind = 'safety' | 'liveness' | 'crash' | 'expectations' | 'hang';

export interface RunReport {
  outcome: 'pass' | CatchKind;
  oracle: string | null;
  message: string;
  /** CPU time of the run, ms. */
  cpuMs: number;
  /** How often the bug's code ran (a mutant's switch; null for a plant). */
  hits: number | null;
  features: readonly string[];
}

export interface Runner {
  /** Run with the bug on; `budgetMs` is what is left of the budget (a run far past it may be cut). */
  run(job: HuntJob, budgetMs: number): Promise<RunReport>;
  /** Run with the bug off (the unmodified code). */
  unmodified(job: HuntJob): Promise<RunReport>;
}

export interface HuntResult {
  caught: boolean;
  /** CPU seconds to the first catch; the budget when not caught. */
  cpuS: number;
  /** CPU seconds actually spent (a run that went past the budget counts whole). */
  spentS: number;
  runs: number;
  kind: CatchKind | null;
  oracle: string | null;
  message: string;
  /** The catching run. */
  job: HuntJob | null;
  /** Whether any run executed the bug's code (mutants; null: not known). */
  reached: boolean | null;
  /** Failing runs the unmodified code fails too (not catches). */
  alsoFailsUnmodified: Array<{ label: string; outcome: string; oracle: string | null; message: string }>;
}

export async function huntBug(source: RunSource, runner: Runner, budgetMs: number): Promise<HuntResult> {
  let spentMs = 0;
  let runs = 0;
  let reached: boolean | null = null;
  const alsoFails: HuntResult['alsoFailsUnmodified'] = [];
  while (spentMs < budgetMs) {
    const job = source.next();
    const r = await runner.run(job, budgetMs - spentMs);
    runs++;
    spentMs += r.cpuMs;
    if (r.hits !== null) reached = (reached ?? false) || r.hits > 0;
    if (r.outcome !== 'pass' && spentMs <= budgetMs) {
      const u = await runner.unmodified(job);
      if (u.outcome === 'pass')
        return {
          caught: true,
          cpuS: spentMs / 1000,
          spentS: spentMs / 1000,
          runs,
          kind: r.outcome,
          oracle: r.oracle,
          message: r.message,
          job,
          reached: r.hits === null ? reached : true,
          alsoFailsUnmodified: alsoFails,
        };
      alsoFails.push({ label: job.label, outcome: u.outcome, oracle: u.oracle, message: u.message.slice(0, 300) });
    }
    source.taken({ failed: r.outcome !== 'pass', features: r.features });
  }
  return {
    caught: false,
    cpuS: budgetMs / 1000,
    spentS: spentMs / 1000,
    runs,
    kind: null,
    oracle: null,
    message: '',
    job: null,
    reached,
    alsoFailsUnmodified: alsoFails,
  };
}
