/**
 * The standard normal distribution function and its inverse, from simple-statistics:
 * `errorFunction` (absolute error below 1.2e-7) gives the distribution function, and `probit`
 * gives the quantile — but `probit` alone is off by up to 3e-3 in z (1.9572 for 1.9600 at
 * 0.975), enough to shift a 95% interval's ends. Two Newton steps on the distribution function
 * bring it to the accuracy of `errorFunction`.
 */
import { errorFunction, probit } from 'simple-statistics';

const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);

/** Φ(x): the probability that a standard normal value is at most x. */
export function normalCdf(x: number): number {
  return 0.5 * (1 + errorFunction(x / Math.SQRT2));
}

/** Φ⁻¹(p) for 0 < p < 1. */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile: expected 0 < p < 1, got ${p}`);
  let z = probit(p);
  for (let i = 0; i < 2; i++) z -= (normalCdf(z) - p) / (INV_SQRT_2PI * Math.exp((-z * z) / 2));
  return z;
}
