/**
 * Before and after in one session: the long benchmarks (scale, cluster) can measure a second
 * checkout of Lockstep beside this one, figure by figure, so that both sides meet the same machine
 * load. `npm run bench -- scale cluster --baseline DIR` (or `LOCKSTEP_BENCH_BEFORE=DIR`) names it:
 * a checkout with its node_modules installed (a worktree of main, an older release), in this
 * layout (sim/run/run.ts) or the one before it (sim/run.ts, src/cli/). Every figure is then
 * measured there first, then here, each in a process of its own, and the bench prints both and
 * this checkout's speed over the baseline (its time divided by ours: above 1, we are faster).
 *
 * The child processes run this checkout's runner scripts (bench/scaleRun.ts, bench/clusterRun.ts)
 * with the measured checkout as their working directory: the runners import that checkout's
 * sources by path (through its own tsx), so both sides are timed by the same code and only the
 * simulator differs. The sources they import (sim/run/run.ts, sim/scenario/*, sim/campaign/fuzz.ts)
 * keep their signatures for that reason.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This checkout's root. */
export const HERE = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface Checkout {
  /** `before` (the baseline: --baseline or LOCKSTEP_BENCH_BEFORE) or `after` (this checkout). */
  label: 'before' | 'after';
  root: string;
}

/** Where a checkout keeps its runner, newest layout first (the runners import the first that exists). */
const RUN_FILES = ['sim/run/run.ts', 'sim/run.ts'];

/** The checkouts to measure, the baseline first; exits with a message naming a bad directory. */
export function checkoutsToMeasure(): Checkout[] {
  const other = process.env.LOCKSTEP_BENCH_BEFORE;
  if (!other) return [{ label: 'after', root: HERE }];
  const root = resolve(other);
  const missing = [
    ...(RUN_FILES.some((f) => existsSync(join(root, f))) ? [] : [RUN_FILES.join(' or ')]),
    ...(existsSync(join(root, 'node_modules', 'tsx')) ? [] : ['node_modules/tsx']),
  ];
  if (missing.length > 0) {
    process.stderr.write(
      `bench: baseline ${other}: not a Lockstep checkout with its node_modules (no ${missing.join(', no ')} there)\n`,
    );
    process.exit(1);
  }
  return [
    { label: 'before', root },
    { label: 'after', root: HERE },
  ];
}

/**
 * Run a runner script of this checkout (`bench/NAME.ts`) against `root` in a process of its own
 * and return the JSON object of its last output line, or an error string.
 */
export function runAgainst<T>(root: string, runner: string, args: string[]): T | { error: string } {
  const script = join(HERE, 'bench', runner);
  const child = spawnSync(process.execPath, ['--import', 'tsx', script, root, ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 24,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = child.stdout.trim().split('\n').pop() ?? '';
  if (child.status !== 0 || !line.startsWith('{')) return { error: `exit ${child.status ?? child.signal}` };
  return JSON.parse(line) as T;
}

/**
 * This checkout's speed over the baseline for one figure: the baseline's wall and CPU time over
 * ours (above 1: faster here). Both sides did the same work (the same simulated time, or the same
 * seeds), so for a campaign these are also the ratios of seeds per hour and per CPU-hour.
 */
export function speedOver(a: { wallMs: number; cpuMs: number }, b: { wallMs: number; cpuMs: number }): string {
  return `speed over the baseline: wall ${(b.wallMs / a.wallMs).toFixed(2)}x, cpu ${(b.cpuMs / a.cpuMs).toFixed(2)}x`;
}
