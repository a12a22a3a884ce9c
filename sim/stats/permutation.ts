/**
 * Permutation tests of "no difference" for a comparison of two cells, exact under their null
 * hypothesis whatever the sample size (unlike a bootstrap interval, whose coverage falls short
 * at a few runs): the p-values a study's "clear" calls are made from, after Holm's correction.
 *
 * - Paired (the same seeds in both cells): the sign-flip test of the per-seed differences d. Under
 *   the null that each difference is as likely to be −d as d (the two cells are exchangeable
 *   within a seed), every assignment of signs is equally likely; p is the share of assignments
 *   whose |Σ d| is at least the observed one. Zero differences cannot change sign and are left
 *   out (they do not change p). Exact (all 2^m assignments) up to 2^22; Monte Carlo above, with
 *   p = (k + 1) / (N + 1) so that it is never 0 (Phipson & Smyth 2010) and its error stated.
 * - Unpaired: simple-statistics' permutation test of the difference of means (random
 *   reassignments of the pooled runs to the two cells), with the same (k + 1) / (N + 1).
 */
import seedrandom from 'seedrandom';
import { permutationTest } from 'simple-statistics';

export interface TestResult {
  /** Two-sided p-value. */
  p: number;
  method: 'sign-flip, exact' | 'sign-flip, Monte Carlo' | 'permutation, Monte Carlo';
  /** Assignments counted (2^m when exact). */
  permutations: number;
  /** Monte Carlo standard error of p (0 when exact). */
  mcError: number;
}

export interface PermutationOptions {
  seed: string;
  /** Random assignments when the test is not exact (default 20,000). */
  resamples?: number;
  /** Enumerate every assignment up to this many non-zero differences (default 22). */
  exactUpTo?: number;
}

export const DEFAULT_PERMUTATIONS = 20_000;

const random = (seed: string) => {
  const prng = seedrandom.alea(`permutation/${seed}`);
  return () => prng.double();
};

export function signFlipTest(diffs: readonly number[], o: PermutationOptions): TestResult {
  const d = diffs.filter((x) => x !== 0);
  const m = d.length;
  if (m === 0) return { p: 1, method: 'sign-flip, exact', permutations: 1, mcError: 0 };
  const total = d.reduce((s, x) => s + x, 0);
  const scale = d.reduce((s, x) => s + Math.abs(x), 0);
  // Sums that equal the observed one up to rounding count as "at least as extreme".
  const bar = Math.abs(total) - 1e-9 * scale;
  if (m <= (o.exactUpTo ?? 22)) {
    // Every sign vector, in Gray-code order: one sign changes per step.
    const sign = new Int8Array(m).fill(1);
    let sum = total;
    let count = Math.abs(sum) >= bar ? 1 : 0;
    const all = 2 ** m;
    for (let k = 1; k < all; k++) {
      const bit = 31 - Math.clz32(k & -k);
      sum -= 2 * sign[bit]! * d[bit]!;
      sign[bit] = -sign[bit]! as 1 | -1;
      if (Math.abs(sum) >= bar) count++;
    }
    return { p: count / all, method: 'sign-flip, exact', permutations: all, mcError: 0 };
  }
  const n = o.resamples ?? DEFAULT_PERMUTATIONS;
  const r = random(o.seed);
  let count = 0;
  for (let k = 0; k < n; k++) {
    let sum = 0;
    for (const x of d) sum += r() < 0.5 ? -x : x;
    if (Math.abs(sum) >= bar) count++;
  }
  const p = (count + 1) / (n + 1);
  return { p, method: 'sign-flip, Monte Carlo', permutations: n, mcError: Math.sqrt((p * (1 - p)) / n) };
}

export function twoSampleTest(a: readonly number[], b: readonly number[], o: PermutationOptions): TestResult {
  const n = o.resamples ?? DEFAULT_PERMUTATIONS;
  if (a.length === 0 || b.length === 0)
    return { p: 1, method: 'permutation, Monte Carlo', permutations: 0, mcError: 0 };
  const share = permutationTest(a as number[], b as number[], 'two_side', n, random(o.seed));
  const p = (Math.round(share * n) + 1) / (n + 1);
  return { p, method: 'permutation, Monte Carlo', permutations: n, mcError: Math.sqrt((p * (1 - p)) / n) };
}
