/**
 * Property tests over whole networks: run each drawn scenario (arbitraries.ts) and check that the
 * oracles guarding a rule never fire (or any check on the run); on a failure fast-check shrinks
 * the scenario, and the smallest failing one is written as a scenario file that `lockstep run`,
 * `lockstep replay` and `lockstep test` take as it is.
 *
 * In CI a property runs few, short runs with a fixed seed (sim/testing/fastCheckSetup.ts);
 * LOCKSTEP_PROPERTY_RUNS and LOCKSTEP_PROPERTY_DURATION make the nightly runs many and long.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { InputError } from '../../src/core/errors';
import { parseDurationMs } from '../../src/core/duration';
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

/** A failing scenario as a scenario file: the exact scenario, its seed, and the violation it shows as its expectation. */
export function counterexampleFile(
  scenario: Scenario,
  o: { name: string; violation?: Violation | null; description?: string },
): Record<string, unknown> {
  const v = o.violation ?? null;
  return {
    ...encodeScenario({ ...scenario, name: o.name, streams: scenario.streams ?? scenario.name }),
    description:
      o.description ??
      `The smallest scenario fast-check found for the property ${o.name}${v ? `: ${v.oracle} fires (${v.message})` : ''}.`,
    expect: v ? { verdict: v.class, oracle: v.oracle, min: {}, max: {} } : { verdict: 'pass', min: {}, max: {} },
    seed: scenario.seed ?? 1,
  };
}

export interface NetworkPropertyOptions {
  /** Names the property and its counterexample file. */
  name: string;
  arbitrary: fc.Arbitrary<Scenario>;
  /** The oracles that must never fire. */
  oracles: readonly string[];
  /** Anything else that must hold of a run: a message when it does not. */
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
      seed: number;
      numShrinks: number;
    };

/** Why a run breaks the property (null: it holds). */
function broken(r: RunResult, o: NetworkPropertyOptions): { message: string; violation: Violation | null } | null {
  const v = r.violations.find((x) => o.oracles.includes(x.oracle)) ?? null;
  if (v) return { message: `${v.oracle} at ${v.atMs / 1000} s on ${v.node}: ${v.message}`, violation: v };
  if (r.verdict === 'crash') return { message: `crash: ${r.message}`, violation: null };
  const m = o.check?.(r) ?? null;
  return m === null ? null : { message: m, violation: null };
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
  writeFileSync(
    file,
    `${JSON.stringify(counterexampleFile(scenario, { name: o.name, violation: why?.violation ?? null }), null, 2)}\n`,
  );
  return {
    failed: true,
    scenario,
    file,
    message: why?.message ?? String(details.errorInstance),
    violation: why?.violation ?? null,
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
      `repro: npx lockstep run --scenario ${r.file}   (or: FC_SEED=${r.seed} npx vitest run <this file>)`,
  );
}
