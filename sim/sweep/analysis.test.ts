/**
 * From runs to tables: the analysis leaves failed runs out of the statistics but counts and lists
 * them, compares cells seed by seed, and gives the same bytes whatever order the runs finished
 * in; the files are what notebooks and people read; merging shards refuses what would count wrong.
 */
import { describe, expect, it } from 'vitest';
import { type SweepRunRecord } from '../campaign/sweepTask';
import { analyseSweep } from './analysis';
import { type Journal, JOURNAL_KIND } from './journal';
import { mergeSweepShards } from './merge';
import { cellsCsv, runsCsv, summaryMarkdown, sweepFiles } from './outputs';
import { type SweepPlan } from './plan';

const plan: SweepPlan = {
  sweep: 't',
  description: 'a test sweep',
  cells: ['sprint=16', 'sprint=64'],
  seeds: [1, 2, 3, 4, 5, 6],
  metrics: ['reorgDepth', 'checkpointLatencyMedianS'],
  compare: [['sprint=64', 'sprint=16']],
  bootstrap: { resamples: 500, seed: 't' },
  drawn: ['faults[0].at'],
};
const build = { version: '0.1.0', commit: 'abc' };

function rec(cell: string, seed: number, depth: number, verdict = 'pass'): SweepRunRecord {
  return {
    cell,
    seed,
    scenarioSha256: `${cell}/${seed}`,
    verdict,
    violation: verdict === 'pass' ? null : { oracle: 'fork-choice', atMs: 1000, node: 'sc-1', message: 'boom, at 1 s' },
    error: null,
    metrics: { reorgDepth: depth, checkpointLatencyMedianS: seed % 2 ? null : 20 + seed },
    traceHash: `0x${seed}`,
    simulatedMs: 60_000,
    events: 10,
  };
}

const records = [
  ...[4, 6, 5, 7, 30, 5].map((d, i) => rec('sprint=16', i + 1, d)),
  ...[20, 40, 33, 16, 58, 12].map((d, i) => rec('sprint=64', i + 1, d, i === 2 ? 'safety' : 'pass')),
];

describe('sweep analysis', () => {
  const s = analyseSweep(plan, records, build);

  it('counts runs and failed runs per cell; statistics leave failed runs and missing values out', () => {
    const [a, b] = s.cells;
    expect(a).toMatchObject({ label: 'sprint=16', runs: 6, failed: 0 });
    expect(b).toMatchObject({
      label: 'sprint=64',
      runs: 6,
      failed: 1,
      failures: [{ seed: 3, verdict: 'safety', message: 'fork-choice: boom, at 1 s' }],
    });
    expect(a!.stats.reorgDepth).toMatchObject({ n: 6, median: 5.5, mean: 57 / 6, min: 4, max: 30 });
    expect(b!.stats.reorgDepth).toMatchObject({ n: 5, median: 20, mean: 146 / 5 });
    expect(a!.stats.checkpointLatencyMedianS!.n).toBe(3);
    expect(s).toMatchObject({ complete: true, runs: 12, runsExpected: 12 });
  });

  it('compares B − A seed by seed on the seeds where both passed', () => {
    const c = s.comparisons.find((x) => x.metric === 'reorgDepth')!;
    expect(c).toMatchObject({ a: 'sprint=64', b: 'sprint=16', paired: true, n: 5 });
    // Seeds 1, 2, 4, 5, 6: 16-cell 4 6 7 30 5 against 64-cell 20 40 16 58 12.
    expect(c.meanDiff).toBeCloseTo((4 + 6 + 7 + 30 + 5 - (20 + 40 + 16 + 58 + 12)) / 5, 10);
    expect(c.meanDiffCi![0]).toBeLessThan(c.meanDiff!);
    expect(c.meanDiffCi![1]).toBeGreaterThan(c.meanDiff!);
  });

  it('gives the same bytes whatever order the runs finished in', () => {
    const shuffled = [...records].reverse();
    expect(sweepFiles(plan, shuffled, analyseSweep(plan, shuffled, build))).toEqual(sweepFiles(plan, records, s));
  });

  it('writes CSV for notebooks, Markdown for people and a page that loads nothing', () => {
    expect(runsCsv(plan, records).split('\n')[0]).toBe(
      'cell,seed,verdict,oracle,reorgDepth,checkpointLatencyMedianS,traceHash',
    );
    expect(runsCsv(plan, records).split('\n')[1]).toBe('sprint=16,1,pass,,4,,0x1');
    expect(cellsCsv(s)).toContain('sprint=64,reorgDepth,blocks,6,1,5,20,29.2,');
    const md = summaryMarkdown(s);
    expect(md).toContain('| sprint=16 | 6 | 0 | 5.5 | 9.5 [');
    expect(md).toContain('## Failed runs');
    expect(md).toContain('drawn afresh for each seed, the same in every cell: `faults[0].at`');
    const html = sweepFiles(plan, records, s)['report.html']!;
    expect(html).toContain('Content-Security-Policy');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html.match(/<svg /g)).toHaveLength(2);
    expect(html).toContain('sprint=64, seed 5: 58');
  });

  it('an incomplete set of runs says so', () => {
    const part = analyseSweep(plan, records.slice(0, 7), build);
    expect(part).toMatchObject({ complete: false, runs: 7, runsExpected: 12 });
    expect(summaryMarkdown(part)).toContain('**incomplete**');
  });
});

describe('merging sweep shards', () => {
  const shard = (index: number, count: number, rs: SweepRunRecord[], patch: Partial<Journal['header']> = {}) => ({
    dir: `shard-${index}`,
    journal: {
      header: { kind: JOURNAL_KIND, plan, ...build, shard: { index, count }, ...patch },
      records: rs,
    } as Journal,
  });
  const odd = records.filter((r) => r.seed % 2 === 1);
  const even = records.filter((r) => r.seed % 2 === 0);

  it('unites the runs of all shards and names the ones missing', () => {
    const m = mergeSweepShards([shard(2, 2, even), shard(1, 2, odd)]);
    expect(m.records).toHaveLength(12);
    expect(m.missingShards).toEqual([]);
    expect(sweepFiles(plan, m.records, analyseSweep(plan, m.records, build))).toEqual(
      sweepFiles(plan, records, analyseSweep(plan, records, build)),
    );
    expect(mergeSweepShards([shard(1, 3, odd)]).missingShards).toEqual([2, 3]);
  });

  it('refuses a shard given twice, another build, another plan, another split and a run in two shards', () => {
    expect(() => mergeSweepShards([shard(1, 2, odd), shard(1, 2, [])])).toThrow(/shard 1\/2 is given twice/);
    expect(() => mergeSweepShards([shard(1, 2, odd), shard(2, 2, even, { commit: 'def' })])).toThrow(
      /merge shards of one build only/,
    );
    expect(() => mergeSweepShards([shard(1, 2, odd), shard(2, 2, even, { plan: { ...plan, seeds: [1, 2] } })])).toThrow(
      /its plan differs in seeds/,
    );
    expect(() => mergeSweepShards([shard(1, 2, odd), shard(2, 3, even)])).toThrow(/split the seeds the same way/);
    expect(() => mergeSweepShards([shard(1, 2, odd), shard(2, 2, odd)])).toThrow(/is in both shard-1 and shard-2/);
  });
});
