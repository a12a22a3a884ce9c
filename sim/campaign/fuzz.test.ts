/**
 * The fuzz smoke: 100 swarm seeds (fast crypto) over 2 workers pass on a correct build; with a
 * planted bug the campaign finds it, groups the failures by oracle, and the shrinker reduces a
 * failing seed to a scenario of at most 3 faults that still fails the same oracle.
 */
import { describe, expect, it } from 'vitest';
import { runCampaign, seedsOfShard, summarise } from './fuzz';
import { swarmScenario } from './swarm';
import { shrinkScenario } from './shrink';
import { runScenario } from '../run/run';
import { type Scenario } from '../scenario/scenario';

const SECONDS = 150_000;

describe('fuzz campaign', () => {
  it('smoke: 100 seeds on 2 workers, all pass; the summary does not depend on the worker count', async () => {
    const opts = {
      seeds: 100,
      workers: 2,
      shard: { index: 1, count: 1 },
      durationMs: SECONDS,
      crypto: 'fast' as const,
      efficacyEvery: 0,
      now: () => 0,
    };
    const { summary, results } = await runCampaign(opts);
    expect(summary.seeds).toBe(100);
    expect(summary.failures.map((f) => `${f.seed}: ${f.oracle} ${f.violation?.message}`)).toEqual([]);
    expect(summary.verdicts).toEqual({ pass: 100 });
    // Results are stored by seed: re-summarising a shuffled list gives the same summary.
    expect(summarise([...results].reverse(), opts)).toEqual(summary);
    for (const kind of Object.keys(summary.faults)) expect(summary.faults[kind]!.fired).toBeGreaterThan(0);
    // Every seed reports the rules it exercised; the campaign their union, and the rules none did.
    expect(results.every((r) => r.rules.length > 0)).toBe(true);
    const exercised = Object.keys(summary.rules.exercised);
    expect(exercised.length).toBeGreaterThan(20);
    expect(summary.rules.exercised['sidechain.fork-choice.total-difficulty']).toBe(100);
    expect(summary.rules.neverExercised.filter((id) => exercised.includes(id))).toEqual([]);
  }, 120_000);

  it('finds a planted bug, groups it by oracle, and shrinks a failure to at most 3 faults', async () => {
    // A campaign stops submitting once told to (as Ctrl-C does): here at its first failure.
    let failed = false;
    const { summary } = await runCampaign({
      seeds: 40,
      workers: 2,
      shard: { index: 1, count: 1 },
      durationMs: SECONDS,
      crypto: 'fast',
      efficacyEvery: 0,
      plant: 'sticky-head',
      now: () => 0,
      onResult: (r) => {
        if (r.verdict !== 'pass') failed = true;
      },
      shouldStop: () => failed,
    });
    expect(summary.interrupted).toBe(true);
    expect(summary.seeds).toBeLessThan(40);
    expect(summary.failures.length).toBeGreaterThan(0);
    expect(summary.groups[0]!.oracle).toBe('fork-choice');
    const failure = summary.failures[0]!;
    const check = (s: Scenario) => runScenario(s, { seed: failure.seed }).violation?.oracle ?? null;
    const original: Scenario = { ...swarmScenario(failure.seed, SECONDS), plant: 'sticky-head' };
    const { scenario, stats } = shrinkScenario(original, failure.oracle!, check);
    expect(scenario.faults.length).toBeLessThanOrEqual(3);
    expect(stats.faultsAfter).toBeLessThanOrEqual(stats.faultsBefore);
    expect(check(scenario)).toBe('fork-choice');
  }, 180_000);

  it('shards split the seed space', () => {
    const all = [1, 2, 3].flatMap((i) => seedsOfShard(10, { index: i, count: 3 }));
    expect([...all].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(seedsOfShard(10, { index: 2, count: 3 })).toEqual([2, 5, 8]);
  });
});
