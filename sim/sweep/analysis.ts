/**
 * A sweep's results: per cell the runs, the failed runs and, per metric, the summary of the values
 * of the runs that passed (median, mean, p95, range, BCa intervals, the share of non-zero runs,
 * the small-n flag); per comparison the difference B − A, paired by seed when both cells ran the
 * same seeds, with its interval, effect size and permutation test. Every comparison of the sweep
 * (each pair of cells on each metric) is one family: the p-values are corrected together with
 * Holm's method, and only a comparison whose corrected p is below the plan's alpha is "clear".
 *
 * Pure and deterministic: the same runs give the same object, whatever order they finished in (no
 * wall time, no paths), so the tables written from it are byte-identical when a sweep is run again.
 */
import { type SweepRunRecord } from '../campaign/sweepTask';
import { type MetricUnit, metricDef } from '../metrics/metrics';
import { DEFAULT_LEVEL } from '../stats/bootstrap';
import { type SampleDifference, type SampleSummary, compareSamples, describeSample } from '../stats/describe';
import { holmAdjust } from '../stats/holm';
import { normalQuantile } from '../stats/normal';
import { COVERAGE_FLOOR } from '../stats/shape';
import { type SweepPlan } from './plan';
import { type SourceState } from '../core/sourceState';

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
  /** Holm-corrected p over the sweep's family of comparisons (null: nothing to test). */
  pHolm: number | null;
  /** The corrected p is below the plan's alpha. */
  clear: boolean;
  /**
   * Seeds a paired comparison of this effect size would need for 80% power at the family's
   * Bonferroni level (normal approximation): a planning figure, from this sweep's own estimate.
   */
  seedsFor80: number | null;
}

export interface SweepMethod {
  interval: string;
  resamples: number;
  level: number;
  /** The largest Monte Carlo error of any interval end, as a share of its interval's width. */
  mcErrorMax: number;
  test: string;
  correction: string;
  alpha: number;
  /** What the correction's family is. */
  family: string;
  familySize: number;
  /** Below this coverage (measured, docs/SWEEPS.md) a cell or comparison is flagged small n. */
  coverageFloor: number;
}

export interface SmallSample {
  cell: string;
  metric: string;
  n: number;
  shape: string;
  runsNeeded: number | null;
}

export interface SweepSummary {
  kind: typeof SUMMARY_KIND;
  sweep: string;
  description: string;
  version: string;
  /** The source tree every run was made from. */
  source: SourceState;
  /** Every run of the plan is in (a merge of some shards, or an unfinished sweep, is not). */
  complete: boolean;
  runsExpected: number;
  runs: number;
  seeds: number[];
  drawn: string[];
  level: number;
  bootstrap: SweepPlan['bootstrap'];
  method: SweepMethod;
  axes: SweepPlan['axes'];
  cellAxes: SweepPlan['cellAxes'];
  metrics: Array<{ name: string; unit: MetricUnit; definition: string }>;
  cells: CellResult[];
  comparisons: Comparison[];
  /** Cells whose interval of the mean has fewer runs than its shape needs. */
  smallSamples: SmallSample[];
}

export function isFailed(r: SweepRunRecord): boolean {
  return r.verdict !== 'pass';
}

function seedsFor80(d: SampleDifference, alpha: number, family: number): number | null {
  if (d.effectSize === null || d.effectSize === 0) return null;
  const z = normalQuantile(1 - alpha / (2 * Math.max(1, family))) + normalQuantile(0.8);
  const n = (z / Math.abs(d.effectSize)) ** 2;
  return Math.ceil(d.paired ? n : 2 * n);
}

export function analyseSweep(
  plan: SweepPlan,
  records: readonly SweepRunRecord[],
  build: { version: string; source: SourceState },
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
  const differences: Array<Omit<Comparison, 'pHolm' | 'clear' | 'seedsFor80'>> = [];
  for (const [a, b] of plan.compare)
    for (const m of plan.metrics) {
      // Every cell runs the same seeds (the same draws): compare seed by seed, on the seeds where
      // both runs passed and gave a value.
      const va = values(a, m);
      const vb = values(b, m);
      const shared = [...va.keys()].filter((s) => vb.has(s));
      const pick = (v: Map<number, number>) => new Map(shared.map((s) => [s, v.get(s)!]));
      const d = compareSamples(pick(va), pick(vb), { seed: `${bs.seed}/${a}|${b}/${m}`, resamples: bs.resamples });
      differences.push({ a, b, metric: m, ...d });
    }
  const tested = differences.filter((d) => d.test !== null);
  const adjusted = holmAdjust(tested.map((d) => d.test!.p));
  const pHolm = new Map(tested.map((d, i) => [d, adjusted[i]!]));
  const comparisons: Comparison[] = differences.map((d) => {
    const p = pHolm.get(d) ?? null;
    return {
      ...d,
      pHolm: p,
      clear: p !== null && p < plan.alpha,
      seedsFor80: seedsFor80(d, plan.alpha, tested.length),
    };
  });
  const widths: number[] = [];
  const note = (ci: [number, number] | null, mc: number | null) => {
    if (ci && mc !== null && ci[1] > ci[0]) widths.push(mc / (ci[1] - ci[0]));
  };
  for (const c of cells)
    for (const s of Object.values(c.stats)) {
      note(s.meanCi, s.meanCiMc);
      note(s.medianCi, s.medianCiMc);
    }
  for (const c of comparisons) note(c.meanDiffCi, c.meanDiffMc);
  const runsExpected = plan.cells.length * plan.seeds.length;
  const pairs = plan.compare.length;
  return {
    kind: SUMMARY_KIND,
    sweep: plan.sweep,
    description: plan.description,
    version: build.version,
    source: build.source,
    complete: records.length === runsExpected,
    runsExpected,
    runs: records.length,
    seeds: plan.seeds,
    drawn: plan.drawn,
    level: DEFAULT_LEVEL,
    bootstrap: bs,
    method: {
      interval: 'BCa bootstrap (bias-corrected and accelerated), resampling runs, or seeds for a paired difference',
      resamples: bs.resamples,
      level: DEFAULT_LEVEL,
      mcErrorMax: widths.length ? Math.max(...widths) : 0,
      test: 'permutation test of no difference in means: sign flips of the per-seed differences (exact up to 22 non-zero differences), or reassignments of runs when unpaired',
      correction: 'Holm',
      alpha: plan.alpha,
      family: `every comparison of sweep ${plan.sweep}: ${pairs} pair${pairs === 1 ? '' : 's'} of cells × ${plan.metrics.length} metric${plan.metrics.length === 1 ? '' : 's'}`,
      familySize: tested.length,
      coverageFloor: COVERAGE_FLOOR,
    },
    axes: plan.axes,
    cellAxes: plan.cellAxes,
    metrics: plan.metrics.map((name) => {
      const d = metricDef(name)!;
      return { name, unit: d.unit, definition: d.definition };
    }),
    cells,
    comparisons,
    smallSamples: cells.flatMap((c) =>
      plan.metrics.flatMap((m) => {
        const s = c.stats[m]!;
        return s.smallN && s.n > 0
          ? [{ cell: c.label, metric: m, n: s.n, shape: s.shape, runsNeeded: s.runsNeeded }]
          : [];
      }),
    ),
  };
}
