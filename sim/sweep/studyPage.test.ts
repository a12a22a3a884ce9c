/**
 * docs/STUDIES.md says what its studies' results say: every figure the prose quotes is a marker
 * naming where it comes from, and equals what the study's summary (docs/studies/NAME.summary.json,
 * written with the page by `npm run study`) gives; each generated block is the block that summary
 * renders. And the markers themselves: every kind of figure, an unknown one refused.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../cli/provenance';
import { type SweepRunRecord } from '../campaign/sweepTask';
import { type SweepSummary, analyseSweep } from './analysis';
import { type SweepPlan } from './plan';
import { figure, pageBlock, pageFigures, renderStudy, studyBlock } from './studyPage';

const page = readFileSync(join(PACKAGE_ROOT, 'docs', 'STUDIES.md'), 'utf8');
const studies = [...page.matchAll(/<!-- generated:(\S+):begin -->/g)].map((m) => m[1]!);

describe('docs/STUDIES.md', () => {
  it('has studies, each with the summary it was made from', () => {
    expect(studies.length).toBeGreaterThan(0);
    for (const s of studies)
      expect(existsSync(join(PACKAGE_ROOT, 'docs', 'studies', `${s}.summary.json`)), s).toBe(true);
  });

  for (const study of studies)
    it(`${study}: the generated block and every figure of the prose equal the summary`, () => {
      const summary = JSON.parse(
        readFileSync(join(PACKAGE_ROOT, 'docs', 'studies', `${study}.summary.json`), 'utf8'),
      ) as SweepSummary;
      expect(pageBlock(page, study)).toBe(studyBlock(study, summary));
      const figures = pageFigures(page, study, summary);
      expect(figures.length, 'the prose quotes its figures through markers').toBeGreaterThan(0);
      for (const f of figures) expect(f.written, f.expr).toBe(f.value);
    });
});

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

  it('a marker is one line: an opening left in the prose cannot swallow the text up to a later marker', () => {
    const stray = `a <!--fig t mean reorgs\nb"-->c\nprose kept <!--fig t mean reorgs a-->1<!--/fig-->\n<!-- generated:t:begin -->\n<!-- generated:t:end -->\n`;
    const after = renderStudy(stray, 't', s);
    expect(after).toContain('prose kept <!--fig t mean reorgs a-->2.5<!--/fig-->');
    expect(pageFigures(after, 't', s)).toHaveLength(1);
  });
});
