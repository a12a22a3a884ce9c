/**
 * Percentile bootstrap confidence intervals, seeded: the same values and seed give the same
 * interval on every machine, so a sweep's tables are byte-identical when it is run again.
 *
 * The interval of a statistic is the (1 − level)/2 and (1 + level)/2 quantiles (type 7, linear
 * interpolation) of the statistic over `resamples` resamples with replacement. A difference of two
 * samples resamples both: the runs of one seed together when the two samples are paired (the same
 * seeds, so the same drawn fault times in both cells), each sample on its own otherwise.
 */
import seedrandom from 'seedrandom';
import { quantileSorted, sampleWithReplacement } from 'simple-statistics';

export type Statistic = (values: readonly number[]) => number;

export interface BootstrapOptions {
  /** Names the random stream (e.g. the sweep, the cell and the metric): same seed, same interval. */
  seed: string;
  /** How many resamples (default 2000). */
  resamples?: number;
  /** The interval's coverage (default 0.95). */
  level?: number;
}

export const DEFAULT_RESAMPLES = 2000;
export const DEFAULT_LEVEL = 0.95;

export type Interval = [low: number, high: number];

function stream(seed: string): () => number {
  const prng = seedrandom.alea(`bootstrap/${seed}`);
  return () => prng.double();
}

function bounds(stats: Float64Array, level: number): Interval {
  stats.sort((x, y) => x - y);
  const sorted = Array.from(stats);
  return [quantileSorted(sorted, (1 - level) / 2), quantileSorted(sorted, (1 + level) / 2)];
}

function checked(o: BootstrapOptions): { resamples: number; level: number } {
  const resamples = o.resamples ?? DEFAULT_RESAMPLES;
  const level = o.level ?? DEFAULT_LEVEL;
  if (!Number.isSafeInteger(resamples) || resamples < 1)
    throw new RangeError(`resamples: expected a positive integer, got ${resamples}`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level: expected a number between 0 and 1, got ${level}`);
  return { resamples, level };
}

/** The interval of `statistic` over `values`; null for fewer than two values (no spread to resample). */
export function bootstrapInterval(
  values: readonly number[],
  statistic: Statistic,
  o: BootstrapOptions,
): Interval | null {
  const { resamples, level } = checked(o);
  if (values.length < 2) return null;
  const random = stream(o.seed);
  const stats = new Float64Array(resamples);
  const pool = values.slice();
  for (let i = 0; i < resamples; i++) stats[i] = statistic(sampleWithReplacement(pool, pool.length, random));
  return bounds(stats, level);
}

/**
 * The interval of statistic(b) − statistic(a). Paired: `a[i]` and `b[i]` belong together (one seed
 * in two cells) and are resampled as pairs; then a and b must have the same length.
 */
export function bootstrapDifference(
  a: readonly number[],
  b: readonly number[],
  statistic: Statistic,
  o: BootstrapOptions & { paired: boolean },
): Interval | null {
  const { resamples, level } = checked(o);
  if (a.length < 2 || b.length < 2) return null;
  if (o.paired && a.length !== b.length)
    throw new RangeError(`paired samples need equal lengths, got ${a.length} and ${b.length}`);
  const random = stream(o.seed);
  const stats = new Float64Array(resamples);
  if (o.paired) {
    const index = a.map((_, i) => i);
    for (let r = 0; r < resamples; r++) {
      const pick = sampleWithReplacement(index, index.length, random);
      stats[r] = statistic(pick.map((i) => b[i]!)) - statistic(pick.map((i) => a[i]!));
    }
  } else {
    const pa = a.slice();
    const pb = b.slice();
    for (let r = 0; r < resamples; r++)
      stats[r] =
        statistic(sampleWithReplacement(pb, pb.length, random)) -
        statistic(sampleWithReplacement(pa, pa.length, random));
  }
  return bounds(stats, level);
}
