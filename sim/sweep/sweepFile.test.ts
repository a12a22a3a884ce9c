/**
 * Sweep files: the schema and the decoder name the bad field; grids expand in key order with
 * labels; cells listed by hand follow; draws are the same in every cell and differ by seed; a
 * combination the scenario decoder refuses names the cell, the seed and the scenario field; and
 * the written schema is the one the decoder uses.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../cli/provenance';
import { sweepJobs } from './jobs';
import { seedsOfShard } from './plan';
import { cellScenario, decodeSweep, drawnValues, loadSweep } from './sweepFile';
import { publishedSweepSchema } from './sweepSchema';

const SWEEPS = join(PACKAGE_ROOT, 'sweeps');
const here = join(SWEEPS, 'x.json');
const base = { name: 'x', base: 'smoke', seeds: 3 };
const decode = (patch: Record<string, unknown>) => decodeSweep({ ...base, ...patch }, here);
const SRC = { commit: null, dirty: null };

describe('sweep files', () => {
  it('sweeps/sweep.schema.json is the schema the decoder validates with (npm run schema writes it)', () => {
    const published = JSON.parse(readFileSync(join(SWEEPS, 'sweep.schema.json'), 'utf8'));
    expect(published, 'stale: run npm run schema').toEqual(publishedSweepSchema());
  });

  it('every sweep file of sweeps/ validates against it and decodes, every cell and seed included', () => {
    const validate = new Ajv2020({ strict: true }).compile(publishedSweepSchema());
    const files = ['pip5-sprint-length.json', 'checkpoint-latency.json'];
    for (const f of files) {
      const json = JSON.parse(readFileSync(join(SWEEPS, f), 'utf8'));
      expect(validate(json), `${f}: ${JSON.stringify(validate.errors)}`).toBe(true);
      const { sweep } = loadSweep(join(SWEEPS, f));
      expect(sweepJobs(sweep, { index: 1, count: 1 }, SRC)).toHaveLength(sweep.cells.length * sweep.seeds.length);
    }
  });

  it('a grid expands in key order, labelled by the last field name; listed cells follow', () => {
    const s = decode({
      grid: { 'params.sprint': [16, 64], 'params.checkpointBufferTime': ['60s', '5m'] },
      cells: [{ label: 'calm', set: { faults: [] } }],
    });
    expect(s.cells.map((c) => c.label)).toEqual([
      'sprint=16 checkpointBufferTime=60s',
      'sprint=16 checkpointBufferTime=5m',
      'sprint=64 checkpointBufferTime=60s',
      'sprint=64 checkpointBufferTime=5m',
      'calm',
    ]);
    expect(s.compare[0]).toEqual(['sprint=16 checkpointBufferTime=60s', 'sprint=16 checkpointBufferTime=5m']);
    expect(s.seeds).toEqual([1, 2, 3]);
    expect(cellScenario(s, s.cells[3]!, 1).scenario.params).toMatchObject({
      sprint: 64,
      checkpointBufferTimeMs: 300_000,
    });
    expect(decode({}).cells.map((c) => c.label)).toEqual(['base']);
    expect(decode({ seeds: { first: 10, count: 2 } }).seeds).toEqual([10, 11]);
    expect(decode({ seeds: [5, 9] }).seeds).toEqual([5, 9]);
  });

  it('draws are the same in every cell, differ by seed, and stay within their bounds', () => {
    const s = decodeSweep(
      {
        name: 'd',
        base: 'sprint-16',
        seeds: 40,
        grid: { 'params.sprint': [16, 32] },
        draw: {
          'faults[0].at': { uniform: ['10s', '2m'] },
          'network.loss': { uniform: [0, 0.05] },
          'faults[0].validator': { choice: [1, 2, 'inTurn'] },
        },
      },
      here,
    );
    const a = cellScenario(s, s.cells[0]!, 7);
    const b = cellScenario(s, s.cells[1]!, 7);
    expect(a.drawn).toEqual(b.drawn);
    expect(a.scenario.faults[0]!.atMs).toBe(b.scenario.faults[0]!.atMs);
    const ats = s.seeds.map((seed) => cellScenario(s, s.cells[0]!, seed).scenario.faults[0]!.atMs!);
    expect(new Set(ats).size).toBeGreaterThan(30);
    for (const t of ats) {
      expect(t).toBeGreaterThanOrEqual(10_000);
      expect(t).toBeLessThanOrEqual(120_000);
      expect(t % 1000).toBe(0);
    }
    const validators = new Set(s.seeds.map((seed) => drawnValues(s, seed)[2]!.value));
    expect(validators).toEqual(new Set([1, 2, 'inTurn']));
  });

  it('names the bad field of a file', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ seeds: 0 }, /^seeds: /],
      [{ bogus: 1 }, /^bogus: unknown field/],
      [{ grid: { 'params..sprint': [1] } }, /^grid: "params\.\.sprint" is not a scenario field path/],
      [{ grid: { 'params.sprint': [] } }, /^grid\["params\.sprint"\]: expected a non-empty list/],
      [{ metrics: ['nope'] }, /^metrics\[0\]: unknown metric "nope"/],
      [
        { draw: { 'faults[0].at': { uniform: ['5m', '1m'] } } },
        /^draw\["faults\[0\]\.at"\]\.uniform: low must not exceed high/,
      ],
      [{ draw: { 'faults[0].at': { uniform: [1] } } }, /^draw\["faults\[0\]\.at"\]\.uniform: expected \[low, high\]/],
      [{ compare: [['base', 'nope']] }, /^compare\[0\]\[1\]: no cell is labelled "nope"/],
      [{ cells: [{ label: 'a' }, { label: 'a' }] }, /^cells: two cells are labelled "a"/],
      [{ base: 'no-such-scenario' }, /^base: no scenario "no-such-scenario"/],
    ];
    for (const [patch, re] of cases) expect(() => decode(patch), JSON.stringify(patch)).toThrow(re);
  });

  it("a combination the scenario decoder refuses names the cell, the seed and the scenario's field", () => {
    const s = decode({ grid: { 'params.sprint': [16, 7] } });
    expect(() => cellScenario(s, s.cells[1]!, 2)).toThrow(
      /^cell "sprint=7", seed 2: params\.spanDuration: must be a multiple of params\.sprint \(7\)/,
    );
    const f = decode({ set: { 'faults[3].at': '1m' } });
    expect(() => cellScenario(f, f.cells[0]!, 1)).toThrow(
      /^set\["faults\[3\]\.at"\]: faults\[3\] does not exist in the base scenario \(faults has 0 entries\)/,
    );
    const late = decodeSweep(
      { name: 'l', base: 'sprint-16', seeds: 1, draw: { 'faults[0].at': { uniform: ['20m', '30m'] } } },
      here,
    );
    expect(() => sweepJobs(late, { index: 1, count: 1 }, SRC)).toThrow(
      /^cell "base", seed 1 \(drawn: faults\[0\]\.at = \d+m\d*s?\): faults\[0\]\.at: .* never fires/,
    );
  });

  it('a file names itself in its errors; the base is found beside the sweep file or by name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lockstep-sweep-'));
    writeFileSync(join(dir, 'b.json'), readFileSync(join(PACKAGE_ROOT, 'scenarios', 'smoke.json')));
    writeFileSync(
      join(dir, 's.json'),
      JSON.stringify({ name: 's', base: 'b.json', seeds: 2, grid: { 'params.sprint': [16] } }),
    );
    expect(loadSweep(join(dir, 's.json')).sweep.baseFile).toBe(join(dir, 'b.json'));
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ name: 's', base: 'b.json', seeds: -1 }));
    expect(() => loadSweep(join(dir, 'bad.json'))).toThrow(/bad\.json: seeds: /);
  });

  it('docs/SWEEPS.md documents every field of the schema, and its example decodes with every cell and seed', () => {
    const doc = readFileSync(join(PACKAGE_ROOT, 'docs', 'SWEEPS.md'), 'utf8');
    for (const field of Object.keys(publishedSweepSchema().properties as object))
      expect(doc, field).toContain(`| \`${field}\` |`);
    const example = /```json\n([\s\S]*?)```/.exec(doc)![1]!;
    const s = decodeSweep(JSON.parse(example), here);
    expect(s.cells.map((c) => c.label)).toEqual([
      'checkpointBufferTime=2m',
      'checkpointBufferTime=5m',
      'checkpointBufferTime=10m',
      'no outage',
    ]);
    expect(sweepJobs(s, { index: 1, count: 1 }, SRC)).toHaveLength(80);
  });

  it('comparisons declared by axis: every value against one, the other axes held', () => {
    const s = decode({
      seeds: 2,
      grid: { 'params.checkpointBufferTime': ['2m', '5m'], 'params.parentConfirmations': [2, 6] },
      compare: [
        { axis: 'params.checkpointBufferTime', against: '2m' },
        { axis: 'parentConfirmations', against: 6 },
      ],
    });
    expect(s.compare).toEqual([
      ['checkpointBufferTime=2m parentConfirmations=2', 'checkpointBufferTime=5m parentConfirmations=2'],
      ['checkpointBufferTime=2m parentConfirmations=6', 'checkpointBufferTime=5m parentConfirmations=6'],
      ['checkpointBufferTime=2m parentConfirmations=6', 'checkpointBufferTime=2m parentConfirmations=2'],
      ['checkpointBufferTime=5m parentConfirmations=6', 'checkpointBufferTime=5m parentConfirmations=2'],
    ]);
    expect(s.axes.map((a) => a.name)).toEqual(['checkpointBufferTime', 'parentConfirmations']);
    expect(s.cells[3]!.axisValues).toEqual({ 'params.checkpointBufferTime': '5m', 'params.parentConfirmations': 6 });
    expect(() =>
      decode({ seeds: 1, grid: { 'params.sprint': [16, 32] }, compare: [{ axis: 'params.period', against: 1 }] }),
    ).toThrow(/^compare\[0\]\.axis: "params\.period" is not an axis of the grid; axes: params\.sprint/);
    expect(() =>
      decode({ seeds: 1, grid: { 'params.sprint': [16, 32] }, compare: [{ axis: 'sprint', against: 64 }] }),
    ).toThrow(/^compare\[0\]\.against: 64 is not a value of params\.sprint; values: 16, 32/);
    expect(() =>
      decode({
        seeds: 1,
        grid: { 'params.sprint': [16, 32] },
        compare: [['sprint=16', 'sprint=32'], { axis: 'sprint', against: 16 }],
      }),
    ).toThrow(/compared twice/);
  });

  it('shards split the seeds, every cell of a seed in one shard', () => {
    expect(seedsOfShard([1, 2, 3, 4, 5], { index: 2, count: 2 })).toEqual([2, 4]);
    const s = decode({ seeds: 5, grid: { 'params.sprint': [16, 32] } });
    const jobs = sweepJobs(s, { index: 1, count: 2 }, SRC);
    expect(jobs.map((j) => `${j.seed}:${j.cell}`)).toEqual([
      '1:sprint=16',
      '1:sprint=32',
      '3:sprint=16',
      '3:sprint=32',
      '5:sprint=16',
      '5:sprint=32',
    ]);
  });
});
