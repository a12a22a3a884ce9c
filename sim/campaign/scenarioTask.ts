/**
 * One job of `lockstep test`: load a scenario file, run it on its own seed (inline, in this worker
 * thread) and judge its expectations. A file that does not load is a result too (bad input), and
 * so is a run that throws (a crash): the suite reports them and goes on.
 */
import { performance } from 'node:perf_hooks';
import { InputError } from '../../src/core/errors';
import { loadScenario } from '../scenario/load';
import { type Verdict } from '../scenario/scenario';
import { runScenario } from '../run/run';
import { clearCaches } from '../../src/core/memo';
import { type PlantName } from '../../src/core/plants';
import { checkExpectations, type ExpectationCheck } from '../report/outcome';

export interface ScenarioJob {
  file: string;
  /** Run it with this planted bug instead of the file's (the oracle-adequacy bench). */
  plant?: PlantName;
}

export interface ScenarioTestResult {
  file: string;
  name: string | null;
  seed: number | null;
  expected: Verdict | null;
  verdict: Verdict | null;
  message: string;
  violation: { oracle: string; atMs: number; node: string; message: string } | null;
  checks: ExpectationCheck[];
  traceHash: string | null;
  simulatedMs: number;
  wallMs: number;
  /** The rules of the inventory the run exercised (sorted; empty when it did not run). */
  rules: string[];
  /** The file did not load (bad input) or the run threw (crash). */
  error: { kind: 'badInput' | 'crash'; message: string } | null;
}

export function runScenarioJob(job: ScenarioJob): ScenarioTestResult {
  clearCaches();
  const start = performance.now();
  const base: ScenarioTestResult = {
    file: job.file,
    name: null,
    seed: null,
    expected: null,
    verdict: null,
    message: '',
    violation: null,
    checks: [],
    traceHash: null,
    simulatedMs: 0,
    wallMs: 0,
    rules: [],
    error: null,
  };
  let scenario: ReturnType<typeof loadScenario>['scenario'];
  try {
    scenario = loadScenario(job.file).scenario;
  } catch (e) {
    const kind = e instanceof InputError ? 'badInput' : 'crash';
    return { ...base, error: { kind, message: (e as Error).message }, wallMs: performance.now() - start };
  }
  const seed = scenario.seed ?? 1;
  const named = { ...base, name: scenario.name, seed, expected: scenario.expect.verdict };
  if (job.plant !== undefined) scenario = { ...scenario, plant: job.plant };
  try {
    const r = runScenario(scenario, { seed });
    return {
      ...named,
      verdict: r.verdict,
      message: r.message,
      violation: r.violation
        ? { oracle: r.violation.oracle, atMs: r.violation.atMs, node: r.violation.node, message: r.violation.message }
        : null,
      checks: checkExpectations(scenario, r),
      traceHash: r.traceHash,
      rules: r.rulesExercised,
      simulatedMs: r.simulatedMs,
      wallMs: performance.now() - start,
    };
  } catch (e) {
    return {
      ...named,
      error: { kind: 'crash', message: (e as Error).stack ?? String(e) },
      wallMs: performance.now() - start,
    };
  }
}

export default function task(job: ScenarioJob): ScenarioTestResult {
  return runScenarioJob(job);
}
