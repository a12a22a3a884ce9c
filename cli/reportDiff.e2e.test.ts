/**
 * `lockstep report diff` as a user runs it: two report folders of different seeds part at a named
 * record and differ in counts and metrics; a report folder and the same scenario and seed run
 * again with this build are identical.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockstep, scenarioFile, scratchDir } from './cliHarness';

const dir = scratchDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lockstep report diff', () => {
  const file = scenarioFile(dir, 'short.json', 'smoke', {
    name: 'short',
    duration: '90s',
    expect: { verdict: 'pass' },
  });
  const a = join(dir, 'a');
  const b = join(dir, 'b');

  it('names the first differing record of two seeds, then what differs; the same seed run again is identical', async () => {
    expect((await lockstep(['run', '--scenario', file, '--seed', '1', '--out', a, '--json'])).code).toBe(0);
    expect((await lockstep(['run', '--scenario', file, '--seed', '2', '--out', b, '--json'])).code).toBe(0);
    const r = await lockstep(['report', 'diff', a, b]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}seed {2}A 1 {3}B 2$/m);
    expect(r.stdout).toMatch(/^first differing trace record: #\d+ \(0-based, of \d+ in A and \d+ in B\)$/m);
    expect(r.stdout).toMatch(/^ {2}A: t=\d+ ms {2}kind \S+ {2}node \S+$/m);
    expect(r.stdout).toMatch(/^ {2}B: t=\d+ ms {2}kind \S+ {2}node \S+$/m);
    expect(r.stdout).toContain('fields that differ:');
    expect(r.stdout).not.toContain('identical');

    const same = await lockstep(['report', 'diff', a, `${file}@1`]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toMatch(
      /^identical: the same trace \(\d+ records\) and trace hash 0x[0-9a-f]{64}, counts, metrics, expectations and verdict$/m,
    );
  }, 180_000);
});
