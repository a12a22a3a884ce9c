/**
 * A sweep's results: per cell the runs, the failed runs and, per metric, the summary of the values
 * of the runs that passed (median, mean, p95, range, seeded bootstrap intervals); per comparison
 * the difference B − A with its interval, paired by seed when both cells ran the same seeds. Pure
 * and deterministic: the same runs give the same object, whatever order they finished in (no wall
 * time, no paths), so the tables written from it are byte-identical when a sweep is run again.
 */
import { type SweepRunRecord } from '../campaign/sweepTask';
import { type MetricUnit, metricDef } from '../metrics/metrics';
import { DEFAULT_LEVEL } from '../stats/bootstrap';
import { type SampleDifference, type SampleSummary, compareSamples, describeSample } from '../stats/describe';
import { type SweepPlan } from './plan';

export const SUMMARY_KIND = 'lockstep-sweep-summary';

export interface CellResult {
  label: string;
  runs: number;
  failed: number;
  /** Failed runs (a violation or a crash), by seed. */
  failures: Array<{ seed: number; verdict: string; message: string }>;
  stats: Record<string, SampleSummary>;
}

export interface Comparison extends SampleDifference {
  a: string;
  b: string;
  metric: string;
  /** Seeds compared: those where both cells' runs passed and gave the metric a value. */
  n: number;
}

export interface SweepSummary {
  kind: typeof SUMMARY_KIND;
  sweep: string;
  description: string;
  version: string;
  commit: string | null;
  /** Every run of the plan is in (a merge of some shards, or an unfinished sweep, is not). */
  complete: boolean;
  runsExpected: number;
  runs: number;
  seeds: number[];
  drawn: string[];
  level: number;
  bootstrap: SweepPlan['bootstrap'];
  metrics: Array<{ name: string; unit: MetricUnit; definition: string }>;
  cells: CellResult[];
  comparisons: Comparison[];
}

export function isFailed(r: SweepRunRecord): boolean {
  return r.verdict !== 'pass';
}

export function analyseSweep(
  plan: SweepPlan,
  records: readonly SweepRunRecord[],
  build: { version: string; commit: string | null },
): SweepSummary {
  const byCell = new Map<string, SweepRunRecord[]>(plan.cells.map((c) => [c, []]));
  for (const r of records) byCell.get(r.cell)?.push(r);
  for (const list of byCell.values()) list.sort((x, y) => x.seed - y.seed);
  /** metric → cell → seed → value (passing runs with a value). */
  const values = (cell: string, metric: string): Map<number, number> => {
    const out = new Map<number, number>();
    for (const r of byCell.get(cell)!) {
      const v = r.metrics[metric];
      if (!isFailed(r) && typeof v === 'number') out.set(r.seed, v);
    }
    return out;
  };
  const bs = plan.bootstrap;
  const cells: CellResult[] = plan.cells.map((label) => {
    const runs = byCell.get(label)!;
    const failed = runs.filter(isFailed);
    return {
      label,
      runs: runs.length,
      failed: failed.length,
      failures: failed.map((r) => ({
        seed: r.seed,
        verdict: r.verdict,
        message: r.violation ? `${r.violation.oracle}: ${r.violation.message}` : (r.error ?? '').split('\n')[0]!,
      })),
      stats: Object.fromEntries(
        plan.metrics.map((m) => [
          m,
          describeSample([...values(label, m).values()], { seed: `${bs.seed}/${label}/${m}`, resamples: bs.resamples }),
        ]),
      ),
    };
  });
  const comparisons: Comparison[] = [];
  for (const [a, b] of plan.compare)
    for (const m of plan.metrics) {
      // Every cell runs the same seeds (the same draws): compare seed by seed, on the seeds where
      // both runs passed and gave a value.
      const va = values(a, m);
      const vb = values(b, m);
      const shared = [...va.keys()].filter((s) => vb.has(s));
      const pick = (v: Map<number, number>) => new Map(shared.map((s) => [s, v.get(s)!]));
      const d = compareSamples(pick(va), pick(vb), { seed: `${bs.seed}/${a}|${b}/${m}`, resamples: bs.resamples });
      comparisons.push({ a, b, metric: m, n: shared.length, ...d });
    }
  const runsExpected = plan.cells.length * plan.seeds.length;
  return {
    kind: SUMMARY_KIND,
    sweep: plan.sweep,
    description: plan.description,
    version: build.version,
    commit: build.commit,
    complete: records.length === runsExpected,
    runsExpected,
    runs: records.length,
    seeds: plan.seeds,
    drawn: plan.drawn,
    level: DEFAULT_LEVEL,
    bootstrap: bs,
    metrics: plan.metrics.map((name) => {
      const d = metricDef(name)!;
      return { name, unit: d.unit, definition: d.definition };
    }),
    cells,
    comparisons,
  };
}
