/**
 * What a sweep says about one metric in one cell, and about the difference between two cells.
 *
 * A cell: how many runs gave a value, their median, mean, 95th percentile and range (type-7
 * quantiles: numpy's and R's default), BCa intervals of the mean and of the median with their
 * Monte Carlo errors, the share of runs with a non-zero value (Wilson interval), the sample's
 * shape and whether it has fewer runs than the interval of the mean needs (shape.ts).
 *
 * A comparison B − A: the difference of the means with its BCa interval (the headline), and two
 * medians named apart — the difference of the medians (median B − median A) and, when the cells
 * ran the same seeds, the median of the per-seed differences — each with its interval; a
 * permutation test's p-value (permutation.ts: exact at small n, what a study's "clear" calls are
 * made from after Holm's correction); an effect size (Cohen's d_z of the per-seed differences when
 * paired, Cohen's d with the pooled standard deviation otherwise); how many seeds went up, down or
 * stayed; and the correlation of the two cells' values across seeds, which says how much pairing
 * narrows the interval (little, when it is near 0).
 */
import { mean, median, quantileSorted, sampleCorrelation, sampleStandardDeviation } from 'simple-statistics';
import { type BootstrapOptions, type Interval, bcaInterval, bcaTwoSample } from './bootstrap';
import { type TestResult, signFlipTest, twoSampleTest } from './permutation';
import { wilsonInterval } from './proportion';
import { type Shape, runsNeeded, sampleShape, smallSample } from './shape';

export interface SampleSummary {
  /** Values summarised (runs that gave the metric a value). */
  n: number;
  median: number | null;
  mean: number | null;
  p95: number | null;
  min: number | null;
  max: number | null;
  /** BCa interval of the mean (null with fewer than two values) and the larger Monte Carlo error of its ends. */
  meanCi: Interval | null;
  meanCiMc: number | null;
  medianCi: Interval | null;
  medianCiMc: number | null;
  /** Runs whose value is not 0, and the Wilson interval of their share. */
  nonzero: number;
  nonzeroCi: Interval | null;
  shape: Shape;
  /** The runs the interval of the mean needs for 90% coverage at this shape (null: more than calibrated). */
  runsNeeded: number | null;
  /** Fewer runs than that: the interval of the mean covers less than 90% of the time. */
  smallN: boolean;
}

const meanOf = (v: readonly number[]) => mean(v as number[]);
const medianOf = (v: readonly number[]) => median(v as number[]);
const worst = (mc: Interval | undefined) => (mc ? Math.max(mc[0], mc[1]) : null);

export function describeSample(values: readonly number[], o: BootstrapOptions): SampleSummary {
  const shape = sampleShape(values);
  const need = runsNeeded(shape);
  if (values.length === 0)
    return {
      n: 0,
      median: null,
      mean: null,
      p95: null,
      min: null,
      max: null,
      meanCi: null,
      meanCiMc: null,
      medianCi: null,
      medianCiMc: null,
      nonzero: 0,
      nonzeroCi: null,
      shape,
      runsNeeded: need,
      smallN: true,
    };
  const sorted = values.slice().sort((x, y) => x - y);
  const meanCi = bcaInterval(values, meanOf, { ...o, seed: `${o.seed}/mean` });
  const medianCi = bcaInterval(values, medianOf, { ...o, seed: `${o.seed}/median` });
  const nonzero = values.filter((v) => v !== 0).length;
  return {
    n: values.length,
    median: medianOf(sorted),
    mean: meanOf(values),
    p95: quantileSorted(sorted, 0.95),
    min: sorted[0]!,
    max: sorted.at(-1)!,
    meanCi: meanCi?.interval ?? null,
    meanCiMc: worst(meanCi?.mcError),
    medianCi: medianCi?.interval ?? null,
    medianCiMc: worst(medianCi?.mcError),
    nonzero,
    nonzeroCi: wilsonInterval(nonzero, values.length),
    shape,
    runsNeeded: need,
    smallN: smallSample(shape, values.length),
  };
}

export interface SampleDifference {
  /** Whether runs were matched by seed (the same seeds in both samples). */
  paired: boolean;
  /** Seeds (paired) or the smaller sample's runs (unpaired). */
  n: number;
  /** mean(B) − mean(A) and its BCa interval, with the larger Monte Carlo error of its ends. */
  meanDiff: number | null;
  meanDiffCi: Interval | null;
  meanDiffMc: number | null;
  /** median(B) − median(A): the difference of the medians. */
  medianDiff: number | null;
  medianDiffCi: Interval | null;
  /** The median of the per-seed differences B − A (paired only). */
  medianOfDiffs: number | null;
  medianOfDiffsCi: Interval | null;
  /** The permutation test of no difference in means. */
  test: TestResult | null;
  /** Cohen's d_z (paired: mean / sd of the differences) or d (pooled sd); null when the spread is 0. */
  effectSize: number | null;
  effectSizeKind: 'd_z' | 'd';
  /** Paired: seeds where B is higher, lower, equal. */
  higher: number | null;
  lower: number | null;
  equal: number | null;
  /** Paired: Pearson correlation of A and B across seeds (null when either is constant). */
  correlation: number | null;
  /** The shape of the differences (paired) or of the more skewed sample, and the small-n flag for the interval. */
  shape: Shape;
  runsNeeded: number | null;
  smallN: boolean;
}

const sd = (v: readonly number[]) => (v.length >= 2 ? sampleStandardDeviation(v as number[]) : 0);

function correlationOf(a: readonly number[], b: readonly number[]): number | null {
  if (a.length < 3 || sd(a) === 0 || sd(b) === 0) return null;
  return sampleCorrelation(a as number[], b as number[]);
}

const ORDER: Shape[] = ['normal', 'skewed', 'heavy-tailed', 'mostly-one-value'];

/** b − a. Paired when both are given by key (seed) and hold the same keys. */
export function compareSamples(
  a: ReadonlyMap<number, number>,
  b: ReadonlyMap<number, number>,
  o: BootstrapOptions,
): SampleDifference {
  const keysA = [...a.keys()].sort((x, y) => x - y);
  const keysB = [...b.keys()].sort((x, y) => x - y);
  const paired = keysA.length === keysB.length && keysA.every((k, i) => k === keysB[i]);
  const va = keysA.map((k) => a.get(k)!);
  const vb = keysB.map((k) => b.get(k)!);
  const n = Math.min(va.length, vb.length);
  if (va.length === 0 || vb.length === 0)
    return {
      paired,
      n,
      meanDiff: null,
      meanDiffCi: null,
      meanDiffMc: null,
      medianDiff: null,
      medianDiffCi: null,
      medianOfDiffs: null,
      medianOfDiffsCi: null,
      test: null,
      effectSize: null,
      effectSizeKind: paired ? 'd_z' : 'd',
      higher: null,
      lower: null,
      equal: null,
      correlation: null,
      shape: 'normal',
      runsNeeded: runsNeeded('normal'),
      smallN: true,
    };
  const meanDiff = meanOf(vb) - meanOf(va);
  const medianDiff = medianOf(vb) - medianOf(va);
  if (paired) {
    const d = vb.map((x, i) => x - va[i]!);
    const seeds = d.map((_, i) => i);
    const meanCi = bcaInterval(d, meanOf, { ...o, seed: `${o.seed}/mean` });
    const medianCi = bcaInterval(seeds, (s) => medianOf(s.map((i) => vb[i]!)) - medianOf(s.map((i) => va[i]!)), {
      ...o,
      seed: `${o.seed}/median`,
    });
    const ofDiffsCi = bcaInterval(d, medianOf, { ...o, seed: `${o.seed}/median-of-differences` });
    const spread = sd(d);
    const shape = sampleShape(d);
    return {
      paired,
      n,
      meanDiff,
      meanDiffCi: meanCi?.interval ?? null,
      meanDiffMc: worst(meanCi?.mcError),
      medianDiff,
      medianDiffCi: medianCi?.interval ?? null,
      medianOfDiffs: medianOf(d),
      medianOfDiffsCi: ofDiffsCi?.interval ?? null,
      test: signFlipTest(d, { seed: o.seed }),
      effectSize: spread > 0 ? meanDiff / spread : null,
      effectSizeKind: 'd_z',
      higher: d.filter((x) => x > 0).length,
      lower: d.filter((x) => x < 0).length,
      equal: d.filter((x) => x === 0).length,
      correlation: correlationOf(va, vb),
      shape,
      runsNeeded: runsNeeded(shape),
      smallN: smallSample(shape, n),
    };
  }
  const meanCi = bcaTwoSample(va, vb, (x, y) => meanOf(y) - meanOf(x), { ...o, seed: `${o.seed}/mean` });
  const medianCi = bcaTwoSample(va, vb, (x, y) => medianOf(y) - medianOf(x), { ...o, seed: `${o.seed}/median` });
  const pooled =
    va.length + vb.length > 2
      ? Math.sqrt(((va.length - 1) * sd(va) ** 2 + (vb.length - 1) * sd(vb) ** 2) / (va.length + vb.length - 2))
      : 0;
  const shapes = [sampleShape(va), sampleShape(vb)];
  const shape = ORDER[Math.max(...shapes.map((s) => ORDER.indexOf(s)))]!;
  return {
    paired,
    n,
    meanDiff,
    meanDiffCi: meanCi?.interval ?? null,
    meanDiffMc: worst(meanCi?.mcError),
    medianDiff,
    medianDiffCi: medianCi?.interval ?? null,
    medianOfDiffs: null,
    medianOfDiffsCi: null,
    test: twoSampleTest(va, vb, { seed: o.seed }),
    effectSize: pooled > 0 ? meanDiff / pooled : null,
    effectSizeKind: 'd',
    higher: null,
    lower: null,
    equal: null,
    correlation: null,
    shape,
    runsNeeded: runsNeeded(shape),
    smallN: smallSample(shape, n),
  };
}
