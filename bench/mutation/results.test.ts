import { describe, expect, it } from 'vitest';
import { mutantKey } from './population';
import { type MutationParams, type MutantRecord, RESULT_KIND, type ShardResult, mergeResults } from './results';
import { renderReport } from './render';

const params: MutationParams = {
  sampleSize: 4,
  seed: 1,
  targets: ['src/modules', 'src/consensus'],
  mutators: ['EqualityOperator'],
  populationSize: 100,
  populationHash: 'ab'.repeat(32),
  campaign: { scenarios: ['scenarios/smoke.json'], swarmSeeds: 2, swarmDurationMs: 60_000 },
  unitStage: true,
};

function record(index: number, over: Partial<MutantRecord> = {}): MutantRecord {
  const base = {
    file: index % 2 ? 'src/consensus/tendermint.ts' : 'src/modules/bank/msgs.ts',
    start: { line: 10 + index, column: 4 },
    end: { line: 10 + index, column: 12 },
    mutator: 'EqualityOperator',
    replacement: 'a <= b',
  };
  return {
    ...base,
    key: mutantKey(base),
    folder: index % 2 ? 'src/consensus' : 'src/modules',
    original: 'a < b',
    index,
    unit: { status: 'killed', strykerStatus: 'Killed', detail: '' },
    oracles: {
      status: 'killed',
      kind: 'safety',
      oracle: 'service-safety',
      run: 'smoke',
      via: 'scenario',
      message: '',
      reached: true,
      static: false,
      runs: 1,
    },
    ...over,
  };
}

function shard(index: number, over: Partial<ShardResult> = {}): ShardResult {
  return {
    kind: RESULT_KIND,
    version: '0.1.0',
    commit: 'c'.repeat(40),
    params,
    shard: { index, count: 2 },
    interrupted: false,
    baseline: [],
    control: { key: 'control', oracles: record(9).oracles },
    mutants: [record(index - 1), record(index + 1)],
    wall: { unitMs: 1000 * index, oraclesMs: 500, totalMs: 1500 * index },
    cpu: null,
    machine: { cpus: 2, model: 'cpu', loadStart: [0, 0, 0], loadEnd: [0, 0, 0] },
    ...over,
  };
}

describe('merging shard results', () => {
  it('joins the mutants of every shard, in sample order, and keeps the longest wall time', () => {
    const m = mergeResults([
      { file: 'b', value: shard(2) },
      { file: 'a', value: shard(1) },
    ]);
    expect(m.mutants.map((x) => x.index)).toEqual([0, 1, 2, 3]);
    expect(m.missingShards).toEqual([]);
    expect(m.wall.totalMs).toBe(3000);
  });

  it('names the shards that are missing', () => {
    expect(mergeResults([{ file: 'a', value: shard(1) }]).missingShards).toEqual([2]);
  });

  it('refuses a shard given twice, other commits, other parameters, other shard counts, partial shards', () => {
    expect(() =>
      mergeResults([
        { file: 'a', value: shard(1) },
        { file: 'b', value: shard(1) },
      ]),
    ).toThrow('shard 1/2 is given twice (a and b)');
    expect(() =>
      mergeResults([
        { file: 'a', value: shard(1) },
        { file: 'b', value: shard(2, { commit: 'd'.repeat(40) }) },
      ]),
    ).toThrow('merge shards of one commit only');
    expect(() =>
      mergeResults([
        { file: 'a', value: shard(1) },
        { file: 'b', value: shard(2, { params: { ...params, seed: 2 } }) },
      ]),
    ).toThrow('b: ran with other parameters than a (seed: 2 vs 1)');
    expect(() =>
      mergeResults([
        { file: 'a', value: shard(1) },
        { file: 'b', value: shard(2, { shard: { index: 2, count: 3 } }) },
      ]),
    ).toThrow('shards of one sample split it the same way');
    expect(() => mergeResults([{ file: 'a', value: shard(1, { interrupted: true }) }])).toThrow('was interrupted');
  });

  it('refuses what is not a shard, and a merged result', () => {
    expect(() => mergeResults([{ file: 'x.json', value: { seeds: 3 } }])).toThrow(
      'x.json: not a mutation bench result',
    );
    const merged = mergeResults([{ file: 'a', value: shard(1) }]);
    expect(() => mergeResults([{ file: 'm', value: merged }])).toThrow('m: is already a merged result');
  });
});

describe('the report', () => {
  const survivor = (i: number, reached: boolean) =>
    record(i, {
      oracles: {
        status: 'survived',
        kind: null,
        oracle: null,
        run: null,
        via: null,
        message: '',
        reached,
        static: false,
        runs: 3,
      },
    });
  const r = shard(1, {
    shard: { index: 1, count: 1 },
    mutants: [
      record(0),
      record(1, { oracles: { ...record(1).oracles, kind: 'crash', oracle: null } }),
      survivor(2, true),
      survivor(3, false),
      record(4, { unit: { status: 'survived', strykerStatus: 'Survived', detail: '' } }),
    ],
  });

  it('counts per folder and gives the share of unit-detected mutants the oracles detect', () => {
    const { text, unjudged } = renderReport(r, {
      judgements: { [record(2).key]: { verdict: 'equivalent', original: 'a < b', reason: 'same order' } },
    });
    // src/modules: records 0, 2, 4 (unit detects 0 and 2; the oracles 0 and 4).
    expect(text).toMatch(
      /\| src\/modules +\| 3 +\| 2 +\| 0 +\| 0 +\| 2 +\| 0 +\| 1 +\| 0 +\| 1\/2 = 50% +\| 1\/2 = 50% +\|/,
    );
    // total: unit detects 0, 1, 2, 3; the oracles 0 and 1 of them, one by an oracle's verdict.
    expect(text).toMatch(/\| total +\| 5 +\| 4 +\| 0 +\| 0 +\| 3 +\| 0 +\| 2 +\| 1 +\| 2\/4 = 50% +\| 1\/4 = 25% +\|/);
    expect(text).toContain('equivalent: same order');
    // Of the three the oracle stage detected (0, 1 by a crash, 4), two by an oracle's verdict.
    expect(text).toContain('kills by an oracle verdict: 2 of the 3 mutants the oracle stage detected (67%)');
    expect(text).toContain('judged: 1 equivalent, 0 gaps, 1 unjudged');
    expect(unjudged).toBe(1);
  });

  it('shows a judgement whose code changed as unjudged', () => {
    const { text, unjudged } = renderReport(r, {
      judgements: { [record(2).key]: { verdict: 'gap', original: 'a > b', rule: 'bank.send.debit' } },
    });
    expect(text).toContain('unjudged (the judged code changed)');
    expect(unjudged).toBe(2);
  });
});
