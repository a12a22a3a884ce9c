/**
 * A shrunk counterexample says what failed, so that running it fails the same way: a property
 * stated as metric bounds writes them into the file's `expect.metrics`, and a run of the file ends
 * with the `expectations` verdict (exit 5) instead of passing; a check in code, which no file can
 * carry, is reported as not replayable.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../cli/verdictCodes';
import { runOutcome } from '../report/outcome';
import { runScenario } from '../run/run';
import { loadScenario } from '../scenario/load';
import { type Scenario } from '../scenario/scenario';
import { decodeScenario } from '../scenario/decodeScenario';
import { encodeScenario } from '../scenario/encodeScenario';
import { checkNetworkProperty } from './networkProperty';

const out = mkdtempSync(join(tmpdir(), 'lockstep-counterexample-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));
const { scenario: smoke } = loadScenario('smoke');
const short = fc.constant<Scenario>({ ...smoke, durationMs: 30_000, faults: [], seed: 1 });

describe('counterexample files', () => {
  it('a property of metric bounds writes them down: the file fails with the expectations verdict', () => {
    const r = checkNetworkProperty({
      name: 'few-blocks',
      arbitrary: short,
      oracles: [],
      metrics: { max: { serviceBlocks: 3 } },
      numRuns: 1,
      outDir: out,
      seed: 1,
    });
    expect(r.failed).toBe(true);
    if (!r.failed) return;
    expect(r).toMatchObject({ replayable: true, violation: null });
    expect(r.message).toMatch(/^metrics: serviceBlocks \d+ above its maximum 3$/);
    const { scenario } = loadScenario(r.file);
    expect(scenario.expect).toMatchObject({ verdict: 'pass', metrics: { min: {}, max: { serviceBlocks: 3 } } });
    const run = runScenario(scenario, { seed: scenario.seed! });
    const outcome = runOutcome(scenario, run);
    expect(outcome.verdict).toBe('expectations');
    expect(outcome.failed.map((c) => c.what)).toEqual(['metrics.serviceBlocks']);
    expect(exitCodeOf(outcome.verdict)).toBe(5);
  }, 120_000);

  it('a check in code is reported as not replayable', () => {
    const r = checkNetworkProperty({
      name: 'in-code',
      arbitrary: short,
      oracles: [],
      check: (run) => (run.counts.serviceBlocks > 3 ? 'too many blocks' : null),
      numRuns: 1,
      outDir: out,
      seed: 1,
    });
    expect(r.failed && r.replayable).toBe(false);
    if (!r.failed) return;
    expect(loadScenario(r.file).scenario.description).toContain('cannot judge a check in code');
  }, 120_000);

  it('a metric bound in a scenario file names an unknown metric and a bad value', () => {
    const file = (metrics: unknown) => ({ ...encodeScenario(smoke), expect: { verdict: 'pass', metrics } });
    expect(decodeScenario(file({ max: { reorgDepthHealthy: 2.5 } })).expect.metrics).toEqual({
      min: {},
      max: { reorgDepthHealthy: 2.5 },
    });
    expect(() => decodeScenario(file({ max: { nope: 1 } }))).toThrow(
      /^expect\.metrics\.max\.nope: unknown metric "nope"/,
    );
    expect(() => decodeScenario(file({ min: { reorgDepth: 'deep' } }))).toThrow(
      /^expect\.metrics\.min\.reorgDepth: expected a number/,
    );
  });
});
