/**
 * A fuzz shard in a CI log (stderr not a terminal): status lines at the default 10 s interval
 * before the summary; a summary.json that says what ran (version, commit, wall time, crypto,
 * shard, seed range, parameters); and `report merge` that refuses to count a shard twice or to
 * merge what is not a shard.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collect, lockstep, scratchDir, spawnLockstep } from './cliHarness';
import { gitCommit, lockstepVersion } from './provenance';

const dir = scratchDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const shard = join(dir, 'shard-1');

describe('lockstep fuzz in a CI log', () => {
  it('a 20 s campaign prints status lines every 10 s before its summary, and records what ran', async () => {
    const env = { ...process.env };
    delete env.LOCKSTEP_PROGRESS_INTERVAL;
    const child = spawnLockstep(
      [
        'fuzz',
        '--strategy',
        'swarm',
        '--time',
        '20s',
        '--workers',
        '1',
        '--duration',
        '1m',
        '--efficacy-every',
        '0',
        '--shard',
        '1/2',
        '--out',
        shard,
      ],
      { env },
    );
    const arrivals: Array<{ stream: 'out' | 'err'; at: number; text: string }> = [];
    child.stdout!.on('data', (d: Buffer) => arrivals.push({ stream: 'out', at: Date.now(), text: d.toString() }));
    child.stderr!.on('data', (d: Buffer) => arrivals.push({ stream: 'err', at: Date.now(), text: d.toString() }));
    const r = await collect(child);
    expect(r.code, r.stderr).toBe(0);
    const progress = r.stderr.split('\n').filter((l) => l.startsWith('progress'));
    expect(progress.length, r.stderr).toBeGreaterThanOrEqual(1);
    for (const line of progress)
      expect(line).toMatch(/^progress {2}\d+ seeds, \d+ failing, \d+\.\d\d seeds\/s, elapsed \d+s, ETA \d+s$/);
    const firstProgress = arrivals.find((a) => a.stream === 'err' && a.text.includes('progress'))!;
    const firstOut = arrivals.find((a) => a.stream === 'out')!;
    expect(firstProgress.at).toBeLessThan(firstOut.at);
    expect(r.stdout).toMatch(/^seeds +\d+/m);
    expect(r.stdout).toMatch(/^rules +[1-9]\d* of \d+ oracle-guarded rules exercised by at least one seed/m);
    const s = JSON.parse(readFileSync(join(shard, 'summary.json'), 'utf8'));
    expect(s).toMatchObject({
      kind: 'lockstep-fuzz-shard',
      version: lockstepVersion(),
      commit: gitCommit(),
      params: {
        profile: 'swarm',
        durationMs: 60_000,
        crypto: 'fast',
        efficacyEvery: 0,
        plant: null,
        seeds: null,
        timeBudgetMs: 20_000,
      },
      shard: { index: 1, count: 2 },
      seedRange: { first: 1, step: 2 },
      interrupted: false,
    });
    expect(s.wallMs).toBeGreaterThanOrEqual(20_000);
    expect(s.seedRange.count).toBe(s.seeds);
    expect(s.seedRange.last).toBe(1 + 2 * (s.seeds - 1));
  }, 120_000);

  it('report merge refuses a shard given twice and a run folder; merges a shard into Markdown', async () => {
    const twice = await lockstep(['report', 'merge', shard, shard, '--out', join(dir, 'merged')]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain(`shard 1/2 is given twice (${shard} and ${shard}); its seeds would count twice`);

    const runDir = join(dir, 'a-run');
    expect((await lockstep(['run', '--scenario', 'smoke', '--until', '10s', '--out', runDir])).code).toBe(0);
    const notShard = await lockstep(['report', 'merge', shard, runDir, '--out', join(dir, 'merged')]);
    expect(notShard.code).toBe(1);
    expect(notShard.stderr).toContain(`${runDir} is the report of one run (lockstep run), not a fuzz shard`);
    expect(notShard.stderr).not.toMatch(/\n\s+at /);

    const md = await lockstep(['report', 'merge', shard, '--out', join(dir, 'merged'), '--markdown']);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toMatch(/^## Fuzz campaign: \d+ seeds, none failing/);
    expect(md.stdout).toContain('| shards | 1 of 2 (missing: 2/2) |');
    expect(readFileSync(join(dir, 'merged', 'summary.md'), 'utf8')).toBe(md.stdout);
  });
});
