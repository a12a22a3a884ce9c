/**
 * The explorer's state machine, with outcomes made up (no run): the same seed and outcomes give
 * the same batches; a state saved between generations resumes to exactly the batches the
 * uninterrupted explorer draws; an abandoned batch is drawn again; a loaded corpus runs first; a
 * run with a new feature is kept and a failing one never is; later generations mutate.
 */
import { describe, expect, it } from 'vitest';
import { encodeScenario } from '../../scenario/encodeScenario';
import { Explorer, type ExploreJob, type ExploreOutcome } from './explorer';

/** Made-up outcomes: a feature per job's layout size and fault kinds, so some runs are new and some not. */
function outcomes(jobs: readonly ExploreJob[], failId = -1): ExploreOutcome[] {
  return jobs.map((j) => ({
    id: j.id,
    failed: j.id === failId,
    features: [`n:${j.scenario.validators.length}`, ...j.scenario.faults.map((f) => `f:${f.kind}`)],
  }));
}

const key = (jobs: readonly ExploreJob[]) =>
  jobs.map((j) => `${j.id}/${j.origin}/${j.seed}/${JSON.stringify(encodeScenario(j.scenario))}`);

function drive(x: Explorer, generations: number): string[] {
  const out: string[] = [];
  for (let g = 0; g < generations; g++) {
    const b = x.nextBatch();
    out.push(...key(b));
    x.ingest(outcomes(b));
  }
  return out;
}

describe('explorer', () => {
  const opts = { campaignSeed: 5, shard: { index: 2, count: 3 } };

  it('is deterministic, lays ids out as shard seeds, and mutates kept runs', () => {
    const a = new Explorer(opts);
    const b = new Explorer(opts);
    expect(drive(a, 4)).toEqual(drive(b, 4));
    const x = new Explorer(opts);
    const first = x.nextBatch();
    expect(first.map((j) => j.id)).toEqual([2, 5, 8, 11, 14, 17, 20, 23]);
    expect(first.every((j) => j.origin === 'fresh')).toBe(true);
    x.ingest(outcomes(first, first[0]!.id));
    const s = x.summary();
    expect(s.byOrigin.fresh.runs).toBe(8);
    // The failing run is never kept; the others with a new feature are.
    expect(x.entries().some((e) => e.seed === first[0]!.seed && e.scenario === first[0]!.scenario)).toBe(false);
    expect(s.corpus).toBeGreaterThan(0);
    const second = x.nextBatch();
    expect(second.some((j) => j.origin === 'mutant' && j.ops && j.ops.length > 0)).toBe(true);
    expect(new Explorer({ ...opts, campaignSeed: 6 }).nextBatch().map((j) => j.seed)).not.toEqual(
      first.map((j) => j.seed),
    );
  });

  it('resumes from a saved state exactly; an abandoned batch is drawn again', () => {
    const whole = drive(new Explorer(opts), 5);
    const x = new Explorer(opts);
    const head = drive(x, 2);
    const open = x.nextBatch();
    x.abandon();
    const state = JSON.parse(JSON.stringify(x.state()));
    const y = Explorer.resume(state);
    const again = y.nextBatch();
    expect(key(again)).toEqual(key(open));
    y.ingest(outcomes(again));
    expect([...head, ...key(again), ...drive(y, 2)]).toEqual(whole);
    expect(() => y.ingest([])).toThrow(/no batch is open/);
  });

  it('runs a loaded corpus first, then goes on', () => {
    const seedRun = new Explorer(opts);
    const b = seedRun.nextBatch();
    seedRun.ingest(outcomes(b));
    const corpus = seedRun.entries();
    const x = new Explorer({ ...opts, corpus, batch: 4 });
    const jobs: ExploreJob[] = [];
    while (jobs.length < corpus.length + 4) {
      const batch = x.nextBatch();
      jobs.push(...batch);
      x.ingest(outcomes(batch));
    }
    expect(jobs.slice(0, corpus.length).map((j) => [j.origin, j.parent, j.seed])).toEqual(
      corpus.map((e) => ['corpus', e.id, e.seed]),
    );
    expect(jobs.slice(corpus.length).every((j) => j.origin !== 'corpus')).toBe(true);
  });
});
