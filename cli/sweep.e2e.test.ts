/**
 * `lockstep sweep` as a user runs it, in a CI log (stderr not a terminal): Ctrl-C keeps the
 * finished runs (exit 130) and the same command resumes and writes every table; the sweep run
 * again in two shards and merged with `report merge` writes the same bytes (a rerun of the same
 * seeds gives byte-identical tables), and a merge with a shard missing is refused; runs made from
 * another source tree run again and the command says why; `--dry-run` shows the drawn values and
 * runs nothing; `--metrics-only` adds a metric from the stored runs without running them; a bad
 * file is bad input naming the field.
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

    const missing = await lockstep(['report', 'merge', shards[0]!, '--out', join(dir, 'half')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('shard 2/2 of sweep tiny is missing (given: 1/2)');
    expect(existsSync(join(dir, 'half'))).toBe(false);
    const partial = await lockstep(['report', 'merge', shards[0]!, '--out', join(dir, 'half'), '--partial']);
    expect(partial.code, partial.stderr).toBe(0);
    expect(partial.stdout).toContain('shards not merged: 2/2; the tables are incomplete');
  }, 240_000);

  it('runs made from another source tree run again, and the command says why', async () => {
    // As if the finished runs had been made with uncommitted changes this tree does not have.
    const journal = join(out, 'runs.jsonl');
    const lines = readFileSync(journal, 'utf8').trim().split('\n');
    const stale = lines.map((l, i) => {
      if (i === 0) return l;
      const r = JSON.parse(l);
      return r.seed <= 2 ? JSON.stringify({ ...r, source: { ...r.source, dirty: 'deadbeef'.repeat(8) } }) : l;
    });
    writeFileSync(journal, `${stale.join('\n')}\n`);
    const dry = await lockstep(['sweep', file, '--out', out, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('resume      8 finished runs would be kept, 4 would run');
    expect(dry.stdout).toMatch(/^ {2}4 run again: they were made with uncommitted changes deadbeef /m);
    expect(dry.stdout).toMatch(/^ {2}seed {2}workload\.topups\[0\]\.at$/m);
    const again = await lockstep(['sweep', file, '--workers', '2', '--out', out]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('resuming: 8 finished runs kept');
    expect(again.stderr).toMatch(/4 finished runs run again: they were made with uncommitted changes deadbeef/);
    expect(tables(out)).toEqual(tables(join(dir, 'merged')));
  }, 240_000);

  it('--metrics-only adds a metric from the stored runs, running none', async () => {
    const more = join(dir, 'tiny-more.json');
    const json = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(more, JSON.stringify({ ...json, metrics: [...json.metrics, 'roundsPerHeightMean'] }));
    const r = await lockstep(['sweep', more, '--out', out, '--metrics-only']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^metrics of 12 stored runs \(made at .*\) computed from their digests; nothing ran$/m);
    expect(tables(out)['runs.csv']!.split('\n')[0]).toContain(',roundsPerHeightMean,');
    expect(tables(out)['summary.md']).toContain('## roundsPerHeightMean (rounds)');
    const none = await lockstep(['sweep', more, '--out', join(dir, 'empty'), '--metrics-only']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('holds no runs of this sweep yet: run it first');
  }, 120_000);

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
