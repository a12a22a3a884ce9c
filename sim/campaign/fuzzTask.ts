/**
 * One fuzz job: run the swarm scenario of a seed and return a compact, deterministic record of
 * what happened (no wall time), so a campaign's summary is the same whatever the worker count.
 */
import { runScenario } from '../run/run';
import { type SwarmProfile, swarmScenario } from './swarm';
import { type PlantName } from '../../src/core/plants';
import { type Scenario } from '../scenario/scenario';
import { clearCaches } from '../../src/core/memo';
import { type MessageReach } from '../run/messageReach';

export interface FuzzJob {
  seed: number;
  durationMs: number;
  crypto: 'fast' | 'real';
  /** The swarm profile (default `swarm`). */
  profile?: SwarmProfile;
  /** A planted bug to switch on (test builds only). */
  plant?: PlantName;
  /** Also measure fault efficacy: re-run without each fired fault and compare outcomes. */
  efficacy: boolean;
}

export interface FuzzSeedResult {
  seed: number;
  verdict: string;
  oracle: string | null;
  violation: { atMs: number; node: string; message: string } | null;
  faults: Array<{ kind: string; fired: boolean; changed: boolean | null }>;
  counts: Record<string, number>;
  /** The service's messages and the Byzantine kinds the run reached (sim/run/messageReach.ts). */
  reach: MessageReach;
  traceHash: string;
  /** The rules of the inventory the run exercised (sorted). */
  rules: string[];
}

export function outcomeOf(r: ReturnType<typeof runScenario>): string {
  return JSON.stringify({ verdict: r.verdict, oracle: r.violation?.oracle ?? null, counts: r.counts });
}

export function runJob(job: FuzzJob): FuzzSeedResult {
  // Each job starts cold: no job leans on another's cached work, and a long campaign's memory stays flat.
  clearCaches();
  const scenario: Scenario = {
    ...swarmScenario(job.seed, job.durationMs, job.profile),
    crypto: job.crypto,
    ...(job.plant ? { plant: job.plant } : {}),
  };
  const r = runScenario(scenario, { seed: job.seed });
  const fired = new Set(r.faultsFired.map((f) => f.index));
  const outcome = outcomeOf(r);
  const faults = scenario.faults.map((f, i) => {
    const didFire = fired.has(i);
    let changed: boolean | null = null;
    if (job.efficacy && didFire) {
      const without = runScenario(
        { ...scenario, faults: scenario.faults.filter((_, j) => j !== i) },
        { seed: job.seed },
      );
      changed = outcomeOf(without) !== outcome;
    }
    return { kind: f.kind, fired: didFire, changed };
  });
  return {
    seed: job.seed,
    verdict: r.verdict,
    oracle: r.violation?.oracle ?? null,
    violation: r.violation ? { atMs: r.violation.atMs, node: r.violation.node, message: r.violation.message } : null,
    faults,
    counts: { ...r.counts },
    reach: r.reach,
    traceHash: r.traceHash,
    rules: r.rulesExercised,
  };
}

export default function task(job: FuzzJob): FuzzSeedResult {
  return runJob(job);
}
