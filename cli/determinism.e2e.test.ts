/**
 * `lockstep run --check-determinism`: three runs (two inline, one in a worker) agree on a few
 * scenarios of the suite; and when the second run is made to diverge (the hidden test hook), the
 * first differing trace record is named, and it is the record a normal run has at that index.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockstep, scratchDir } from './cliHarness';

const dir = scratchDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--check-determinism', () => {
  for (const [scenario, extra, runs] of [
    ['smoke', [], 3],
    ['sidechain-partition', ['--crypto', 'fast'], 3],
    // A planted bug is switched on in every thread of the run: two inline runs and a worker run agree.
    ['scenarios/regressions/planted-sticky-head-fork-choice.json', [], 3],
  ] as const) {
    it(`${scenario}: ${runs} runs, one trace hash`, async () => {
      const r = await lockstep(['run', '--scenario', scenario, ...extra, '--check-determinism', '--json']);
      const out = JSON.parse(r.stdout);
      expect(out.determinism.ok, r.stdout).toBe(true);
      expect(out.determinism.runs).toHaveLength(runs);
      expect(new Set(out.determinism.runs.map((x: { traceHash: string }) => x.traceHash)).size).toBe(1);
      expect(out.determinism.runs[0].records).toBeGreaterThan(1000);
      // The exit code is the run's verdict (the regression fails its oracle on purpose).
      expect(r.code).toBe(out.verdict === 'pass' ? 0 : 2);
    });
  }

  it('names the first differing record when the second run diverges (test hook)', async () => {
    const r = await lockstep([
      'run',
      '--scenario',
      'smoke',
      '--until',
      '1m',
      '--check-determinism',
      '--test-diverge-after',
      '1000',
    ]);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stdout).toContain('determinism MISMATCH: run 2 (inline) differs from run 1 (inline)');
    const m = /first differing trace record: #(\d+)/.exec(r.stdout);
    expect(m).not.toBeNull();
    const index = Number(m![1]);
    expect(r.stdout).toMatch(/run 2 \(inline\): t=\d+ ms {2}kind test\.diverge {2}node \S+/);
    // Run 1's record at that index is the trace's record at that index, and the one before it is shared.
    const out = join(dir, 'plain');
    const plain = await lockstep(['run', '--scenario', 'smoke', '--until', '1m', '--out', out]);
    expect(plain.code).toBe(0);
    const lines = readFileSync(join(out, 'trace.jsonl'), 'utf8').split('\n');
    expect(r.stdout).toContain(`    run 1 (inline): t=`);
    expect(r.stdout).toContain(`\n      ${lines[index]}\n`);
    expect(JSON.parse(lines[index]!).kind).not.toBe('test.diverge');
  });
});
