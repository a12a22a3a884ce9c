/**
 * What a sweep says about one metric in one cell: how many runs gave a value, their median, mean,
 * 95th percentile, range, and seeded bootstrap intervals of the mean and the median. Quantiles are
 * type 7 (linear interpolation between the two nearest ranks: numpy's and R's default).
 */
import { mean, median, quantileSorted } from 'simple-statistics';
import { type BootstrapOptions, type Interval, bootstrapDifference, bootstrapInterval } from './bootstrap';

export interface SampleSummary {
  /** Values summarised (runs that gave the metric a value). */
  n: number;
  median: number | null;
  mean: number | null;
  p95: number | null;
  min: number | null;
  max: number | null;
  /** Bootstrap interval of the mean (null with fewer than two values). */
  meanCi: Interval | null;
  medianCi: Interval | null;
}

const meanOf = (v: readonly number[]) => mean(v as number[]);
const medianOf = (v: readonly number[]) => median(v as number[]);

export function describeSample(values: readonly number[], o: BootstrapOptions): SampleSummary {
  if (values.length === 0)
    return { n: 0, median: null, mean: null, p95: null, min: null, max: null, meanCi: null, medianCi: null };
  const sorted = values.slice().sort((x, y) => x - y);
  return {
    n: values.length,
    median: medianOf(sorted),
    mean: meanOf(values),
    p95: quantileSorted(sorted, 0.95),
    min: sorted[0]!,
    max: sorted.at(-1)!,
    meanCi: bootstrapInterval(values, meanOf, { ...o, seed: `${o.seed}/mean` }),
    medianCi: bootstrapInterval(values, medianOf, { ...o, seed: `${o.seed}/median` }),
  };
}

export interface SampleDifference {
  /** Whether runs were matched by seed (the same seeds in both samples). */
  paired: boolean;
  /** mean(b) − mean(a) and its interval; the same for the medians. */
  meanDiff: number | null;
  meanDiffCi: Interval | null;
  medianDiff: number | null;
  medianDiffCi: Interval | null;
}

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
  if (va.length === 0 || vb.length === 0)
    return { paired, meanDiff: null, meanDiffCi: null, medianDiff: null, medianDiffCi: null };
  return {
    paired,
    meanDiff: meanOf(vb) - meanOf(va),
    meanDiffCi: bootstrapDifference(va, vb, meanOf, { ...o, paired, seed: `${o.seed}/mean` }),
    medianDiff: medianOf(vb) - medianOf(va),
    medianDiffCi: bootstrapDifference(va, vb, medianOf, { ...o, paired, seed: `${o.seed}/median` }),
  };
}
