/**
 * `lockstep run` as a CI job sees it (issue 12): the exit code counts the expectations, a bare
 * duration and a fault after the end are named, the scenario's own seed is the default, the
 * report folder is a self-contained repro, Ctrl-C is `interrupted` (130) and never replaces an
 * earlier complete report, and a closed pipe ends a command quietly.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, collect, lockstep, scenarioFile, scratchDir, spawnLockstep } from './cliHarness';
import { gitCommit, lockstepVersion, PACKAGE_ROOT } from './provenance';

const dir = scratchDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
const folderBytes = (d: string) =>
  Object.fromEntries(
    readdirSync(d)
      .sort((a, b) => (a < b ? -1 : 1))
      .map((f) => [
        f,
        createHash('sha256')
          .update(readFileSync(join(d, f)))
          .digest('hex'),
      ]),
  );

describe('lockstep run: verdict and exit code', () => {
  it('an impossible expectation fails the run: exit 5, verdict EXPECTATIONS naming it, in every report', async () => {
    const file = scenarioFile(dir, 'impossible.json', 'smoke', {
      name: 'impossible',
      duration: '1m',
      expect: { verdict: 'pass', min: { serviceBlocks: 100000 } },
    });
    const out = join(dir, 'impossible-report');
    const r = await lockstep(['run', '--scenario', file, '--out', out]);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stdout).toMatch(/FAIL serviceBlocks +expected >= 100000 +got \d+/);
    expect(r.stdout).toMatch(/^verdict +EXPECTATIONS \(serviceBlocks expected >= 100000 got \d+\)$/m);
    const summary = readJson(join(out, 'summary.json'));
    expect(summary.verdict).toBe('expectations');
    expect(summary.oracleVerdict).toBe('pass');
    expect(summary.failedExpectations).toEqual([
      { what: 'serviceBlocks', op: '>=', expected: 100000, actual: expect.any(Number), status: 'failed' },
    ]);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain(
      '<span class="verdict expectations" id="verdict">',
    );
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('- verdict: **expectations**');
    // --json says the same.
    const j = await lockstep(['run', '--scenario', file, '--out', out, '--json']);
    expect(j.code).toBe(5);
    expect(JSON.parse(j.stdout)).toMatchObject({ verdict: 'expectations', seed: 1 });
  });

  it('a bare number as a duration is bad input naming the field and how it would be read (exit 1)', async () => {
    const file = scenarioFile(dir, 'bare.json', 'smoke', { name: 'bare', duration: 240 });
    const r = await lockstep(['run', '--scenario', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'bare.json: duration: a bare number is ambiguous; 240 would be read as 240 ms; write "240s" or "240ms"',
    );
    const late = scenarioFile(dir, 'late.json', 'smoke', {
      name: 'late',
      duration: '10m',
      faults: [{ kind: 'pause', node: 'svc-1', at: '30m', for: '10s' }],
    });
    const l = await lockstep(['run', '--scenario', late]);
    expect(l.code).toBe(1);
    expect(l.stderr).toContain(
      'faults[0].at: 30m is at or after the end of the scenario (duration 10m); it never fires',
    );
  });

  it('--until: faults after the end are warned about, the run is marked shortened, min counts are not judged', async () => {
    const file = scenarioFile(dir, 'faulty.json', 'smoke', {
      name: 'faulty',
      faults: [
        { kind: 'pause', node: 'svc-1', at: '10s', for: '5s' },
        { kind: 'pause', node: 'svc-2', at: '5m', for: '5s' },
      ],
    });
    const out = join(dir, 'faulty-report');
    const r = await lockstep(['run', '--scenario', file, '--until', '30s', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('warning: faults[1].at: 5m is after the end of the run (30s); it never fires');
    expect(r.stderr).not.toContain('faults[0]');
    expect(r.stdout).toMatch(/^shortened +ran 30 s of the scenario's 360 s; 4 expectations not judged$/m);
    expect(r.stdout).toMatch(/^ +-- +serviceBlocks +expected >= 50 .*not judged/m);
    expect(r.stdout).toMatch(/^verdict +PASS \(shortened, 4 not judged\)$/m);
    const summary = readJson(join(out, 'summary.json'));
    expect(summary).toMatchObject({ shortened: true, untilMs: 30_000, durationMs: 360_000, verdict: 'pass' });
    expect((summary.expectations as Array<{ status: string }>).map((e) => e.status)).toEqual([
      'not judged',
      'not judged',
      'not judged',
      'not judged',
    ]);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<span class="partial">SHORTENED</span>');
  });
});

describe('lockstep run: the report folder is a self-contained repro', () => {
  it("holds the exact scenario file; summary.json has numbers, the file's hash, seed (the scenario's own), crypto, placement, version, commit", async () => {
    const file = scenarioFile(dir, 'seeded.json', 'smoke', {
      name: 'seeded',
      duration: '40s',
      seed: 7,
      expect: { verdict: 'pass' },
    });
    const out = join(dir, 'seeded-report');
    const r = await lockstep(['run', '--scenario', file, '--out', out, '--crypto', 'fast']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(out, 'scenario.json'))).toEqual(readFileSync(file));
    const s = readJson(join(out, 'summary.json'));
    expect(s).toMatchObject({
      scenario: 'seeded',
      scenarioFile: file,
      scenarioSha256: createHash('sha256').update(readFileSync(file)).digest('hex'),
      seed: 7,
      crypto: 'fast',
      placement: 'inline',
      version: lockstepVersion(),
      commit: gitCommit(),
      shortened: false,
      interrupted: false,
      verdict: 'pass',
      failedExpectations: [],
    });
    expect(typeof s.simulatedMs).toBe('number');
    expect(typeof s.events).toBe('number');
    expect(typeof (s.counts as Record<string, unknown>).serviceBlocks).toBe('number');
    // Run again from the folder: the same trace, byte-identical summary.
    const again = join(dir, 'seeded-again');
    const r2 = await lockstep(['run', '--scenario', join(out, 'scenario.json'), '--seed', '7', '--out', again]);
    expect(r2.code).toBe(0);
    expect(readJson(join(again, 'summary.json')).traceHash).toBe(s.traceHash);
    expect(readFileSync(join(again, 'summary.json'), 'utf8')).toBe(
      readFileSync(join(out, 'summary.json'), 'utf8').replace(
        JSON.stringify(file),
        JSON.stringify(join(out, 'scenario.json')),
      ),
    );
  });
});

/** Start a long run, send SIGINT once it shows progress; the earlier report must not change. */
async function interruptRun(start: (out: string) => ChildProcess, kill: (child: ChildProcess) => void) {
  const file = scenarioFile(dir, 'long.json', 'smoke', { name: 'long', duration: '3h' });
  const out = join(dir, `long-report-${Math.random().toString(36).slice(2)}`);
  const first = await lockstep(['run', '--scenario', file, '--until', '20s', '--out', out]);
  expect(first.code, first.stderr).toBe(0);
  const before = folderBytes(out);
  const child = start(out);
  let sent = false;
  child.stderr!.on('data', (d: Buffer) => {
    if (!sent && d.toString().includes('progress')) {
      sent = true;
      kill(child);
    }
  });
  const r = await collect(child);
  expect(sent, r.stderr).toBe(true);
  expect(folderBytes(out)).toEqual(before);
  const partial = `${out}.interrupted`;
  expect(r.stdout).toMatch(/^verdict +INTERRUPTED/m);
  expect(r.stdout).not.toMatch(/^verdict +PASS/m);
  const s = readJson(join(partial, 'summary.json'));
  expect(s).toMatchObject({ verdict: 'interrupted', interrupted: true });
  expect(s.simulatedMs as number).toBeLessThan(3 * 3_600_000);
  const html = readFileSync(join(partial, 'report.html'), 'utf8');
  expect(html).toContain('<span class="verdict interrupted" id="verdict">INTERRUPTED</span>');
  expect(html).not.toContain('class="verdict pass"');
  expect(readFileSync(join(partial, 'summary.md'), 'utf8')).toContain('- verdict: **interrupted**');
  expect(existsSync(join(partial, 'trace.jsonl'))).toBe(true);
  // No temporary folder is left behind.
  expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  return r;
}

describe('lockstep run: Ctrl-C', () => {
  const fast = { LOCKSTEP_PROGRESS_INTERVAL: '200ms' };

  it('SIGINT: verdict interrupted, exit 130, the earlier complete report byte-identical, the partial one beside it', async () => {
    const r = await interruptRun(
      (out) => spawnLockstep(['run', '--scenario', join(dir, 'long.json'), '--out', out], { env: fast }),
      (child) => child.kill('SIGINT'),
    );
    expect(r.code).toBe(130);
    expect(r.signal).toBeNull();
  });

  it('through npx, Ctrl-C as a terminal sends it (to the whole process group): the same, and the shell sees 130', async () => {
    const r = await interruptRun(
      (out) =>
        spawn('npx', ['lockstep', 'run', '--scenario', join(dir, 'long.json'), '--out', out], {
          cwd: PACKAGE_ROOT,
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, ...fast },
        }),
      (child) => process.kill(-child.pid!, 'SIGINT'),
    );
    // npm passes the child's 130 on, or ends itself by the same SIGINT: a shell reads both as 130.
    expect(r.code === 130 || r.signal === 'SIGINT', `code ${r.code} signal ${r.signal}`).toBe(true);
  });
});

describe('a closed pipe', () => {
  it('`lockstep replay ... | head` ends quietly with exit 0', async () => {
    const cmd = `"${process.execPath}" "${BIN}" replay --scenario smoke --from 0s --to 2m | head -n 3; echo "replay exit \${PIPESTATUS[0]}"`;
    const r = await collect(spawn('bash', ['-c', cmd], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'] }));
    expect(r.stdout.split('\n').slice(0, 3).join('\n')).toMatch(/^# smoke seed 1: pass\n# events from 0 to 120000 ms/);
    expect(r.stdout).toContain('replay exit 0');
    expect(r.stderr).not.toMatch(/EPIPE|Error|at /);
  });
});

describe('lockstep run: how the service nodes execute blocks', () => {
  it('--check-invariants and --no-shared-execution keep the trace hash; --stats shows the caches; all in --help', async () => {
    const base = ['run', '--scenario', 'smoke', '--until', '1m', '--crypto', 'fast', '--json', '--no-trace'];
    const plain = await lockstep([...base, '--out', join(dir, 'exec-plain')]);
    const checked = await lockstep([
      ...base,
      '--check-invariants',
      '--no-shared-execution',
      '--stats',
      '--out',
      join(dir, 'exec-checked'),
    ]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(checked.code, checked.stderr).toBe(0);
    const hash = (out: string) => (JSON.parse(out) as { traceHash: string }).traceHash;
    expect(hash(checked.stdout)).toBe(hash(plain.stdout));
    const stats = JSON.parse(checked.stdout) as {
      caches: Array<{ name: string; hits: number }>;
      sharedExecution: unknown;
    };
    expect(stats.sharedExecution).toBeNull();
    expect(stats.caches.find((c) => c.name === 'consensus.blockHashes')?.hits).toBeGreaterThan(0);
    expect(JSON.parse(plain.stdout)).not.toHaveProperty('caches');
    const help = await lockstep(['run', '--help']);
    expect(help.stdout).toMatch(/--check-invariants/);
    expect(help.stdout).toMatch(/--shared-execution/);
    expect(help.stdout).toMatch(/--stats/);
  });
});
