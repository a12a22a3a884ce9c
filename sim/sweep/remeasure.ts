/**
 * A sweep's metrics from its runs' digests (metrics/runDigest.ts): a metric added to the sweep file
 * after the runs were made is computed from what they stored, without running them again. A crash
 * has no digest and no metric; a run stored before runs kept digests cannot be measured again.
 */
import { type SweepRunRecord } from '../campaign/sweepTask';
import { metricsOfDigest } from '../metrics/metrics';

/** The records with every metric of `metrics` computed anew from their digests. */
export function remeasure(records: readonly SweepRunRecord[], metrics: readonly string[]): SweepRunRecord[] {
  return records.map((r) => ({
    ...r,
    metrics: r.digest ? metricsOfDigest(r.digest, metrics) : Object.fromEntries(metrics.map((m) => [m, null])),
  }));
}

/** Runs that passed or failed an oracle but stored no digest (made before runs kept one). */
export function withoutDigest(records: readonly SweepRunRecord[]): SweepRunRecord[] {
  return records.filter((r) => !r.digest && r.verdict !== 'crash');
}
