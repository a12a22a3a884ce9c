/**
 * `lockstep report diff` as a user runs it: two report folders of different seeds part at a named
 * record — past the genesis records, which differ between seeds by construction — and differ in
 * counts and metrics; `--all-fields` names the genesis record #0; a filter compares only the
 * records it keeps; a report folder and the same scenario and seed run again with this build are
 * identical.
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
    expect(r.stdout).toContain('trace records compared: comparing only t, kind, target (the seeds differ');
    const at = /^first differing trace record: #(\d+) \(0-based, of \d+ in A and \d+ in B\)$/m.exec(r.stdout);
    expect(at, r.stdout).not.toBeNull();
    // Not the genesis document (#0): it differs between seeds by construction.
    expect(Number(at![1])).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/^ {2}A: t=\d+ ms {2}kind \S+ {2}node \S+$/m);
    expect(r.stdout).toMatch(/^ {2}B: t=\d+ ms {2}kind \S+ {2}node \S+$/m);
    expect(r.stdout).toContain('fields that differ:');
    expect(r.stdout).not.toContain('identical');

    const all = await lockstep(['report', 'diff', a, b, '--all-fields']);
    expect(all.stdout).toMatch(/^first differing trace record: #0 \(0-based/m);
    expect(all.stdout).toMatch(/^ {2}A: t=0 ms {2}kind service\.genesisDocument/m);

    const some = await lockstep(['report', 'diff', a, b, '--kind', 'consensus.*', '--node', 'svc-2', '--from', '20s']);
    expect(some.code, some.stderr).toBe(0);
    expect(some.stdout).toContain('trace records compared: kind consensus.*; node svc-2; time 20000..∞ ms');
    expect(some.stdout).toMatch(/^first differing trace record: #\d+ of the records compared/m);
    expect(some.stdout).toMatch(/^ {2}A: t=\d+ ms {2}kind consensus\.\S+ {2}node svc-2$/m);
    const bad = await lockstep(['report', 'diff', a, b, '--from', '2m', '--to', '1m']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--to: 1m is before --from 2m');

    const same = await lockstep(['report', 'diff', a, `${file}@1`]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toMatch(
      /^identical: the same trace \(\d+ records\) and trace hash 0x[0-9a-f]{64}, counts, metrics, expectations and verdict$/m,
    );
  }, 180_000);
});
