/**
 * A report folder's metrics.json: every metric of the run (sim/metrics/metrics.ts) with its unit,
 * in table order; byte-identical for the same run and build (no wall time). `lockstep report
 * diff` compares it.
 */
import { type RunResult } from '../run/runResult';
import { METRICS, computeMetrics } from './metrics';

export function metricsJson(run: RunResult): string {
  return `${JSON.stringify(
    { metrics: computeMetrics(run), units: Object.fromEntries(METRICS.map((m) => [m.name, m.unit])) },
    null,
    2,
  )}\n`;
}
