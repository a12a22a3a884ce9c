/**
 * Holm's step-down correction (Holm 1979) of a family of p-values: sorted ascending, the i-th
 * smallest (1-based) of m is multiplied by m − i + 1, and the adjusted values are made
 * non-decreasing in that order and capped at 1. A comparison is "clear" when its adjusted p is
 * below the family-wise error rate (0.05): then the chance that the family holds even one false
 * "clear" is at most 5%, whatever the dependence between the comparisons.
 */
export function holmAdjust(p: readonly number[]): number[] {
  const m = p.length;
  const order = p.map((v, i) => ({ v, i })).sort((x, y) => x.v - y.v || x.i - y.i);
  const out = new Array<number>(m);
  let running = 0;
  order.forEach(({ v, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * v));
    out[i] = running;
  });
  return out;
}
