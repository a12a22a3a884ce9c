/**
 * From runs to tables: the analysis leaves failed runs out of the statistics but counts and lists
 * them, compares cells seed by seed, corrects every comparison of the sweep together (Holm) before
 * calling one clear, flags cells with fewer runs than their interval needs, and gives the same
 * bytes whatever order the runs finished in; the files say what each run was; merging shards
 * refuses what would count wrong.
 */
import { describe, expect, it } from 'vitest';
import { type SweepRunRecord } from '../campaign/sweepTask';
import { analyseSweep } from './analysis';
import { type Journal, JOURNAL_KIND } from './journal';
import { mergeSweepShards } from './merge';
import { axisSeries, cellsCsv, comparisonsCsv, numericAxes, runsCsv, summaryMarkdown, sweepFiles } from './outputs';
import { type SweepPlan } from './plan';

const plan: SweepPlan = {
  sweep: 't',
  description: 'a test sweep',
  cells: ['sprint=16', 'sprint=64'],
  seeds: [1, 2, 3, 4, 5, 6],
  metrics: ['reorgDepth', 'checkpointLatencyMedianS'],
  compare: [['sprint=64', 'sprint=16']],
  bootstrap: { resamples: 1000, seed: 't' },
  drawn: ['faults[0].at'],
  axes: [{ path: 'params.sprint', name: 'sprint', values: [16, 64] }],
  cellAxes: { 'sprint=16': { 'params.sprint': 16 }, 'sprint=64': { 'params.sprint': 64 } },
  alpha: 0.05,
};
const source = { commit: 'abc', dirty: null };
const build = { version: '0.1.0', source };

function rec(cell: string, seed: number, depth: number, verdict = 'pass'): SweepRunRecord {
  return {
    cell,
    seed,
    scenarioSha256: `${cell}/${seed}`,
    source,
    drawn: { 'faults[0].at': `${seed}m` },
    params: { sprint: cell === 'sprint=16' ? 16 : 64, periodS: 2 },
    faults: [{ index: 0, kind: 'isolateProducer', atS: seed * 60, forS: 30, target: `validator ${seed % 3}` }],
    verdict,
    violation: verdict === 'pass' ? null : { oracle: 'fork-choice', atMs: 1000, node: 'sc-1', message: 'boom, at 1 s' },
    error: null,
    metrics: { reorgDepth: depth, checkpointLatencyMedianS: seed % 2 ? null : 20 + seed },
    traceHash: `0x${seed}`,
    simulatedMs: 60_000,
    events: 10,
    digest: null,
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

  it('compares B − A seed by seed on the seeds where both passed, with a test, an effect size and the direction per seed', () => {
    const c = s.comparisons.find((x) => x.metric === 'reorgDepth')!;
    expect(c).toMatchObject({ a: 'sprint=64', b: 'sprint=16', paired: true, n: 5, lower: 5, higher: 0, equal: 0 });
    // Seeds 1, 2, 4, 5, 6: 16-cell 4 6 7 30 5 against 64-cell 20 40 16 58 12.
    expect(c.meanDiff).toBeCloseTo((4 + 6 + 7 + 30 + 5 - (20 + 40 + 16 + 58 + 12)) / 5, 10);
    expect(c.meanDiffCi![0]).toBeLessThan(c.meanDiff!);
    expect(c.meanDiffCi![1]).toBeGreaterThan(c.meanDiff!);
    // Five differences, all negative: the exact sign-flip p is 2 / 32.
    expect(c.test).toMatchObject({ p: 2 / 32, method: 'sign-flip, exact' });
    expect(c.effectSizeKind).toBe('d_z');
    expect(c.effectSize).toBeLessThan(0);
  });

  it('corrects the family of comparisons with Holm: an uncorrected p below 0.05 is not enough', () => {
    expect(s.method).toMatchObject({ correction: 'Holm', alpha: 0.05, familySize: 2 });
    expect(s.method.family).toBe('every comparison of sweep t: 1 pair of cells × 2 metrics');
    const c = s.comparisons.find((x) => x.metric === 'reorgDepth')!;
    // 0.0625 × 2 (two tests): not clear, whatever its interval says.
    expect(c.pHolm).toBeCloseTo(0.125, 12);
    expect(c.clear).toBe(false);
    expect(s.comparisons.every((x) => !x.clear)).toBe(true);
  });

  it('flags cells with fewer runs than their interval needs, in the summary and the Markdown', () => {
    expect(s.cells[0]!.stats.reorgDepth).toMatchObject({ smallN: true, n: 6 });
    expect(s.smallSamples.map((x) => `${x.cell}/${x.metric}`)).toContain('sprint=16/reorgDepth');
    const md = summaryMarkdown(s);
    expect(md).toContain('**⚠ Small n.**');
    expect(md).toMatch(/\| sprint=16 \| 6 \| 0 \| 5\.5 \| 9\.5 \[[^\]]+\] ⚠ \(\w[\w-]*: needs \d+\) \|/);
  });

  it('gives the same bytes whatever order the runs finished in', () => {
    const shuffled = [...records].reverse();
    expect(sweepFiles(plan, shuffled, analyseSweep(plan, shuffled, build))).toEqual(sweepFiles(plan, records, s));
  });

  it('runs.csv says what every run was: drawn values, faults resolved, parameters, source', () => {
    const [head, first] = runsCsv(plan, records).split('\n');
    expect(head).toBe(
      'cell,seed,verdict,oracle,drawn:faults[0].at,faults[0].kind,faults[0].target,faults[0].atS,faults[0].forS,params.sprint,params.periodS,reorgDepth,checkpointLatencyMedianS,traceHash,commit,uncommitted',
    );
    expect(first).toBe('sprint=16,1,pass,,1m,isolateProducer,validator 1,60,30,16,2,4,,0x1,abc,');
  });

  it('writes CSV for notebooks, Markdown for people and a page that loads nothing', () => {
    expect(cellsCsv(s)).toContain('sprint=64,reorgDepth,blocks,6,1,5,20,29.2,');
    expect(comparisonsCsv(s).split('\n')[0]).toContain('diff_of_medians,');
    expect(comparisonsCsv(s).split('\n')[0]).toContain('median_of_diffs,');
    const md = summaryMarkdown(s);
    expect(md).toContain('## Failed runs');
    expect(md).toContain('drawn afresh for each seed, the same in every cell: `faults[0].at`');
    expect(md).toContain('BCa bootstrap interval (1000 resamples');
    expect(md).toContain('| difference of medians [95% CI] | median of per-seed differences [95% CI] |');
    expect(md).toContain("after Holm's correction over the family: every comparison of sweep t");
    expect(md).toContain('Lockstep 0.1.0 at commit abc');
    const html = sweepFiles(plan, records, s)['report.html']!;
    expect(html).toContain('Content-Security-Policy');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    // Per metric a box plot and a plot against the numeric axis (sprint).
    expect(html.match(/<svg /g)).toHaveLength(4);
    expect(html).toContain('sprint=64, seed 5: 58');
    expect(html).toContain('reorgDepth (blocks) against sprint');
  });

  it('plots a metric against a numeric axis: a point per value at its position', () => {
    expect(numericAxes(s).map((a) => a.name)).toEqual(['sprint']);
    const [line] = axisSeries(s, 'reorgDepth', 'params.sprint');
    expect(line!.points.map((p) => [p.x, p.n])).toEqual([
      [16, 6],
      [64, 5],
    ]);
    const durations = { ...s, axes: [{ path: 'p', name: 'p', values: ['2m', '90s'] }] };
    expect(numericAxes(durations)).toHaveLength(1);
    expect(numericAxes({ ...s, axes: [{ path: 'p', name: 'p', values: ['fast', 'real'] }] })).toHaveLength(0);
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
      header: { kind: JOURNAL_KIND, plan, ...build, sourceFiles: [], shard: { index, count }, ...patch },
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

  it('refuses a shard given twice, another source tree, another plan, another split and a run in two shards', () => {
    expect(() => mergeSweepShards([shard(1, 2, odd), shard(1, 2, [])])).toThrow(/shard 1\/2 is given twice/);
    expect(() =>
      mergeSweepShards([shard(1, 2, odd), shard(2, 2, even, { source: { commit: 'def', dirty: null } })]),
    ).toThrow(/merge shards of one source tree only/);
    expect(() =>
      mergeSweepShards([shard(1, 2, odd), shard(2, 2, even, { source: { commit: 'abc', dirty: '1234abcd' } })]),
    ).toThrow(/at commit abc \+ uncommitted changes 1234abcd but .* at commit abc:/);
    expect(() => mergeSweepShards([shard(1, 2, odd), shard(2, 2, even, { plan: { ...plan, seeds: [1, 2] } })])).toThrow(
      /its plan differs in seeds/,
    );
    expect(() => mergeSweepShards([shard(1, 2, odd), shard(2, 3, even)])).toThrow(/split the seeds the same way/);
    expect(() => mergeSweepShards([shard(1, 2, odd), shard(2, 2, odd)])).toThrow(/is in both shard-1 and shard-2/);
  });
});
