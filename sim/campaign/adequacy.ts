/**
 * Oracle adequacy: is each planted bug (src/core/plants.ts) caught, and by the oracle that guards
 * its rule? For one plant: the scenario suite (every file whose expected verdict is pass, cheapest
 * first) and a swarm campaign, each stopping at its first catch. Both run on the worker pool;
 * what counts as first is the lowest file index or seed that failed, so the answer does not
 * depend on the worker count or finishing order. The same campaign without a plant must pass
 * (the baseline).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type PlantName } from '../../src/core/plants';
import { SCENARIOS_DIR, isScenarioFileName, loadScenario } from '../scenario/load';
import { runOnPool } from './pool';
import { type ScenarioJob, type ScenarioTestResult } from './scenarioTask';
import { type FuzzJob, type FuzzSeedResult } from './fuzzTask';

export interface AdequacyOptions {
  workers: number;
  /** Swarm seeds 1..seeds (10 simulated minutes each by default). */
  seeds: number;
  durationMs: number;
  /** Called as each run ends (progress). */
  onRun?: (what: string) => void;
}

/** How a run caught the plant (or, for the baseline, how it failed). */
export interface Catch {
  /** `scenario` name, or `swarm` with the seed. */
  via: 'scenario' | 'swarm';
  scenario: string | null;
  seed: number | null;
  /** Swarm seeds up to and including the one that caught it (seeds run in order from 1). */
  seedsRun: number;
  verdict: string;
  oracle: string | null;
  message: string;
}

export interface AdequacyResult {
  plant: PlantName | null;
  /** The first catch of the scenario suite, and of the swarm campaign (null: nothing failed). */
  suite: Catch | null;
  swarm: Catch | null;
  scenariosRun: number;
  seedsRun: number;
}

/** The scenario files a plant is tried on: every file expected to pass, cheapest first. */
export function adequacyScenarioFiles(): string[] {
  const dirs = [SCENARIOS_DIR, join(SCENARIOS_DIR, 'regressions')];
  const files = dirs.flatMap((d) =>
    readdirSync(d)
      .filter(isScenarioFileName)
      .map((f) => join(d, f)),
  );
  return files
    .map((file) => ({ file, s: loadScenario(file).scenario }))
    .filter(({ s }) => s.expect.verdict === 'pass' && s.plant === undefined)
    .sort(
      (a, b) =>
        Number(a.s.crypto === 'real') - Number(b.s.crypto === 'real') ||
        a.s.durationMs - b.s.durationMs ||
        (a.file < b.file ? -1 : a.file > b.file ? 1 : 0),
    )
    .map(({ file }) => file);
}

/**
 * Run jobs 0..count-1 in order on the pool until one fails (`failed`); return the lowest failing
 * index with its result, and how many were run. Jobs already submitted finish (any lower failing
 * index among them wins).
 */
async function untilFirst<J, R>(
  task: 'fuzzTask' | 'scenarioTask',
  workers: number,
  count: number,
  job: (i: number) => J,
  failed: (r: R) => boolean,
  onRun?: (i: number, r: R) => void,
): Promise<{ first: { index: number; result: R } | null; run: number }> {
  let next = 0;
  let stop = false;
  let run = 0;
  let first: { index: number; result: R } | null = null;
  const indexOf = new Map<J, number>();
  await runOnPool<J, R>({
    task,
    workers,
    next: () => {
      if (stop || next >= count) return null;
      const j = job(next);
      indexOf.set(j, next++);
      return j;
    },
    onResult: (j, r) => {
      const i = indexOf.get(j)!;
      run++;
      onRun?.(i, r);
      if (!failed(r)) return;
      stop = true;
      if (!first || i < first.index) first = { index: i, result: r };
    },
  });
  return { first, run };
}

export async function measureAdequacy(plant: PlantName | null, o: AdequacyOptions): Promise<AdequacyResult> {
  const files = adequacyScenarioFiles();
  const label = plant ?? 'no plant';
  // The baseline must meet every expectation; a plant is caught when a run's verdict is not pass.
  const sc = await untilFirst<ScenarioJob, ScenarioTestResult>(
    'scenarioTask',
    o.workers,
    files.length,
    (i) => ({ file: files[i]!, ...(plant ? { plant } : {}) }),
    (r) =>
      r.error !== null ||
      (plant === null ? r.checks.some((c) => !c.ok) || r.verdict !== r.expected : r.verdict !== 'pass'),
    (_i, r) => o.onRun?.(`${label}: scenario ${r.name ?? r.file} ${r.verdict ?? r.error?.kind}`),
  );
  const first = sc.first as { index: number; result: ScenarioTestResult } | null;
  const suite: Catch | null = first
    ? {
        via: 'scenario',
        scenario: first.result.name,
        seed: null,
        seedsRun: 0,
        verdict: first.result.error ? first.result.error.kind : (first.result.verdict ?? 'crash'),
        oracle: first.result.violation?.oracle ?? null,
        message:
          first.result.error?.message ??
          first.result.violation?.message ??
          first.result.checks.find((c) => !c.ok)?.what ??
          first.result.message,
      }
    : null;
  const sw = await untilFirst<FuzzJob, FuzzSeedResult>(
    'fuzzTask',
    o.workers,
    o.seeds,
    (i) => ({ seed: i + 1, durationMs: o.durationMs, crypto: 'fast', efficacy: false, ...(plant ? { plant } : {}) }),
    (r) => r.verdict !== 'pass',
    (_i, r) => o.onRun?.(`${label}: swarm seed ${r.seed} ${r.verdict}`),
  );
  const r = (sw.first as { index: number; result: FuzzSeedResult } | null)?.result;
  return {
    plant,
    suite,
    swarm: r
      ? {
          via: 'swarm',
          scenario: null,
          seed: r.seed,
          seedsRun: r.seed,
          verdict: r.verdict,
          oracle: r.oracle,
          message: r.violation?.message ?? r.verdict,
        }
      : null,
    scenariosRun: sc.run,
    seedsRun: sw.run,
  };
}
