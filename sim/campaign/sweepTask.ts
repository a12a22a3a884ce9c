/**
 * One run of a sweep: a cell's scenario on one seed, inline in this worker thread, reduced to a
 * small deterministic record (verdict, first violation, the metrics, the trace hash; no wall time),
 * so a sweep's tables are the same whatever the worker count or finishing order. A run that
 * throws is a record too (a crash), and the sweep goes on.
 */
import { clearCaches } from '../../src/core/memo';
import { computeMetrics } from '../metrics/metrics';
import { runScenario } from '../run/run';
import { type Scenario } from '../scenario/scenario';

export interface SweepJob {
  cell: string;
  seed: number;
  /** sha256 of the cell's scenario file for this seed (what a resumed sweep matches runs by). */
  scenarioSha256: string;
  scenario: Scenario;
  metrics: string[];
}

export interface SweepRunRecord {
  cell: string;
  seed: number;
  scenarioSha256: string;
  /** The run's verdict by its oracles (`pass`, `safety`, `liveness`) or `crash`; a sweep ignores the base scenario's `expect`. */
  verdict: string;
  violation: { oracle: string; atMs: number; node: string; message: string } | null;
  /** The run threw (a bug of Lockstep): its message. */
  error: string | null;
  metrics: Record<string, number | null>;
  traceHash: string | null;
  simulatedMs: number;
  events: number;
}

export function runSweepJob(job: SweepJob): SweepRunRecord {
  // Each run starts cold: no run leans on another's cached work.
  clearCaches();
  const base = { cell: job.cell, seed: job.seed, scenarioSha256: job.scenarioSha256 };
  try {
    const r = runScenario(job.scenario, { seed: job.seed });
    return {
      ...base,
      verdict: r.verdict,
      violation: r.violation
        ? { oracle: r.violation.oracle, atMs: r.violation.atMs, node: r.violation.node, message: r.violation.message }
        : null,
      error: null,
      metrics: computeMetrics(r, job.metrics),
      traceHash: r.traceHash,
      simulatedMs: r.simulatedMs,
      events: r.events,
    };
  } catch (e) {
    return {
      ...base,
      verdict: 'crash',
      violation: null,
      error: (e as Error).stack ?? String(e),
      metrics: Object.fromEntries(job.metrics.map((m) => [m, null])),
      traceHash: null,
      simulatedMs: 0,
      events: 0,
    };
  }
}

export default function task(job: SweepJob): SweepRunRecord {
  return runSweepJob(job);
}
