/**
 * The hunt's accounting on a fake runner: CPU-seconds to the first catch are those of every run up
 * to and including the failing one; a catch past the budget is not one, and a bug not caught
 * counts the budget; a failing run the unmodified code fails too is set apart and the campaign
 * goes on; every run's outcome goes back to the campaign (the guided one learns from them); the
 * report's medians and percentiles count misses at the budget.
 */
import { describe, expect, it } from 'vitest';
import { type RunReport, type Runner, huntBug } from './hunt';
import { type HuntJob, type RunOutcome, type RunSource, guidedSource, swarmSource } from './strategies';
import { strategyStats } from './render';
import { type HuntRow } from './results';

/** A source of numbered jobs that keeps every outcome handed back. */
function source(): RunSource & { log: RunOutcome[] } {
  let i = 0;
  const log: RunOutcome[] = [];
  return {
    log,
    next: (): HuntJob => ({ index: ++i, label: `job ${i}`, scenario: { name: 'x' }, seed: i }),
    taken: (o) => {
      log.push(o);
    },
  };
}

/** A runner whose i-th run costs cpu[i] ms and fails when fails(i); the unmodified code fails unmodifiedFails(i). */
function fake(
  cpu: number[],
  fails: (i: number) => boolean,
  unmodifiedFails: (i: number) => boolean = () => false,
): Runner {
  const report = (outcome: RunReport['outcome'], cpuMs: number): RunReport => ({
    outcome,
    oracle: outcome === 'pass' ? null : 'some-oracle',
    message: outcome,
    cpuMs,
    hits: 1,
    features: [],
  });
  return {
    run: async (j) => report(fails(j.index) ? 'safety' : 'pass', cpu[j.index - 1] ?? 1000),
    unmodified: async (j) => report(unmodifiedFails(j.index) ? 'liveness' : 'pass', 5),
  };
}

describe('hunt accounting', () => {
  it('counts the runs up to and including the catch', async () => {
    const r = await huntBug(
      swarmlike(),
      fake([3000, 4000, 2500], (i) => i === 3),
      120_000,
    );
    expect(r).toMatchObject({ caught: true, cpuS: 9.5, runs: 3, kind: 'safety', oracle: 'some-oracle', reached: true });
    expect(r.job!.index).toBe(3);
  });

  it('a catch past the budget is not one; a miss counts the budget', async () => {
    const late = await huntBug(
      swarmlike(),
      fake([6000, 6000], (i) => i === 2),
      10_000,
    );
    expect(late).toMatchObject({ caught: false, cpuS: 10, spentS: 12, runs: 2, kind: null });
    const never = await huntBug(
      swarmlike(),
      fake([], () => false),
      5_000,
    );
    expect(never).toMatchObject({ caught: false, cpuS: 5, runs: 5 });
  });

  it('sets apart what the unmodified code fails too, and tells the campaign every outcome', async () => {
    const s = source();
    const r = await huntBug(
      s,
      fake(
        [1000, 1000, 1000],
        (i) => i >= 2,
        (i) => i === 2,
      ),
      60_000,
    );
    expect(r).toMatchObject({ caught: true, cpuS: 3, runs: 3 });
    expect(r.alsoFailsUnmodified).toEqual([
      { label: 'job 2', outcome: 'liveness', oracle: 'some-oracle', message: 'liveness' },
    ]);
    expect(s.log.map((o) => o.failed)).toEqual([false, true]);
  });

  it('the report counts misses at the budget', () => {
    const row = (caught: boolean, cpuS: number, kind: HuntRow['kind'] = null): HuntRow =>
      ({
        caught,
        cpuS,
        spentS: cpuS,
        runs: 1,
        kind,
        oracle: kind === 'safety' ? 'o' : null,
        strategy: 'guided',
        bug: { type: 'mutant' },
        alsoFailsUnmodified: [],
        byGuard: null,
      }) as unknown as HuntRow;
    const s = strategyStats('guided', [
      row(true, 2, 'safety'),
      row(true, 4, 'crash'),
      row(false, 120),
      row(true, 6, 'liveness'),
    ]);
    expect(s).toMatchObject({
      caught: 3,
      bugs: 4,
      medianS: 5,
      byOracle: 2,
      kinds: { safety: 1, liveness: 1, crash: 1 },
    });
    // simple-statistics' quantile interpolates between the 3rd and the 4th of four.
    expect(s.p90S).toBeCloseTo(85.8, 5);
  });
});

describe('strategy sources', () => {
  it('swarm gives seeds 1, 2, 3 of the swarm profile; guided takes outcomes back a generation at a time', () => {
    const sw = swarmSource(600_000);
    expect([sw.next(), sw.next()].map((j) => [j.seed, j.scenario.name])).toEqual([
      [1, 'swarm'],
      [2, 'swarm'],
    ]);
    const a = guidedSource(3);
    const b = guidedSource(3);
    for (let i = 0; i < 10; i++) {
      const ja = a.next();
      expect(b.next()).toEqual(ja);
      a.taken({ failed: false, features: [`f${i % 3}`] });
      b.taken({ failed: false, features: [`f${i % 3}`] });
    }
  });
});

function swarmlike(): RunSource {
  let i = 0;
  return { next: () => ({ index: ++i, label: `seed ${i}`, scenario: { name: 'swarm' }, seed: i }), taken: () => {} };
}
