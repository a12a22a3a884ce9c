/**
 * One run of the guided explorer (sim/campaign/explore/): a scenario file and a seed, run with the
 * feature collector listening to its records. Returns what a fuzz seed returns (fuzzTask.ts), with
 * `seed` the run's id in the campaign, plus the run's own seed and its features; no wall time, so
 * a campaign's results are the same whatever the worker count.
 */
import { runScenario } from '../run/run';
import { type PlantName } from '../../src/core/plants';
import { decodeScenario } from '../scenario/decodeScenario';
import { clearCaches } from '../../src/core/memo';
import { type FuzzSeedResult } from './fuzzTask';
import { FeatureCollector } from './explore/features';

export interface ExploreTaskJob {
  /** The run's id in the campaign (reported as `seed`, as a fuzz seed is). */
  id: number;
  /** The scenario as its file holds it (encodeScenario). */
  scenario: Record<string, unknown>;
  seed: number;
  plant?: PlantName;
}

export interface ExploreRunResult extends FuzzSeedResult {
  /** The seed the run ran with. */
  runSeed: number;
  features: string[];
}

export function runExploreJob(job: ExploreTaskJob): ExploreRunResult {
  // Each job starts cold: no job leans on another's cached work.
  clearCaches();
  const base = decodeScenario(job.scenario);
  const scenario = job.plant ? { ...base, plant: job.plant } : base;
  const collector = new FeatureCollector();
  const r = runScenario(scenario, { seed: job.seed, onRecord: collector.onRecord });
  const fired = new Set(r.faultsFired.map((f) => f.index));
  return {
    seed: job.id,
    runSeed: job.seed,
    verdict: r.verdict,
    oracle: r.violation?.oracle ?? null,
    violation: r.violation ? { atMs: r.violation.atMs, node: r.violation.node, message: r.violation.message } : null,
    faults: scenario.faults.map((f, i) => ({ kind: f.kind, fired: fired.has(i), changed: null })),
    counts: { ...r.counts },
    reach: r.reach,
    traceHash: r.traceHash,
    rules: r.rulesExercised,
    features: collector.finish(r),
  };
}

export default function task(job: ExploreTaskJob): ExploreRunResult {
  return runExploreJob(job);
}
