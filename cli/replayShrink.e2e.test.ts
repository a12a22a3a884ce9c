/**
 * `replay --report` and `shrink --report` on the report of a scenario given as a file path (a
 * regression copied elsewhere, with its own seed and a planted bug): they read the folder's
 * scenario.json and summary.json, and never blame a flag the user did not pass.
 */
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockstep, scratchDir } from './cliHarness';
import { SCENARIOS_DIR, loadScenario } from '../sim/scenario/load';

const dir = scratchDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('replay and shrink from a report folder', () => {
  it('work for a scenario given as a file path, on the seed and crypto the report names', async () => {
    const file = join(dir, 'my-regression.json');
    copyFileSync(join(SCENARIOS_DIR, 'regressions', 'planted-sticky-head-fork-choice.json'), file);
    const { scenario } = loadScenario(file);
    expect(scenario.seed).toBeDefined();
    const report = join(dir, 'report');
    const run = await lockstep(['run', '--scenario', file, '--out', report]);
    expect(run.code, run.stderr).toBe(2);
    expect(JSON.parse(readFileSync(join(report, 'summary.json'), 'utf8'))).toMatchObject({
      seed: scenario.seed,
      verdict: 'safety',
    });

    const replay = await lockstep(['replay', '--report', report, '--kinds', 'sidechain.reorg']);
    expect(replay.code, replay.stderr).toBe(2);
    expect(replay.stdout).toMatch(
      new RegExp(
        `^# ${scenario.name} seed ${scenario.seed} \\(from ${report}\\): safety — first violation fork-choice`,
      ),
    );
    expect(replay.stderr).not.toContain('--scenario');

    const shrink = await lockstep(['shrink', '--report', report, '--out', join(dir, 'regs'), '--name', 'shrunk']);
    expect(shrink.code, shrink.stderr).toBe(0);
    const shrunk = join(dir, 'regs', 'shrunk.json');
    expect(shrink.stdout).toContain(`wrote ${shrunk}`);
    const text = readFileSync(shrunk, 'utf8');
    expect(JSON.parse(text).duration).toMatch(/^\d+[a-z]/);
    const again = await lockstep(['run', '--scenario', shrunk, '--out', join(dir, 'shrunk-report'), '--json']);
    expect(again.code, again.stderr).toBe(2);
    expect(JSON.parse(again.stdout)).toMatchObject({ seed: scenario.seed, verdict: 'safety' });
  });

  it('a folder that is not a run report is refused naming --report', async () => {
    const r = await lockstep(['replay', '--report', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^lockstep: --report: no summary.json in /);
  });
});
