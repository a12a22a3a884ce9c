import { describe, expect, it } from 'vitest';
import { downsampleMax, integerAxis, plot } from './terminal';

describe('terminal plots', () => {
  it("downsampling keeps each bucket's maximum, so a lone spike survives", () => {
    const xs = Array.from({ length: 120 }, (_, i) => (i === 61 ? 8 : 0));
    const d = downsampleMax(xs, 70);
    expect(d).toHaveLength(70);
    expect(Math.max(...d)).toBe(8);
    expect(downsampleMax([1, 5, 2, 7, 3, 0], 3)).toEqual([5, 7, 3]);
    expect(downsampleMax([1, 2], 10)).toEqual([1, 2]);
  });

  it('axes of counts have whole-number labels and no more rows than the values need', () => {
    expect(integerAxis(3, 4)).toEqual({ rows: 3, top: 3 });
    expect(integerAxis(8, 4)).toEqual({ rows: 4, top: 8 });
    expect(integerAxis(170, 8)).toEqual({ rows: 8, top: 176 });
    for (const [max, rows] of [
      [3, 4],
      [7, 4],
      [170, 8],
      [21, 5],
    ] as const) {
      const a = integerAxis(max, rows);
      expect(a.top % a.rows).toBe(0);
      expect(a.top).toBeGreaterThanOrEqual(max);
      expect(a.rows).toBeLessThanOrEqual(rows);
    }
    const text = plot('reorg depth', [[0, 0, 3, 0, 0, 1, 0]], 4, 80);
    const labels = text
      .split('\n')
      .slice(1)
      .filter((l) => /[┤┼]/.test(l))
      .map((l) => l.split(/[┤┼]/)[0]!.trim());
    expect(labels).toEqual(['3', '2', '1', '0']);
  });

  it('fits the width it is given, and says so when there is nothing to plot', () => {
    const series = Array.from({ length: 500 }, (_, i) => i);
    for (const columns of [40, 80, 160]) {
      const widest = Math.max(
        ...plot('t', [series], 5, columns)
          .split('\n')
          .map((l) => [...l].length),
      );
      expect(widest).toBeLessThanOrEqual(columns);
      expect(widest).toBeGreaterThan(columns - 12);
    }
    expect(plot('reorgs', [[0, 0, 0]], 4, 80)).toBe('reorgs\n  (nothing to plot)\n');
  });
});
