/**
 * Bias-corrected and accelerated (BCa) bootstrap intervals, seeded: the same values and seed give
 * the same interval on every machine, so a sweep's tables are byte-identical when it is run again.
 *
 * The method is Efron's (Efron & Tibshirani, "An Introduction to the Bootstrap", 1993, §14.3), as
 * scipy.stats.bootstrap(method='BCa') computes it: `resamples` resamples with replacement give the
 * bootstrap distribution of the statistic; the bias correction z0 is Φ⁻¹ of the share of it below
 * the sample's own value (ties count half); the acceleration a comes from the jackknife (the
 * statistic with each unit left out in turn; for two samples, both samples' jackknife terms
 * summed); and the ends are the quantiles (type 7) of the bootstrap distribution at
 * Φ(z0 + (z0 + z_α) / (1 − a (z0 + z_α))) for α = (1 − level)/2 and (1 + level)/2.
 *
 * A unit is what is resampled: a run's value, or the pair of runs of one seed in two cells (a
 * paired comparison resamples seeds). Each end comes with its Monte Carlo standard error, by batch
 * means: the resamples in 20 consecutive batches, the end read off each batch at the same level,
 * and the spread of those 20 values over √20 (an end on an atom of a discrete distribution, which
 * every batch reads alike, has an error near 0). With the default 10,000 resamples it is a small
 * fraction of the interval's width, and the tables state it.
 */
import seedrandom from 'seedrandom';
import { quantileSorted, sampleWithReplacement } from 'simple-statistics';
import { normalCdf, normalQuantile } from './normal';

export interface BootstrapOptions {
  /** Names the random stream (e.g. the sweep, the cell and the metric): same seed, same interval. */
  seed: string;
  /** How many resamples (default 10,000). */
  resamples?: number;
  /** The interval's coverage (default 0.95). */
  level?: number;
}

export const DEFAULT_RESAMPLES = 10_000;
export const DEFAULT_LEVEL = 0.95;

export type Interval = [low: number, high: number];

export interface BootstrapInterval {
  interval: Interval;
  /** The Monte Carlo standard error of each end (0 for a degenerate interval). */
  mcError: Interval;
  /** The bias correction and the acceleration. */
  z0: number;
  acceleration: number;
}

function stream(seed: string): () => number {
  const prng = seedrandom.alea(`bootstrap/${seed}`);
  return () => prng.double();
}

function checked(o: BootstrapOptions): { resamples: number; level: number } {
  const resamples = o.resamples ?? DEFAULT_RESAMPLES;
  const level = o.level ?? DEFAULT_LEVEL;
  if (!Number.isSafeInteger(resamples) || resamples < 1)
    throw new RangeError(`resamples: expected a positive integer, got ${resamples}`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level: expected a number between 0 and 1, got ${level}`);
  return { resamples, level };
}

/** One sample's jackknife terms, as scipy sums them: U = (n − 1)(θ̄ − θ₍ᵢ₎); Σ U³ / n³ and Σ U² / n². */
function jackknifeTerms(leaveOneOut: Float64Array): { num: number; den: number } {
  const n = leaveOneOut.length;
  let mean = 0;
  for (const v of leaveOneOut) mean += v / n;
  let num = 0;
  let den = 0;
  for (const v of leaveOneOut) {
    const u = (n - 1) * (mean - v);
    num += u ** 3;
    den += u ** 2;
  }
  return { num: num / n ** 3, den: den / n ** 2 };
}

function leaveEachOut<T>(units: readonly T[], statistic: (s: readonly T[]) => number): Float64Array {
  const out = new Float64Array(units.length);
  for (let i = 0; i < units.length; i++) out[i] = statistic(units.filter((_, j) => j !== i));
  return out;
}

/** The interval from the bootstrap distribution `stats` of a statistic whose value is `theta`. */
/** Batches for the Monte Carlo error of an end. */
const BATCHES = 20;

/** The standard error of the `p`-quantile of `stats` (in resampling order) by batch means. */
function batchError(stats: Float64Array, p: number): number {
  const k = Math.min(BATCHES, Math.floor(stats.length / 10));
  if (k < 2) return 0;
  const size = Math.floor(stats.length / k);
  const ends: number[] = [];
  for (let i = 0; i < k; i++) {
    const batch = Array.from(stats.subarray(i * size, (i + 1) * size)).sort((x, y) => x - y);
    ends.push(quantileSorted(batch, p));
  }
  const m = ends.reduce((a, x) => a + x, 0) / k;
  const variance = ends.reduce((a, x) => a + (x - m) ** 2, 0) / (k - 1);
  // The full run is k batches long: its error is the batches' spread over √k.
  return Math.sqrt(variance / k);
}

function bcaFrom(
  theta: number,
  stats: Float64Array,
  jack: Array<{ num: number; den: number }>,
  level: number,
): BootstrapInterval {
  const sorted = Array.from(stats).sort((x, y) => x - y);
  const b = sorted.length;
  const tol = 1e-12 * Math.max(1, Math.abs(theta));
  if (sorted[b - 1]! - sorted[0]! <= tol)
    // Every resample gave the same value (a constant sample): nothing to correct or spread.
    return { interval: [theta, theta], mcError: [0, 0], z0: 0, acceleration: 0 };
  let below = 0;
  let atMost = 0;
  for (const v of sorted) {
    if (v < theta - tol) below++;
    if (v <= theta + tol) atMost++;
  }
  const share = Math.min(1 - 1 / (2 * b), Math.max(1 / (2 * b), (below + atMost) / (2 * b)));
  const z0 = normalQuantile(share);
  const num = jack.reduce((s, j) => s + j.num, 0);
  const den = jack.reduce((s, j) => s + j.den, 0);
  const acceleration = den > 0 ? num / (6 * den ** 1.5) : 0;
  const end = (alpha: number): { value: number; mc: number } => {
    const w = z0 + normalQuantile(alpha);
    const d = 1 - acceleration * w;
    // Past the pole of the correction the level runs off to 0 or 1: the extreme resample.
    const p = d <= 0 ? (alpha < 0.5 ? 0 : 1) : normalCdf(z0 + w / d);
    return { value: quantileSorted(sorted, p), mc: batchError(stats, p) };
  };
  const lo = end((1 - level) / 2);
  const hi = end((1 + level) / 2);
  return { interval: [lo.value, hi.value], mcError: [lo.mc, hi.mc], z0, acceleration };
}

/**
 * The BCa interval of `statistic` over `units`, resampled with replacement; null for fewer than two
 * units (no spread to resample).
 */
export function bcaInterval<T>(
  units: readonly T[],
  statistic: (sample: readonly T[]) => number,
  o: BootstrapOptions,
): BootstrapInterval | null {
  const { resamples, level } = checked(o);
  if (units.length < 2) return null;
  const random = stream(o.seed);
  const pool = units.slice();
  const stats = new Float64Array(resamples);
  for (let i = 0; i < resamples; i++) stats[i] = statistic(sampleWithReplacement(pool, pool.length, random));
  return bcaFrom(statistic(units), stats, [jackknifeTerms(leaveEachOut(units, statistic))], level);
}

/**
 * The BCa interval of statistic(a, b) for two independent samples, each resampled on its own; null
 * when either has fewer than two values.
 */
export function bcaTwoSample(
  a: readonly number[],
  b: readonly number[],
  statistic: (a: readonly number[], b: readonly number[]) => number,
  o: BootstrapOptions,
): BootstrapInterval | null {
  const { resamples, level } = checked(o);
  if (a.length < 2 || b.length < 2) return null;
  const random = stream(o.seed);
  const pa = a.slice();
  const pb = b.slice();
  const stats = new Float64Array(resamples);
  for (let i = 0; i < resamples; i++)
    stats[i] = statistic(sampleWithReplacement(pa, pa.length, random), sampleWithReplacement(pb, pb.length, random));
  const jack = [
    jackknifeTerms(leaveEachOut(a, (s) => statistic(s, b))),
    jackknifeTerms(leaveEachOut(b, (s) => statistic(a, s))),
  ];
  return bcaFrom(statistic(a, b), stats, jack, level);
}
