/**
 * `lockstep test`: scenarios on their own seeds over the worker pool, one line each, a summary,
 * a non-zero exit on any failure, and JUnit XML that parses (read back with fast-xml-parser) with
 * one test case per scenario.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { lockstep, scenarioFile, scratchDir } from './cliHarness';

const dir = scratchDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface JunitCase {
  '@_name': string;
  '@_file': string;
  failure?: { '@_message': string; '@_type': string };
  error?: { '@_message': string; '@_type': string };
}

function parseJunit(file: string) {
  const xml = readFileSync(file, 'utf8');
  const doc = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testcase' }).parse(xml, true);
  return doc.testsuites as {
    '@_tests': string;
    '@_failures': string;
    '@_errors': string;
    testsuite: { '@_tests': string; testcase: JunitCase[] };
  };
}

describe('lockstep test', () => {
  it('passing scenarios (a regression that expects its violation included): exit 0, a line each, JUnit', async () => {
    const junit = join(dir, 'pass.xml');
    const r = await lockstep([
      'test',
      'scenarios/smoke.json',
      'scenarios/sidechain-partition.json',
      'scenarios/regressions/planted-*.json',
      '--junit',
      junit,
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ok +smoke +\d+\.\d s {2}pass$/m);
    expect(r.stdout).toMatch(
      /^ok +regressions\/planted-sticky-head-fork-choice +\d+\.\d s {2}safety \(fork-choice\)$/m,
    );
    expect(r.stdout).toMatch(/^3 scenarios: 3 passed, 0 failed, 0 errors in \d+\.\d s$/m);
    // The union of the rules the scenarios exercised, and the ones none did (docs/RULES.md).
    expect(r.stdout).toMatch(/^rules +[1-9]\d* of \d+ oracle-guarded rules exercised by at least one scenario/m);
    const suites = parseJunit(junit);
    expect(suites['@_tests']).toBe('3');
    expect(suites['@_failures']).toBe('0');
    expect(suites.testsuite.testcase.map((c) => c['@_name']).sort()).toEqual([
      'regressions/planted-sticky-head-fork-choice',
      'sidechain-partition',
      'smoke',
    ]);
  });

  it('an impossible expectation fails the suite (exit 5), a bad file is an error; JUnit has one case per scenario', async () => {
    scenarioFile(dir, 'impossible.json', 'smoke', {
      name: 'impossible',
      duration: '1m',
      expect: { verdict: 'pass', min: { serviceBlocks: 100000 } },
    });
    scenarioFile(dir, 'bare.json', 'smoke', { name: 'bare', duration: 240 });
    scenarioFile(dir, 'short.json', 'smoke', { name: 'short', duration: '1m', expect: { verdict: 'pass' } });
    const junit = join(dir, 'reports', 'junit.xml');
    const r = await lockstep(['test', dir, '--junit', junit, '--workers', '2']);
    expect(r.code, r.stdout + r.stderr).toBe(5);
    expect(r.stdout).toMatch(/^FAIL +\S*impossible +\d+\.\d s {2}serviceBlocks expected >= 100000 got \d+$/m);
    expect(r.stdout).toMatch(/^ERROR +\S*bare .*duration: a bare number is ambiguous/m);
    expect(r.stdout).toMatch(/^ok +\S*short /m);
    expect(r.stdout).toMatch(/^3 scenarios: 1 passed, 1 failed, 1 errors in /m);
    const suites = parseJunit(junit);
    const cases = suites.testsuite.testcase;
    expect(cases).toHaveLength(3);
    expect(suites['@_failures']).toBe('1');
    expect(suites['@_errors']).toBe('1');
    const byName = (n: string) => cases.find((c) => c['@_name'].endsWith(n))!;
    expect(byName('impossible').failure!['@_message']).toMatch(/^serviceBlocks expected >= 100000 got \d+$/);
    expect(byName('bare').error!['@_type']).toBe('badInput');
    expect(byName('short').failure).toBeUndefined();
  });

  it('a pattern that matches nothing is bad input naming it', async () => {
    const r = await lockstep(['test', 'scenarios/no-such-*.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no scenario files match "scenarios/no-such-*.json"');
  });
});
