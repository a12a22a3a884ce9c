/**
 * The sweep statistics against values known independently: quantiles and means of small samples
 * worked out by hand (type 7, as numpy's and R's default), the bootstrap's spread against the
 * closed form for the mean, the coverage of its 95% interval over samples of a known population,
 * and paired differences that have no spread at all.
 */
import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { bootstrapDifference, bootstrapInterval } from './bootstrap';
import { compareSamples, describeSample } from './describe';

const meanOf = (v: readonly number[]) => v.reduce((s, x) => s + x, 0) / v.length;

describe('describeSample', () => {
  it('median, mean, p95, min and max of 1..10 (R: quantile(1:10, .95) = 9.55)', () => {
    const s = describeSample([3, 1, 2, 10, 9, 8, 7, 6, 5, 4], { seed: 't' });
    expect(s).toMatchObject({ n: 10, median: 5.5, mean: 5.5, min: 1, max: 10 });
    expect(s.p95).toBeCloseTo(9.55, 12);
  });

  it('an even sample with ties: 2 4 4 4 5 5 7 9 (mean 5, median 4.5, p95 8.3)', () => {
    const s = describeSample([9, 4, 2, 5, 4, 7, 4, 5], { seed: 't' });
    expect(s.mean).toBe(5);
    expect(s.median).toBe(4.5);
    expect(s.p95).toBeCloseTo(8.3, 12);
  });

  it('one value: no interval; none: every statistic null', () => {
    expect(describeSample([7], { seed: 't' })).toMatchObject({ n: 1, median: 7, mean: 7, p95: 7, meanCi: null });
    expect(describeSample([], { seed: 't' })).toMatchObject({ n: 0, median: null, mean: null, meanCi: null });
  });

  it('a constant sample has the degenerate interval [c, c]', () => {
    expect(describeSample([4, 4, 4, 4, 4], { seed: 't' }).meanCi).toEqual([4, 4]);
  });

  it('is reproducible: the same seed gives the same interval, another seed another', () => {
    // Values whose resampled means rarely coincide, so two streams give different bounds.
    const v = [3.17, 9.02, 1.55, 14.9, 2.31, 2.08, 8.66, 5.43, 11.7, 6.29];
    expect(describeSample(v, { seed: 'a' })).toEqual(describeSample(v, { seed: 'a' }));
    expect(describeSample(v, { seed: 'a' }).meanCi).not.toEqual(describeSample(v, { seed: 'b' }).meanCi);
  });
});

describe('bootstrapInterval', () => {
  it("the mean's interval has the closed-form bootstrap spread: sd = sqrt(sum (x - mean)^2) / n", () => {
    // The bootstrap distribution of the mean has variance (1/n) * (1/n) * sum (x - mean)^2; its
    // 95% percentile interval is about mean ± 1.96 sd for a sample this size.
    const random = seedrandom.alea('sample');
    const x = Array.from({ length: 60 }, () => 10 + 5 * (random.double() + random.double() + random.double() - 1.5));
    const m = meanOf(x);
    const sd = Math.sqrt(x.reduce((s, v) => s + (v - m) ** 2, 0)) / x.length;
    const [lo, hi] = bootstrapInterval(x, meanOf, { seed: 'closed-form', resamples: 20_000 })!;
    expect((hi - lo) / 2 / (1.96 * sd)).toBeGreaterThan(0.95);
    expect((hi - lo) / 2 / (1.96 * sd)).toBeLessThan(1.05);
    expect(lo).toBeLessThan(m);
    expect(hi).toBeGreaterThan(m);
  });

  it('the 95% interval of the mean covers the true mean of a known population about 95% of the time', () => {
    // Exponential population with mean 2 (skewed, like reorg depths): samples of 40.
    const random = seedrandom.alea('coverage');
    let covered = 0;
    const trials = 300;
    for (let t = 0; t < trials; t++) {
      const x = Array.from({ length: 40 }, () => -2 * Math.log(1 - random.double()));
      const [lo, hi] = bootstrapInterval(x, meanOf, { seed: `trial-${t}`, resamples: 1000 })!;
      if (lo <= 2 && 2 <= hi) covered++;
    }
    // The percentile bootstrap runs a little under nominal for skewed data at n = 40.
    expect(covered / trials).toBeGreaterThan(0.88);
    expect(covered / trials).toBeLessThan(0.99);
  });

  it('refuses a bad resample count or level', () => {
    expect(() => bootstrapInterval([1, 2], meanOf, { seed: 'x', resamples: 0 })).toThrow(/resamples/);
    expect(() => bootstrapInterval([1, 2], meanOf, { seed: 'x', level: 1 })).toThrow(/level/);
  });
});

describe('differences', () => {
  it('paired samples that differ by exactly 3 give the interval [3, 3]; unpaired ones a wider one around 3', () => {
    const a = [1, 5, 2, 8, 3, 9, 4, 7];
    const b = a.map((v) => v + 3);
    expect(bootstrapDifference(a, b, meanOf, { seed: 'd', paired: true })).toEqual([3, 3]);
    const [lo, hi] = bootstrapDifference(a, b, meanOf, { seed: 'd', paired: false })!;
    expect(lo).toBeLessThan(3);
    expect(hi).toBeGreaterThan(3);
  });

  it('compareSamples pairs runs by seed when both cells ran the same seeds', () => {
    const a = new Map([
      [1, 10],
      [2, 12],
      [3, 11],
    ]);
    const b = new Map([
      [3, 6],
      [1, 5],
      [2, 7],
    ]);
    const d = compareSamples(a, b, { seed: 'c' });
    expect(d.paired).toBe(true);
    expect(d.meanDiff).toBe(-5);
    expect(d.meanDiffCi![0]).toBeCloseTo(-5, 12);
    expect(d.meanDiffCi![1]).toBeCloseTo(-5, 12);
    const unpaired = compareSamples(a, new Map([...b].slice(0, 2)), { seed: 'c' });
    expect(unpaired.paired).toBe(false);
    expect(unpaired.meanDiff).toBe(5.5 - 11);
  });
});
