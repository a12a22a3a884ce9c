/**
 * One run of a sweep: a cell's scenario on one seed, inline in this worker thread, reduced to a
 * small deterministic record (no wall time), so a sweep's tables are the same whatever the worker
 * count or finishing order. The record says what the run was: the source tree it was made from,
 * the values drawn for its seed, its effective parameters, what each fault resolved to (the node
 * or validator, when it fired); and what it gave: the verdict, the first violation, the metrics,
 * the trace hash and the run's digest (metrics/runDigest.ts), from which metrics added later are
 * computed without running it again. A run that throws is a record too (a crash), and the sweep
 * goes on.
 */
import { clearCaches } from '../../src/core/memo';
import { metricsOfDigest } from '../metrics/metrics';
import { type RunDigest, runDigest } from '../metrics/runDigest';
import { runScenario } from '../run/run';
import { type Scenario } from '../scenario/scenario';
import { encodeScenario } from '../scenario/encodeScenario';
import { type SourceState } from '../core/sourceState';

export interface SweepJob {
  cell: string;
  seed: number;
  /** sha256 of the cell's scenario file for this seed (what a resumed sweep matches runs by). */
  scenarioSha256: string;
  scenario: Scenario;
  metrics: string[];
  /** The values drawn for this seed, by scenario path (the same in every cell). */
  drawn: Record<string, unknown>;
  source: SourceState;
}

/** A fault of the run's scenario: its spec's timing and, once it fired, when and on what. */
export interface RunFault {
  index: number;
  kind: string;
  /** When it fired (s of virtual time); null when it never did (or the run crashed first). */
  atS: number | null;
  /** How long it was set to last (s); null: to the end, or a fault without a duration. */
  forS: number | null;
  /** What it resolved to when it fired (`svc-2`, `validator 3`); null when it never fired. */
  target: string | null;
}

export interface SweepRunRecord {
  cell: string;
  seed: number;
  scenarioSha256: string;
  source: SourceState;
  drawn: Record<string, unknown>;
  /** The scenario's parameters as the run used them (defaults filled in), in the scenario file's form. */
  params: Record<string, unknown>;
  faults: RunFault[];
  /** The run's verdict by its oracles (`pass`, `safety`, `liveness`) or `crash`; a sweep ignores the base scenario's `expect`. */
  verdict: string;
  violation: { oracle: string; atMs: number; node: string; message: string } | null;
  /** The run threw (a bug of Lockstep): its message. */
  error: string | null;
  metrics: Record<string, number | null>;
  traceHash: string | null;
  simulatedMs: number;
  events: number;
  /** What metrics are computed from (null for a crash). */
  digest: RunDigest | null;
}

function runFaults(
  scenario: Scenario,
  fired: ReadonlyArray<{ index: number; atMs: number; detail: string }>,
): RunFault[] {
  return scenario.faults.map((f, index) => {
    const hit = fired.find((x) => x.index === index);
    return {
      index,
      kind: f.kind,
      atS: hit ? hit.atMs / 1000 : null,
      forS: f.forMs !== undefined ? f.forMs / 1000 : null,
      target: hit ? hit.detail : null,
    };
  });
}

export function runSweepJob(job: SweepJob): SweepRunRecord {
  // Each run starts cold: no run leans on another's cached work.
  clearCaches();
  const base = {
    cell: job.cell,
    seed: job.seed,
    scenarioSha256: job.scenarioSha256,
    source: job.source,
    drawn: job.drawn,
    params: encodeScenario(job.scenario).params as Record<string, unknown>,
  };
  try {
    const r = runScenario(job.scenario, { seed: job.seed });
    const digest = runDigest(r);
    return {
      ...base,
      faults: runFaults(job.scenario, r.faultsFired),
      verdict: r.verdict,
      violation: r.violation
        ? { oracle: r.violation.oracle, atMs: r.violation.atMs, node: r.violation.node, message: r.violation.message }
        : null,
      error: null,
      metrics: metricsOfDigest(digest, job.metrics),
      traceHash: r.traceHash,
      simulatedMs: r.simulatedMs,
      events: r.events,
      digest,
    };
  } catch (e) {
    return {
      ...base,
      faults: runFaults(job.scenario, []),
      verdict: 'crash',
      violation: null,
      error: (e as Error).stack ?? String(e),
      metrics: Object.fromEntries(job.metrics.map((m) => [m, null])),
      traceHash: null,
      simulatedMs: 0,
      events: 0,
      digest: null,
    };
  }
}

export default function task(job: SweepJob): SweepRunRecord {
  return runSweepJob(job);
}
