/**
 * `lockstep fuzz --strategy guided` as a user runs it: a planted bug is found and written as a
 * scenario file that `lockstep run` replays to the same violation and trace hash; the corpus goes
 * to --corpus-out and a second campaign starts from it (its runs first); `report merge` of two
 * guided shards writes one summary and one corpus; the swarm-only and guided-only flags are refused
 * where they do not belong.
 */
import { cpSync, existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockstep, scratchDir } from './cliHarness';

const dir = scratchDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lockstep fuzz --strategy guided', () => {
  it('finds a plant and writes a failure that lockstep run replays', async () => {
    const out = join(dir, 'plant');
    const r = await lockstep([
      'fuzz',
      '--strategy',
      'guided',
      '--seeds',
      '8',
      '--workers',
      '2',
      '--plant',
      'send-debit',
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /FAIL run \d+: safety \(accounts-and-fees: .*\) {2}repro: npx lockstep run --scenario \S+run-\d+\.json/,
    );
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.params).toMatchObject({ strategy: 'guided', campaignSeed: 1, plant: 'send-debit', seeds: 8 });
    expect(summary.explorer.runs).toBe(8);
    const file = join(out, 'failures', readdirSync(join(out, 'failures'))[0]!);
    const scenario = JSON.parse(readFileSync(file, 'utf8'));
    expect(scenario).toMatchObject({
      streams: 'explore',
      plant: 'send-debit',
      expect: { verdict: 'safety', oracle: 'accounts-and-fees' },
    });
    const replay = await lockstep(['run', '--scenario', file, '--json', '--no-trace', '--out', join(dir, 'replay')]);
    expect(replay.code, replay.stderr).toBe(2);
    const failure = summary.failures.find((f: { seed: number }) => file.endsWith(`run-${f.seed}.json`));
    expect(JSON.parse(replay.stdout).violation.message).toBe(failure.violation.message);
    // The same run: the trace hash the campaign recorded for it.
    const state = JSON.parse(readFileSync(join(out, 'explorer-state.json'), 'utf8'));
    const ran = state.results.find((x: { seed: number }) => x.seed === failure.seed);
    expect(JSON.parse(replay.stdout).traceHash).toBe(ran.traceHash);
  }, 240_000);

  it('keeps a corpus, starts from it, and merges shards with their corpora', async () => {
    const corpus = join(dir, 'corpus');
    const first = await lockstep([
      'fuzz',
      '--strategy',
      'guided',
      '--seeds',
      '8',
      '--workers',
      '2',
      '--campaign-seed',
      '5',
      '--corpus-out',
      corpus,
      '--out',
      join(dir, 'first'),
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^explorer +\d+ features seen; corpus \d+ runs/m);
    const saved = JSON.parse(readFileSync(join(corpus, 'corpus.json'), 'utf8'));
    expect(saved.kind).toBe('lockstep-fuzz-corpus');
    // --resume reads <out>.interrupted/ (here: the whole campaign, so nothing is left to run).
    cpSync(join(dir, 'first'), join(dir, 'again.interrupted'), { recursive: true });
    const again = await lockstep([
      'fuzz',
      '--seeds',
      '8',
      '--workers',
      '2',
      '--campaign-seed',
      '5',
      '--resume',
      '--out',
      join(dir, 'again'),
    ]);
    expect(again.code, again.stderr).toBe(0);
    const strip = (f: string) => {
      const { wallMs: _, ...rest } = JSON.parse(readFileSync(join(dir, f, 'summary.json'), 'utf8'));
      return rest;
    };
    expect(strip('again')).toEqual(strip('first'));
    expect(existsSync(join(dir, 'again.interrupted'))).toBe(false);
    cpSync(join(dir, 'first'), join(dir, 'third.interrupted'), { recursive: true });
    const other = await lockstep([
      'fuzz',
      '--seeds',
      '9',
      '--campaign-seed',
      '5',
      '--resume',
      '--out',
      join(dir, 'third'),
    ]);
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/--resume: .* is of a campaign with other parameters/);
    // A night of two shards, both from that corpus.
    for (const i of [1, 2]) {
      const r = await lockstep([
        'fuzz',
        '--strategy',
        'guided',
        '--seeds',
        '8',
        '--shard',
        `${i}/2`,
        '--workers',
        '2',
        '--campaign-seed',
        '6',
        '--corpus-in',
        corpus,
        '--out',
        join(dir, `night-${i}`),
      ]);
      expect(r.code, r.stderr).toBe(0);
    }
    const s2 = JSON.parse(readFileSync(join(dir, 'night-2', 'summary.json'), 'utf8'));
    // The loaded runs go first (four runs in this shard), then the shard's runs as its seeds: 2, 4, 6, 8.
    expect(s2.explorer.byOrigin.corpus.runs).toBe(Math.min(4, saved.entries.length));
    expect(s2.params.corpusIn).toBe(saved.entries.length);
    expect(s2.seedRange).toMatchObject({ first: 2, last: 8, step: 2 });
    const m = await lockstep([
      'report',
      'merge',
      join(dir, 'night-1'),
      join(dir, 'night-2'),
      '--out',
      join(dir, 'merged'),
    ]);
    expect(m.code, m.stderr).toBe(0);
    expect(m.stderr).toMatch(/^corpus: \d+ runs in /m);
    expect(existsSync(join(dir, 'merged', 'corpus.json'))).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'merged', 'summary.json'), 'utf8')).seeds).toBe(8);
  }, 300_000);

  it('refuses the flags of the other strategy', async () => {
    const r = await lockstep(['fuzz', '--strategy', 'swarm', '--seeds', '1', '--corpus-in', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--corpus-in.*is for --strategy guided/);
    // The guided explorer is the default; the swarm's own flags are refused there.
    const d = await lockstep(['fuzz', '--seeds', '1', '--duration', '30m']);
    expect(d.code).toBe(1);
    expect(d.stderr).toMatch(/--duration.*is for --strategy swarm/);
    const resume = await lockstep([
      'fuzz',
      '--strategy',
      'guided',
      '--seeds',
      '1',
      '--resume',
      '--out',
      join(dir, 'none'),
    ]);
    expect(resume.code).toBe(1);
    expect(resume.stderr).toMatch(/--resume.*nothing to resume/);
  }, 60_000);
});
