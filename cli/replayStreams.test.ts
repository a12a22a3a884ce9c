/**
 * A run copied under another name replays the same run: the random streams are drawn under the
 * scenario's `streams` (default: its name), and the fuzz repro (`replay --fuzz-seed N`), the
 * failure files of `lockstep fuzz` and shrunk regressions keep the streams the campaign ran on.
 */
import { describe, expect, it } from 'vitest';
import { resolveTarget } from './shrinkReplayCommands';
// The task module's default export: the job a campaign's worker runs (the .mjs beside it loads it).
import runJob from '../sim/campaign/fuzzTask';
import { runScenario } from '../sim/run/run';
import { loadScenario } from '../sim/scenario/load';
import { decodeScenario } from '../sim/scenario/decodeScenario';
import { encodeScenario } from '../sim/scenario/encodeScenario';

describe('random streams under a scenario name', () => {
  it('replay --fuzz-seed runs what the campaign ran, under its own name', () => {
    const target = resolveTarget({ fuzzSeed: 5, duration: '1m' });
    expect(target.scenario.name).toBe('fuzz-seed-5');
    expect(target.scenario.streams).toBe('swarm');
    const job = runJob({ seed: 5, durationMs: 60_000, crypto: target.scenario.crypto, efficacy: false });
    expect(runScenario(target.scenario, { seed: target.seed }).traceHash).toBe(job.traceHash);
  });

  it('a renamed scenario runs differently unless it keeps its streams', () => {
    const { scenario } = loadScenario('smoke');
    const short = { ...scenario, durationMs: 30_000 };
    const hash = (s: typeof short) => runScenario(s, { seed: 2 }).traceHash;
    const original = hash(short);
    expect(hash({ ...short, name: 'renamed' })).not.toBe(original);
    expect(hash({ ...short, name: 'renamed', streams: short.name })).toBe(original);
  });

  it('streams survive a scenario file round trip, and an empty one names the field', () => {
    const { scenario } = loadScenario('smoke');
    const file = encodeScenario({ ...scenario, name: 'copy', streams: 'smoke' });
    expect(file.streams).toBe('smoke');
    expect(decodeScenario(file).streams).toBe('smoke');
    expect(() => decodeScenario({ ...file, streams: '' })).toThrow(/streams/);
  });
});
