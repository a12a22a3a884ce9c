/**
 * The CI entry points fail when they should (issue 12): `.ci/run` runs the type check and the lint
 * before the tests, never hides a failure and always ends with "N passed, N failed"; the GitHub
 * workflows install, type check, lint and test, and the fuzz workflow has no `|| true` and writes
 * the merged summary to the job summary. `.ci/run` runs here against a stand-in `npm`.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { scratchDir } from './cliHarness';
import { PACKAGE_ROOT } from './provenance';

const dir = scratchDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A copy of .ci/run in a scratch tree, with a stand-in npm whose steps pass or fail on demand.
mkdirSync(join(dir, '.ci'));
mkdirSync(join(dir, 'scripts'));
mkdirSync(join(dir, 'bin'));
copyFileSync(join(PACKAGE_ROOT, '.ci', 'run'), join(dir, '.ci', 'run'));
writeFileSync(join(dir, 'scripts', 'ensure-chromium.sh'), 'exit 0\n');
writeFileSync(
  join(dir, 'bin', 'npm'),
  `#!/usr/bin/env bash
echo "npm $*" >> "$LOG"
case "$1 $2" in
  "ci --no-audit") exit "\${FAKE_CI:-0}" ;;
  "run check") exit "\${FAKE_CHECK:-0}" ;;
  "run lint") exit "\${FAKE_LINT:-0}" ;;
  "run knip") exit "\${FAKE_KNIP:-0}" ;;
  "test --")
    for a in "$@"; do case $a in --outputFile.json=*) out=\${a#--outputFile.json=} ;; esac; done
    if [ -z "\${FAKE_NO_RESULTS:-}" ]; then
      echo "{\\"numPassedTests\\": \${FAKE_PASSED:-10}, \\"numFailedTests\\": \${FAKE_FAILED:-0}, \\"numFailedTestSuites\\": 0}" > "$out"
    fi
    exit "\${FAKE_TEST:-0}" ;;
esac
exit 99
`,
);
chmodSync(join(dir, 'bin', 'npm'), 0o755);

function ciRun(env: Record<string, string>) {
  const log = join(dir, `log-${Math.random().toString(36).slice(2)}`);
  writeFileSync(log, '');
  const r = spawnSync('bash', [join(dir, '.ci', 'run')], {
    encoding: 'utf8',
    env: { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH}`, LOG: log, ...env },
  });
  const lines = r.stdout.trim().split('\n');
  return { code: r.status, last: lines.at(-1), steps: readFileSync(log, 'utf8').trim().split('\n') };
}

describe('.ci/run', () => {
  it('runs npm ci, the type check, the lint, the dead-code check, then the tests; counts each check as one', () => {
    const r = ciRun({});
    expect(r.code).toBe(0);
    expect(r.last).toBe('13 passed, 0 failed');
    expect(r.steps.map((s) => s.split(' ').slice(0, 3).join(' '))).toEqual([
      'npm ci --no-audit',
      'npm run check',
      'npm run lint',
      'npm run knip',
      'npm test --',
    ]);
  });

  it('a failing type check, lint or dead-code check fails the script, the tests still run, the last line says so', () => {
    expect(ciRun({ FAKE_CHECK: '2' })).toMatchObject({ code: 1, last: '12 passed, 1 failed' });
    expect(ciRun({ FAKE_KNIP: '1' })).toMatchObject({ code: 1, last: '12 passed, 1 failed' });
    const both = ciRun({ FAKE_LINT: '1', FAKE_PASSED: '8', FAKE_FAILED: '2', FAKE_TEST: '1' });
    expect(both).toMatchObject({ code: 1, last: '10 passed, 3 failed' });
    expect(both.steps.at(-1)).toMatch(/^npm test/);
  });

  it('failing tests, a test run without results, or a failed install fail it too', () => {
    expect(ciRun({ FAKE_FAILED: '1', FAKE_TEST: '1' })).toMatchObject({ code: 1, last: '13 passed, 1 failed' });
    expect(ciRun({ FAKE_TEST: '1' })).toMatchObject({ code: 1, last: '13 passed, 1 failed' });
    expect(ciRun({ FAKE_NO_RESULTS: '1', FAKE_TEST: '1' })).toMatchObject({ code: 1, last: '3 passed, 1 failed' });
    const install = ciRun({ FAKE_CI: '1' });
    expect(install).toMatchObject({ code: 1, last: '0 passed, 1 failed' });
    expect(install.steps).toHaveLength(1);
  });
});

interface Workflow {
  jobs: Record<string, { if?: string; needs?: string; steps: Array<{ run?: string; uses?: string; if?: string }> }>;
}
const workflow = (name: string) =>
  parse(readFileSync(join(PACKAGE_ROOT, '.github', 'workflows', name), 'utf8')) as Workflow;

describe('GitHub workflows', () => {
  it('ci.yml installs, type checks, lints and tests; and runs lockstep test with JUnit', () => {
    const ci = workflow('ci.yml');
    expect(ci.jobs.test!.steps.flatMap((s) => (s.run ? [s.run] : []))).toEqual([
      'npm ci',
      'npm run check',
      'npm run lint',
      'npm run knip',
      'npm test',
    ]);
    expect(ci.jobs.scenarios!.steps.some((s) => s.run?.startsWith('npx lockstep test --junit'))).toBe(true);
  });

  it('fuzz.yml lets failures fail, still uploads and merges, and writes the merged summary to the job summary', () => {
    const fuzz = workflow('fuzz.yml');
    const runs = Object.values(fuzz.jobs).flatMap((j) => j.steps.flatMap((s) => (s.run ? [s.run] : [])));
    for (const run of runs) expect(run).not.toMatch(/\|\|\s*true|;\s*true\b|continue-on-error/);
    expect(
      fuzz.jobs.shard!.steps.filter((s) => s.uses?.startsWith('actions/upload-artifact')).map((s) => s.if),
    ).toEqual(['always()']);
    expect(fuzz.jobs.merge!.if).toBe('always()');
    const merge = fuzz.jobs.merge!.steps.find((s) => s.run?.includes('report merge'))!.run!;
    expect(merge).toMatch(/--markdown >> "\$GITHUB_STEP_SUMMARY"$/);
  });

  it('explore.yml runs the guided explorer from the saved corpus, merges the shards and saves the corpus for the next night', () => {
    const x = workflow('explore.yml');
    const runs = Object.values(x.jobs).flatMap((j) => j.steps.flatMap((s) => (s.run ? [s.run] : [])));
    for (const run of runs) expect(run).not.toMatch(/\|\|\s*true|;\s*true\b|continue-on-error/);
    const shard = x.jobs.shard!.steps;
    const restore = shard.findIndex((s) => s.uses?.startsWith('actions/cache/restore'));
    const fuzz = shard.findIndex((s) => s.run?.includes('lockstep fuzz --strategy guided'));
    expect(restore).toBeGreaterThan(-1);
    expect(fuzz).toBeGreaterThan(restore);
    // The corpus, when the cache had one, goes in with --corpus-in.
    expect(shard[fuzz]!.run).toMatch(/corpus\.json \]; then corpus="--corpus-in corpus"/);
    expect(shard[fuzz]!.run).toMatch(
      /lockstep fuzz --strategy guided .*--shard \$\{\{ matrix\.shard \}\}\/4 .*\$corpus$/m,
    );
    expect(shard.filter((s) => s.uses?.startsWith('actions/upload-artifact')).map((s) => s.if)).toEqual(['always()']);
    expect(x.jobs.merge!.if).toBe('always()');
    const merge = x.jobs.merge!.steps;
    expect(merge.find((s) => s.run?.includes('report merge'))!.run).toMatch(/--markdown >> "\$GITHUB_STEP_SUMMARY"$/);
    const save = merge.find((s) => s.uses?.startsWith('actions/cache/save')) as
      | { with?: { path?: string } }
      | undefined;
    expect(save?.with?.path).toBe((shard[restore] as { with?: { path?: string } }).with?.path);
  });

  it('sweep.yml shards a sweep, still uploads and merges, and writes the merged tables to the job summary', () => {
    const sweep = workflow('sweep.yml');
    const runs = Object.values(sweep.jobs).flatMap((j) => j.steps.flatMap((s) => (s.run ? [s.run] : [])));
    for (const run of runs) expect(run).not.toMatch(/\|\|\s*true|;\s*true\b|continue-on-error/);
    expect(
      sweep.jobs.shard!.steps.some((s) => /lockstep sweep .*--shard \$\{\{ matrix\.shard \}\}\/4/.test(s.run ?? '')),
    ).toBe(true);
    expect(sweep.jobs.merge!.if).toBe('always()');
    const merge = sweep.jobs.merge!.steps.find((s) => s.run?.includes('report merge'))!.run!;
    expect(merge).toMatch(/--markdown >> "\$GITHUB_STEP_SUMMARY"$/);
  });

  it('properties.yml runs the network properties long and keeps their counterexamples', () => {
    const p = workflow('properties.yml');
    const run = p.jobs.properties!.steps.find((s) => s.run?.includes('network.prop.test.ts'))! as { env?: unknown };
    expect(run.env).toMatchObject({
      LOCKSTEP_PROPERTY_RUNS: expect.any(String),
      LOCKSTEP_PROPERTY_DURATION: expect.any(String),
    });
    expect(
      p.jobs.properties!.steps.some((s) => s.uses?.startsWith('actions/upload-artifact') && s.if === 'always()'),
    ).toBe(true);
  });

  it('mutation.yml shards the sample over a matrix, lets failures fail, still uploads and merges into the job summary', () => {
    const m = workflow('mutation.yml');
    const runs = Object.values(m.jobs).flatMap((j) => j.steps.flatMap((s) => (s.run ? [s.run] : [])));
    for (const run of runs) expect(run).not.toMatch(/\|\|\s*true|;\s*true\b|continue-on-error/);
    const shardRun = m.jobs.shard!.steps.find((s) => s.run?.includes('bench -- mutation'))!.run!;
    expect(shardRun).toMatch(/--shard \$\{\{ matrix\.shard \}\}\/4 /);
    expect(m.jobs.shard!.steps.filter((s) => s.uses?.startsWith('actions/upload-artifact')).map((s) => s.if)).toEqual([
      'always()',
    ]);
    expect(m.jobs.merge!.if).toBe('always()');
    const merge = m.jobs.merge!.steps.find((s) => s.run?.includes('mutation merge'))!.run!;
    expect(merge).toMatch(/--markdown >> "\$GITHUB_STEP_SUMMARY"$/);
  });
});
