/**
 * The sweep statistics against values known independently: quantiles and means of small samples
 * worked out by hand (type 7, as numpy's and R's default); the normal quantile against its
 * tabulated values; Wilson intervals against Newcombe's (1998) worked examples; Holm against R's
 * p.adjust; the exact sign-flip test against a count by hand; the BCa acceleration against its
 * closed form for the mean and the BCa ends against scipy.stats.bootstrap(method='BCa').
 */
import { describe, expect, it } from 'vitest';
import { bcaInterval, bcaTwoSample } from './bootstrap';
import { compareSamples, describeSample } from './describe';
import { holmAdjust } from './holm';
import { normalCdf, normalQuantile } from './normal';
import { signFlipTest, twoSampleTest } from './permutation';
import { wilsonInterval } from './proportion';

const meanOf = (v: readonly number[]) => v.reduce((s, x) => s + x, 0) / v.length;
const medianOf = (v: readonly number[]) => {
  const s = v.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

describe('normal distribution', () => {
  it('quantiles to 1e-6 (tables: 1.959963985, 2.575829304, 3.090232306)', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963985, 6);
    expect(normalQuantile(0.025)).toBeCloseTo(-1.959963985, 6);
    expect(normalQuantile(0.995)).toBeCloseTo(2.575829304, 6);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232306, 6);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 6);
    expect(normalCdf(1.959963985)).toBeCloseTo(0.975, 7);
    expect(() => normalQuantile(1)).toThrow(RangeError);
  });
});

describe('describeSample', () => {
  it('median, mean, p95, min and max of 1..10 (R: quantile(1:10, .95) = 9.55)', () => {
    const s = describeSample([3, 1, 2, 10, 9, 8, 7, 6, 5, 4], { seed: 't', resamples: 1000 });
    expect(s).toMatchObject({ n: 10, median: 5.5, mean: 5.5, min: 1, max: 10, nonzero: 10 });
    expect(s.p95).toBeCloseTo(9.55, 12);
  });

  it('an even sample with ties: 2 4 4 4 5 5 7 9 (mean 5, median 4.5, p95 8.3)', () => {
    const s = describeSample([9, 4, 2, 5, 4, 7, 4, 5], { seed: 't', resamples: 1000 });
    expect(s.mean).toBe(5);
    expect(s.median).toBe(4.5);
    expect(s.p95).toBeCloseTo(8.3, 12);
  });

  it('one value: no interval; none: every statistic null and flagged small', () => {
    expect(describeSample([7], { seed: 't' })).toMatchObject({ n: 1, median: 7, mean: 7, p95: 7, meanCi: null });
    expect(describeSample([], { seed: 't' })).toMatchObject({ n: 0, median: null, mean: null, smallN: true });
  });

  it('a constant sample has the degenerate interval [c, c], and is flagged as mostly one value', () => {
    const s = describeSample([4, 4, 4, 4, 4], { seed: 't', resamples: 1000 });
    expect(s.meanCi).toEqual([4, 4]);
    expect(s).toMatchObject({ shape: 'mostly-one-value', smallN: true });
  });

  it('counts the non-zero runs with a Wilson interval of their share', () => {
    const s = describeSample([0, 0, 3, 0, 5, 0, 0, 0, 1, 0], { seed: 't', resamples: 1000 });
    expect(s.nonzero).toBe(3);
    expect(s.nonzeroCi).toEqual(wilsonInterval(3, 10));
  });

  it('is reproducible: the same seed gives the same interval, another seed another', () => {
    const v = [3.17, 9.02, 1.55, 14.9, 2.31, 2.08, 8.66, 5.43, 11.7, 6.29];
    expect(describeSample(v, { seed: 'a', resamples: 2000 })).toEqual(
      describeSample(v, { seed: 'a', resamples: 2000 }),
    );
    expect(describeSample(v, { seed: 'a', resamples: 2000 }).meanCi).not.toEqual(
      describeSample(v, { seed: 'b', resamples: 2000 }).meanCi,
    );
  });
});

describe('BCa intervals', () => {
  const x = [1.2, 3.4, 0.5, 7.8, 2.2, 15.1, 4.4, 0.9, 3.3, 6.0];

  it("the acceleration of the mean is the jackknife's closed form Σ(x − x̄)³ / (6 (Σ(x − x̄)²)^1.5)", () => {
    const m = meanOf(x);
    const s2 = x.reduce((s, v) => s + (v - m) ** 2, 0);
    const s3 = x.reduce((s, v) => s + (v - m) ** 3, 0);
    const r = bcaInterval(x, meanOf, { seed: 'a', resamples: 2000 })!;
    expect(r.acceleration).toBeCloseTo(s3 / (6 * s2 ** 1.5), 12);
  });

  it('matches scipy.stats.bootstrap(method="BCa") to within Monte Carlo error', () => {
    // scipy 1.17.1, 2,000,000 resamples: np.mean → (2.6, 8.26); np.median → (1.2, 6.1); for the
    // difference of means of y and x (two samples) → (-2.6871, 4.7657). Here 200,000 resamples:
    // the ends must agree to within four of our own Monte Carlo errors (plus the grid of the
    // bootstrap means, 0.01 for ten values).
    const mean = bcaInterval(x, meanOf, { seed: 'scipy', resamples: 200_000 })!;
    for (const [k, want] of [2.6, 8.26].entries())
      expect(Math.abs(mean.interval[k]! - want)).toBeLessThanOrEqual(4 * mean.mcError[k]! + 0.01);
    const med = bcaInterval(x, medianOf, { seed: 'scipy-median', resamples: 200_000 })!;
    expect(med.interval).toEqual([1.2, 6.1]);
    const y = [2.0, 5.5, 1.1, 9.3, 4.2, 12.0, 6.6];
    const two = bcaTwoSample(x, y, (a, b) => meanOf(b) - meanOf(a), { seed: 'scipy-two', resamples: 200_000 })!;
    for (const [k, want] of [-2.687142857, 4.765714286].entries())
      expect(Math.abs(two.interval[k]! - want)).toBeLessThanOrEqual(4 * two.mcError[k]! + 0.01);
  });

  it('the Monte Carlo error of the ends shrinks as 1/√resamples and is stated small at the default', () => {
    const small = bcaInterval(x, meanOf, { seed: 'mc', resamples: 1000 })!;
    const large = bcaInterval(x, meanOf, { seed: 'mc' })!;
    const width = large.interval[1] - large.interval[0];
    expect(Math.max(...large.mcError)).toBeLessThan(0.02 * width);
    expect(Math.max(...large.mcError)).toBeLessThan(Math.max(...small.mcError));
  });

  it('refuses a bad resample count or level', () => {
    expect(() => bcaInterval([1, 2], meanOf, { seed: 'x', resamples: 0 })).toThrow(/resamples/);
    expect(() => bcaInterval([1, 2], meanOf, { seed: 'x', level: 1 })).toThrow(/level/);
  });
});

describe('proportions, tests and the correction', () => {
  it("Wilson intervals: Newcombe's (1998) examples", () => {
    const near = (ci: [number, number], want: [number, number]) => {
      expect(ci[0]).toBeCloseTo(want[0], 4);
      expect(ci[1]).toBeCloseTo(want[1], 4);
    };
    near(wilsonInterval(81, 263), [0.2553, 0.3662]);
    near(wilsonInterval(15, 148), [0.0624, 0.1605]);
    near(wilsonInterval(0, 20), [0, 0.1611]);
    near(wilsonInterval(1, 29), [0.0061, 0.1718]);
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
  });

  it("Holm's adjustment as R's p.adjust(c(.01, .04, .03, .005), 'holm') = .03 .06 .06 .02", () => {
    const adj = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    for (const [i, v] of [0.03, 0.06, 0.06, 0.02].entries()) expect(adj[i]).toBeCloseTo(v, 12);
    expect(holmAdjust([0.5, 0.9])).toEqual([1, 1]);
  });

  it('the sign-flip test is exact: ±1 ±2 ±3 reaches |6| in 2 of 8 assignments', () => {
    expect(signFlipTest([1, 2, 3], { seed: 's' })).toMatchObject({ p: 0.25, method: 'sign-flip, exact' });
    // Zero differences change nothing; none at all is p = 1.
    expect(signFlipTest([0, 1, 0, 2, 3], { seed: 's' }).p).toBe(0.25);
    expect(signFlipTest([0, 0], { seed: 's' }).p).toBe(1);
    // Ten equal differences: only the all-plus and all-minus assignments reach 10.
    expect(signFlipTest(new Array(10).fill(-2), { seed: 's' }).p).toBe(2 / 1024);
  });

  it('exact and Monte Carlo sign-flip p-values agree within the stated error', () => {
    const d = [3.1, -0.4, 2.2, 1.7, -1.1, 0.8, 2.9, 1.5, -0.2, 0.6, 1.9, 2.4];
    const exact = signFlipTest(d, { seed: 's' });
    const mc = signFlipTest(d, { seed: 's', exactUpTo: 0 });
    expect(mc.method).toBe('sign-flip, Monte Carlo');
    expect(Math.abs(mc.p - exact.p)).toBeLessThan(4 * mc.mcError + 1e-4);
  });

  it('the unpaired permutation test finds a shift and is never 0', () => {
    const a = [1, 2, 3, 4, 5, 6, 7, 8];
    const far = twoSampleTest(
      a,
      a.map((v) => v + 100),
      { seed: 'u', resamples: 2000 },
    );
    expect(far.p).toBe(1 / 2001);
    expect(twoSampleTest(a, a, { seed: 'u', resamples: 2000 }).p).toBeGreaterThan(0.9);
  });
});

describe('compareSamples', () => {
  const a = new Map([
    [1, 10],
    [2, 12],
    [3, 11],
    [4, 15],
  ]);
  const b = new Map([
    [3, 6],
    [1, 5],
    [2, 7],
    [4, 9],
  ]);

  it('pairs runs by seed when both cells ran the same seeds; names both medians apart', () => {
    const d = compareSamples(a, b, { seed: 'c', resamples: 2000 });
    expect(d).toMatchObject({ paired: true, n: 4, lower: 4, higher: 0, equal: 0, effectSizeKind: 'd_z' });
    expect(d.meanDiff).toBe(-5.25);
    // Differences: -5 -5 -5 -6 → their median -5; medians 6.5 and 11.5 → difference of medians -5.
    expect(d.medianOfDiffs).toBe(-5);
    expect(d.medianDiff).toBe(6.5 - 11.5);
    expect(d.test).toMatchObject({ p: 2 / 16, method: 'sign-flip, exact' });
    expect(d.correlation).toBeCloseTo(0.99386, 4);
  });

  it('compares unpaired cells as two samples', () => {
    const unpaired = compareSamples(a, new Map([...b].slice(0, 3)), { seed: 'c', resamples: 2000 });
    expect(unpaired).toMatchObject({ paired: false, effectSizeKind: 'd', medianOfDiffs: null, correlation: null });
    expect(unpaired.meanDiff).toBe(6 - 12);
  });
});
