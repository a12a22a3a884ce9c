import { describe, expect, it } from 'vitest';
import { heightBand } from './aggregate/heightBand';
import { EVERY_NODE_UP_TO } from './aggregate/threshold';
import { downsampleMax, faultItems, integerAxis, plot, terminalSummary, wrapped } from './terminal';
import { syntheticRun } from './testing/syntheticRun';

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

describe('terminal summary at a hundred nodes', () => {
  const large = syntheticRun(105);
  const text = terminalSummary(large.scenario, large.result, { wallMs: 10_000, columns: 100 });
  const lines = text.split('\n');

  it('plots the band of heights, not a line per node', () => {
    const title = lines.indexOf('sidechain height across 105 nodes (highest, median, lowest)');
    expect(title).toBeGreaterThan(0);
    expect(text).not.toContain('sidechain height per node');
    // What is plotted is the band: the highest, the median and the lowest head at each sample.
    const r = large.result;
    const band = heightBand(
      r.samples.timeMs,
      r.samples.sidechainHeight,
      r.sidechain.nodes.map((n) => n.node),
    );
    expect(band.min.some((v, i) => v < band.max[i]! - 10)).toBe(true);
    expect(text).toContain(plot(lines[title]!, [band.max, band.median, band.min], 8, 100));
  });

  it('names who shares a fork tree and who fell behind, and the faults of a wave once, as ranges', () => {
    expect(text).toContain(
      'nodes       105 sidechain nodes, 5 distinct fork trees: 67 (sc-4–sc-70), 18 (sc-88–sc-105),\n            16 (sc-71–sc-78, sc-80–sc-87), 3 (sc-1–sc-3), 1 (sc-79)',
    );
    expect(text).toMatch(
      /^behind {6}38 nodes fell 2\+ blocks behind the highest head: sc-1–sc-3, sc-71–sc-105; furthest 97\n {12}blocks: sc-88–sc-105 at 365 s$/m,
    );
    expect(text).toContain('faults      crash@150s(×34: sc-71–sc-87, svc-71–svc-87),');
    expect(text).toContain('crash@200s(×6: sc-1–sc-3, svc-1–svc-3)');
    expect(text).not.toContain('svc-72');
  });

  it('every line but the plots fits the width', () => {
    for (const columns of [80, 100, 140]) {
      const t = terminalSummary(large.scenario, large.result, { wallMs: 10_000, columns });
      for (const l of t.split('\n')) expect([...l].length, l).toBeLessThanOrEqual(columns);
    }
  });

  it(`up to ${EVERY_NODE_UP_TO} nodes: a line per node and no node lines; a single fault reads as before`, () => {
    const small = syntheticRun(EVERY_NODE_UP_TO);
    const t = terminalSummary(small.scenario, small.result, { wallMs: 10_000, columns: 100 });
    expect(t).toContain('sidechain height per node');
    expect(t).not.toMatch(/^nodes /m);
    expect(t).not.toMatch(/^behind /m);
    expect(faultItems(small.scenario, { ...small.result, faultsFired: small.result.faultsFired.slice(0, 1) })).toEqual([
      `crash@150s(${small.result.faultsFired[0]!.detail})`,
    ]);
    const over = syntheticRun(EVERY_NODE_UP_TO + 1);
    expect(terminalSummary(over.scenario, over.result, { wallMs: 1, columns: 100 })).toMatch(/^nodes {7}17 sidechain/m);
  });

  it('wraps a list under its label', () => {
    expect(wrapped('faults', ['aaaa', 'bbbb', 'cccc'], 30)).toBe('faults      aaaa, bbbb, cccc');
    expect(wrapped('faults', ['aaaaaaaaaa', 'bbbbbbbbbb', 'cccc'], 30)).toBe(
      'faults      aaaaaaaaaa,\n            bbbbbbbbbb, cccc',
    );
  });
});
