/**
 * `lockstep sweep` as a user runs it, in a CI log (stderr not a terminal): Ctrl-C keeps the
 * finished runs (exit 130) and the same command resumes and writes every table; the sweep run
 * again in two shards and merged with `report merge` writes the same bytes (a rerun of the same
 * seeds gives byte-identical tables); a bad file is bad input naming the field.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collect, lockstep, scratchDir, spawnLockstep } from './cliHarness';

const dir = scratchDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = join(dir, 'tiny.json');
writeFileSync(
  file,
  JSON.stringify({
    name: 'tiny',
    base: 'smoke',
    set: { duration: '2m' },
    grid: { 'params.checkpointBufferTime': ['60s', '90s'] },
    draw: { 'workload.topups[0].at': { uniform: ['5s', '30s'] } },
    seeds: 6,
    metrics: ['serviceBlocks', 'sidechainBlocks', 'checkpointsAcked'],
  }),
);
const TABLES = ['summary.json', 'summary.md', 'cells.csv', 'runs.csv', 'comparisons.csv', 'report.html'];
const tables = (out: string) => Object.fromEntries(TABLES.map((f) => [f, readFileSync(join(out, f), 'utf8')]));

describe('lockstep sweep', () => {
  const out = join(dir, 'tiny');

  it('Ctrl-C keeps the finished runs (exit 130); the same command resumes and writes every table', async () => {
    const child = spawnLockstep(['sweep', file, '--workers', '1', '--out', out, '--progress-interval', '1s']);
    const journal = join(out, 'runs.jsonl');
    const done = collect(child);
    // Interrupt once two runs are in the journal (its first line is the header).
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      if (existsSync(journal) && readFileSync(journal, 'utf8').trim().split('\n').length >= 3) break;
    }
    child.kill('SIGINT');
    const r = await done;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('sweep tiny: 2 cells × 6 seeds = 12 runs, 1 worker');
    expect(r.stderr).toMatch(
      /interrupted: \d+ of 12 runs finished, kept in .*runs\.jsonl; run the same command again to resume/,
    );
    expect(existsSync(join(out, 'summary.json'))).toBe(false);
    const kept = readFileSync(journal, 'utf8').trim().split('\n').length - 1;
    expect(kept).toBeGreaterThanOrEqual(2);
    expect(kept).toBeLessThan(12);

    const resumed = await lockstep(['sweep', file, '--workers', '2', '--out', out]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`resuming: ${kept} finished runs kept`);
    expect(resumed.stdout).toMatch(/^sweep {7}tiny: 12 of 12 runs \(2 cells × 6 seeds\), 0 failed$/m);
    for (const f of TABLES) expect(existsSync(join(out, f)), f).toBe(true);
    expect(tables(out)['runs.csv']!.trim().split('\n')).toHaveLength(13);
  }, 240_000);

  it('run again in two shards and merged, it writes the same bytes', async () => {
    const shards = [join(dir, 'shard-1'), join(dir, 'shard-2')];
    for (const [i, d] of shards.entries()) {
      const r = await lockstep(['sweep', file, '--workers', '1', '--shard', `${i + 1}/2`, '--out', d]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`(shard ${i + 1}/2) = 6 runs`);
    }
    const merged = join(dir, 'merged');
    const m = await lockstep(['report', 'merge', ...shards, '--out', merged]);
    expect(m.code, m.stderr).toBe(0);
    expect(tables(merged)).toEqual(tables(out));
  }, 240_000);

  it('a bad sweep file is bad input naming the cell, the seed and the field', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ name: 'bad', base: 'smoke', seeds: 2, grid: { 'params.sprint': [16, 7] } }));
    const r = await lockstep(['sweep', bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /cell "sprint=7", seed 1: params\.spanDuration: must be a multiple of params\.sprint \(7\)/,
    );
  }, 60_000);
});
