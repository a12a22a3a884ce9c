/**
 * The figure markers of docs/STUDIES.md: every kind of figure read from a summary, an unknown one
 * refused, and a page's markers and block rewritten for their study only.
 */
import { describe, expect, it } from 'vitest';
import { type SweepRunRecord } from '../campaign/sweepTask';
import { analyseSweep } from './analysis';
import { type SweepPlan } from './plan';
import { figure, pageBlock, renderStudy, studyBlock } from './studyPage';

describe('figure markers', () => {
  const plan: SweepPlan = {
    sweep: 't',
    description: '',
    cells: ['a', 'b c'],
    seeds: [1, 2, 3, 4],
    metrics: ['reorgs'],
    compare: [['a', 'b c']],
    bootstrap: { resamples: 1000, seed: 't' },
    drawn: [],
    axes: [],
    cellAxes: {},
    alpha: 0.05,
  };
  const rec = (cell: string, seed: number, v: number) =>
    ({ cell, seed, verdict: 'pass', violation: null, metrics: { reorgs: v } }) as unknown as SweepRunRecord;
  const s = analyseSweep(
    plan,
    [1, 2, 3, 4].flatMap((seed) => [rec('a', seed, seed), rec('b c', seed, seed + (seed === 1 ? 0 : 2))]),
    { version: '0', source: { commit: 'abc', dirty: null } },
  );

  it('reads cells, comparisons and the study as a whole', () => {
    expect(figure(s, 'mean reorgs a')).toBe('2.5');
    expect(figure(s, 'mean reorgs "b c"')).toBe('4');
    expect(figure(s, 'nonzero reorgs a')).toBe('4 of 4');
    expect(figure(s, 'diff reorgs a "b c"')).toBe('1.5');
    expect(figure(s, 'updown reorgs a "b c"')).toBe('3 higher, 0 lower, 1 equal');
    expect(figure(s, 'call reorgs a "b c"')).toBe('not clear');
    expect(figure(s, 'p reorgs a "b c"')).toBe('0.250');
    expect(figure(s, 'runs')).toBe('8');
    expect(figure(s, 'source')).toBe('commit abc');
    expect(() => figure(s, 'mean nope a')).toThrow(/no metric "nope"/);
    expect(() => figure(s, 'mean reorgs z')).toThrow(/no cell "z"/);
    expect(() => figure(s, 'wobble reorgs a')).toThrow(/unknown figure "wobble"/);
  });

  it('rewrites the markers of its study and its block, and leaves other studies alone', () => {
    const before =
      'x <!--fig t mean reorgs a-->99<!--/fig--> y <!--fig other mean reorgs a-->7<!--/fig-->\n<!-- generated:t:begin -->\nold\n<!-- generated:t:end -->\n';
    const after = renderStudy(before, 't', s);
    expect(after).toContain('<!--fig t mean reorgs a-->2.5<!--/fig-->');
    expect(after).toContain('<!--fig other mean reorgs a-->7<!--/fig-->');
    expect(pageBlock(after, 't')).toBe(studyBlock('t', s));
    expect(() => renderStudy('no block', 't', s)).toThrow(/has no <!-- generated:t:begin -->/);
  });
});
