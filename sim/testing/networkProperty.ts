/**
 * Property tests over whole networks: run each drawn scenario (arbitraries.ts) and check that the
 * oracles guarding a rule never fire, that the run's metrics stay within bounds (`metrics`), or
 * any check in code (`check`); on a failure fast-check shrinks the scenario, and the smallest
 * failing one is written as a scenario file that `lockstep run`, `lockstep replay` and
 * `lockstep test` take as it is. The file records what failed, so running it fails the same way
 * (a non-zero exit): the oracle as its expected verdict, the metric bounds as `expect.metrics`. A
 * check in code cannot be written into a file: its counterexample reproduces the run but not the
 * judgement, and says so (state the check as metric bounds when you can).
 *
 * In CI a property runs few, short runs with a fixed seed (sim/testing/fastCheckSetup.ts);
 * LOCKSTEP_PROPERTY_RUNS and LOCKSTEP_PROPERTY_DURATION make the nightly runs many and long.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { InputError } from '../../src/core/errors';
import { parseDurationMs } from '../../src/core/duration';
import { computeMetrics } from '../metrics/metrics';
import { type Violation } from '../oracles/oracle';
import { prepareRun } from '../run/run';
import { type RunResult } from '../run/runResult';
import { type Scenario } from '../scenario/scenario';
import { encodeScenario } from '../scenario/encodeScenario';

/** Runs per property: `ci`, or LOCKSTEP_PROPERTY_RUNS (nightly). */
export function propertyRuns(ci: number): number {
  const v = process.env.LOCKSTEP_PROPERTY_RUNS;
  if (v === undefined || v === '') return ci;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new InputError('LOCKSTEP_PROPERTY_RUNS', `expected a positive integer, got ${JSON.stringify(v)}`);
  return n;
}

/** Simulated time per run: `ciMs`, or LOCKSTEP_PROPERTY_DURATION (nightly, e.g. 30m). */
export function propertyDurationMs(ciMs: number): number {
  const v = process.env.LOCKSTEP_PROPERTY_DURATION;
  if (v === undefined || v === '') return ciMs;
  return parseDurationMs(v, 'LOCKSTEP_PROPERTY_DURATION');
}

/**
 * Run a scenario on its own seed, stopping at the first violation of one of `stopOn` (the rest of
 * the run cannot undo it, and a shrinking property runs many scenarios).
 */
export function runToViolation(scenario: Scenario, stopOn: readonly string[] = []): RunResult {
  const run = prepareRun(scenario, { seed: scenario.seed ?? 1, stepMs: 5_000 });
  while (run.step() === 'more') if (run.violations().some((v) => stopOn.includes(v.oracle))) break;
  return run.finish();
}

/** Bounds on a run's metrics (sim/metrics/metrics.ts), by name. */
export interface MetricBounds {
  min?: Record<string, number>;
  max?: Record<string, number>;
}

/** The bounds a run breaks, in words (empty: none). */
export function brokenBounds(r: RunResult, b: MetricBounds | undefined): string[] {
  if (!b) return [];
  const names = [...new Set([...Object.keys(b.min ?? {}), ...Object.keys(b.max ?? {})])];
  if (!names.length) return [];
  const m = computeMetrics(r, names);
  const out: string[] = [];
  for (const [k, v] of Object.entries(b.min ?? {}))
    if (m[k] === null || m[k]! < v) out.push(`${k} ${m[k] ?? 'none'} below its minimum ${v}`);
  for (const [k, v] of Object.entries(b.max ?? {}))
    if (m[k] !== null && m[k]! > v) out.push(`${k} ${m[k]} above its maximum ${v}`);
  return out;
}

/**
 * A failing scenario as a scenario file: the exact scenario, its seed, and what failed as its
 * expectation — the violation as the expected verdict, the property's metric bounds as
 * `expect.metrics` — so a run of the file fails the way the property did.
 */
export function counterexampleFile(
  scenario: Scenario,
  o: { name: string; violation?: Violation | null; description?: string; metrics?: MetricBounds; failed?: string },
): Record<string, unknown> {
  const v = o.violation ?? null;
  const bounds =
    o.metrics && (Object.keys(o.metrics.min ?? {}).length || Object.keys(o.metrics.max ?? {}).length)
      ? { metrics: { min: o.metrics.min ?? {}, max: o.metrics.max ?? {} } }
      : {};
  return {
    ...encodeScenario({ ...scenario, name: o.name, streams: scenario.streams ?? scenario.name }),
    description:
      o.description ??
      `The smallest scenario fast-check found for the property ${o.name}${v ? `: ${v.oracle} fires (${v.message})` : o.failed ? `: ${o.failed}` : ''}.`,
    expect: v
      ? { verdict: v.class, oracle: v.oracle, min: {}, max: {}, ...bounds }
      : { verdict: 'pass', min: {}, max: {}, ...bounds },
    seed: scenario.seed ?? 1,
  };
}

export interface NetworkPropertyOptions {
  /** Names the property and its counterexample file. */
  name: string;
  arbitrary: fc.Arbitrary<Scenario>;
  /** The oracles that must never fire. */
  oracles: readonly string[];
  /** Bounds every run's metrics must keep; written into a counterexample as `expect.metrics`. */
  metrics?: MetricBounds;
  /**
   * Anything else that must hold of a run, in code: a message when it does not. A counterexample
   * of it cannot carry the check (the result says `replayable: false`): prefer `metrics`.
   */
  check?: (r: RunResult) => string | null;
  numRuns: number;
  /** Where the counterexample file goes (default reports/properties/). */
  outDir?: string;
  /** fast-check's seed (default: the global one, fixed in CI). */
  seed?: number;
}

export type NetworkPropertyResult =
  | { failed: false; numRuns: number }
  | {
      failed: true;
      /** The shrunk scenario and the file it was written to. */
      scenario: Scenario;
      file: string;
      message: string;
      violation: Violation | null;
      /** Running the file fails the same way (an oracle or a metric bound); false for a check in code only. */
      replayable: boolean;
      seed: number;
      numShrinks: number;
    };

/** Why a run breaks the property (null: it holds); `replayable`: the file's expectations catch it. */
function broken(
  r: RunResult,
  o: NetworkPropertyOptions,
): { message: string; violation: Violation | null; replayable: boolean } | null {
  const v = r.violations.find((x) => o.oracles.includes(x.oracle)) ?? null;
  if (v)
    return { message: `${v.oracle} at ${v.atMs / 1000} s on ${v.node}: ${v.message}`, violation: v, replayable: true };
  if (r.verdict === 'crash') return { message: `crash: ${r.message}`, violation: null, replayable: true };
  const bounds = brokenBounds(r, o.metrics);
  if (bounds.length) return { message: `metrics: ${bounds.join('; ')}`, violation: null, replayable: true };
  const m = o.check?.(r) ?? null;
  return m === null ? null : { message: m, violation: null, replayable: false };
}

export function checkNetworkProperty(o: NetworkPropertyOptions): NetworkPropertyResult {
  const details = fc.check(
    fc.property(o.arbitrary, (scenario) => {
      const why = broken(runToViolation(scenario, o.oracles), o);
      if (why) throw new Error(why.message);
    }),
    { numRuns: o.numRuns, ...(o.seed !== undefined ? { seed: o.seed } : {}) },
  );
  if (!details.failed) return { failed: false, numRuns: details.numRuns };
  const scenario = details.counterexample![0];
  // Run the shrunk scenario once more for the violation to record in its file.
  const why = broken(runToViolation(scenario, o.oracles), o);
  const dir = o.outDir ?? join('reports', 'properties');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${o.name}.json`);
  const message = why?.message ?? String(details.errorInstance);
  const replayable = why?.replayable ?? false;
  writeFileSync(
    file,
    `${JSON.stringify(
      counterexampleFile(scenario, {
        name: o.name,
        violation: why?.violation ?? null,
        ...(o.metrics ? { metrics: o.metrics } : {}),
        failed: replayable
          ? message
          : `the property's check in code failed (${message}); this file reproduces the run, but lockstep run cannot judge a check in code`,
      }),
      null,
      2,
    )}\n`,
  );
  return {
    failed: true,
    scenario,
    file,
    message,
    violation: why?.violation ?? null,
    replayable,
    seed: details.seed,
    numShrinks: details.numShrinks,
  };
}

/** `checkNetworkProperty` for a test: throws on a failure with the shrunk scenario's file and the repro commands. */
export function assertNetworkProperty(o: NetworkPropertyOptions): void {
  const r = checkNetworkProperty(o);
  if (!r.failed) return;
  throw new Error(
    `property ${o.name} failed after ${r.numShrinks} shrinks: ${r.message}\n` +
      `smallest failing scenario: ${r.file}\n` +
      `repro: npx lockstep run --scenario ${r.file}   (or: FC_SEED=${r.seed} npx vitest run <this file>)` +
      (r.replayable
        ? ''
        : "\nthe failure is the property's check in code, which the file cannot carry: running it shows the run, not the failure (state the check as `metrics` bounds to make the file fail on its own)"),
  );
}
