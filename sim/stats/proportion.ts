/**
 * The Wilson score interval of a proportion k / n (Wilson 1927; Agresti & Coull 1998 recommend it
 * over the normal "Wald" interval, which collapses to [0, 0] or [1, 1] at k = 0 or k = n and
 * undercovers at small n). Used for shares of runs: how many reorged at all, how many failed.
 */
import { type Interval, DEFAULT_LEVEL } from './bootstrap';
import { normalQuantile } from './normal';

export function wilsonInterval(k: number, n: number, level = DEFAULT_LEVEL): Interval {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`wilsonInterval: expected n ≥ 1, got ${n}`);
  if (!Number.isSafeInteger(k) || k < 0 || k > n)
    throw new RangeError(`wilsonInterval: expected 0 ≤ k ≤ n, got k = ${k}, n = ${n}`);
  const z = normalQuantile((1 + level) / 2);
  const p = k / n;
  const z2n = (z * z) / n;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z / (1 + z2n)) * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n));
  // At k = 0 (or n) the end is exactly 0 (or 1); rounding must not move it.
  return [k === 0 ? 0 : Math.max(0, centre - half), k === n ? 1 : Math.min(1, centre + half)];
}
