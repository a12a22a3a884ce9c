/**
 * How many runs a cell needs before its 95% interval of the mean can be trusted, from the
 * measured coverage (coverageTable.json, written by scripts/calibrateCoverage.ts): a sample is
 * matched to the calibration population it looks like, and the cell is flagged "small n" when it
 * has fewer runs than that population needs for the interval to cover the true mean at least 90%
 * of the time. The match is read from the sample and leans to the cautious side:
 *
 *  - mostly-one-value: at least half of the values are one value (zeros, or a constant);
 *  - heavy-tailed: |sample skewness| ≥ 1 (a sample's skewness runs low: at 30 runs an exponential
 *    sample reaches 1 four times in five, a lognormal one nineteen in twenty);
 *  - skewed: |sample skewness| ≥ 0.5;
 *  - normal: otherwise (and below three values, where skewness has no estimate).
 */
import { sampleSkewness } from 'simple-statistics';
import COVERAGE_CALIBRATION from './coverageTable.json';

export type Shape = 'normal' | 'skewed' | 'heavy-tailed' | 'mostly-one-value';

/** Coverage the interval must reach for a cell not to be flagged. */
export const COVERAGE_FLOOR = 0.9;

export function sampleShape(values: readonly number[]): Shape {
  const n = values.length;
  if (n === 0) return 'normal';
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  if (Math.max(...counts.values()) * 2 >= n) return 'mostly-one-value';
  if (n < 3) return 'normal';
  const g = Math.abs(sampleSkewness(values as number[]));
  if (g >= 1) return 'heavy-tailed';
  if (g >= 0.5) return 'skewed';
  return 'normal';
}

/**
 * The fewest runs (of those calibrated) from which the measured coverage of a sample of this
 * shape stays at or above the floor; null when even the largest calibrated count falls short.
 */
export function runsNeeded(shape: Shape): number | null {
  const rows = COVERAGE_CALIBRATION.rows.filter((r) => r.population === shape).sort((a, b) => a.n - b.n);
  let need: number | null = null;
  for (let i = rows.length - 1; i >= 0; i--) {
    if (rows[i]!.coverage < COVERAGE_FLOOR) break;
    need = rows[i]!.n;
  }
  return need;
}

/** Whether a sample of n values of this shape has fewer runs than its interval needs. */
export function smallSample(shape: Shape, n: number): boolean {
  const need = runsNeeded(shape);
  return need === null || n < need;
}

/** The calibration as a Markdown table (docs/SWEEPS.md holds it; a test keeps the two equal). */
export function coverageMarkdown(): string {
  const c = COVERAGE_CALIBRATION;
  const ns = [...new Set(c.rows.map((r) => r.n))].sort((a, b) => a - b);
  const pops = [...new Set(c.rows.map((r) => r.population))];
  const cell = (pop: string, n: number) => {
    const r = c.rows.find((x) => x.population === pop && x.n === n)!;
    const pct = (100 * r.coverage).toFixed(1);
    return r.coverage < COVERAGE_FLOOR ? `**${pct}**` : pct;
  };
  return [
    `| population | ${ns.map((n) => `n = ${n}`).join(' | ')} | runs needed |`,
    `| --- | ${ns.map(() => '---:').join(' | ')} | ---: |`,
    ...pops.map((p) => {
      const desc = c.rows.find((r) => r.population === p)!.description;
      const need = runsNeeded(p as Shape);
      return `| ${p}: ${desc} | ${ns.map((n) => cell(p, n)).join(' | ')} | ${need ?? `more than ${ns.at(-1)}`} |`;
    }),
  ].join('\n');
}
