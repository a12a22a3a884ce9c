/**
 * The guided campaign on a worker pool: the same runs, results and corpus with 1 worker as with 2
 * (generations are drawn from the state of the whole previous one, results taken in job order); a
 * campaign resumed from the state saved after its first generation goes on exactly as the
 * uninterrupted one; a saved corpus, loaded, runs first.
 */
import { describe, expect, it } from 'vitest';
import { runGuidedCampaign } from './guided';
import { type ExplorerState } from './explore/explorer';
import { type ExploreRunResult } from './exploreTask';
import { corpusFile, readCorpus } from './explore/corpus';

const base = { runs: 12, shard: { index: 1, count: 1 }, campaignSeed: 11, now: () => 0 };
const view = (rs: readonly ExploreRunResult[]) => rs.map((r) => `${r.seed}:${r.runSeed}:${r.verdict}:${r.traceHash}`);

describe('guided campaign', () => {
  it('gives the same runs with 1 and 2 workers, and resumes exactly', async () => {
    let saved: { state: ExplorerState; results: ExploreRunResult[] } | null = null;
    const one = await runGuidedCampaign({
      ...base,
      workers: 1,
      onGeneration: (state, results) => {
        saved ??= JSON.parse(JSON.stringify({ state, results }));
      },
    });
    const two = await runGuidedCampaign({ ...base, workers: 2 });
    expect(view(two.results)).toEqual(view(one.results));
    expect(two.summary).toEqual(one.summary);
    expect(two.explorer).toEqual(one.explorer);
    expect(two.corpus.map((e) => e.id)).toEqual(one.corpus.map((e) => e.id));
    expect(one.results.map((r) => r.seed)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect([...one.jobs.values()].some((j) => j.origin === 'mutant')).toBe(true);
    expect(saved).not.toBeNull();
    const resumed = await runGuidedCampaign({ ...base, workers: 2, resume: saved! });
    expect(view(resumed.results)).toEqual(view(one.results));
    expect(resumed.corpus.map((e) => e.id)).toEqual(one.corpus.map((e) => e.id));
  }, 240_000);

  it('runs a loaded corpus first', async () => {
    const first = await runGuidedCampaign({ ...base, runs: 4, workers: 2 });
    const file = JSON.parse(JSON.stringify(corpusFile(first.corpus, { version: 'x', commit: null })));
    const { entries } = readCorpus('corpus.json', file);
    const again = await runGuidedCampaign({
      ...base,
      runs: entries.length,
      workers: 2,
      corpus: entries,
      campaignSeed: 99,
    });
    expect([...again.jobs.values()].map((j) => j.origin)).toEqual(entries.map(() => 'corpus'));
    const byRun = new Map(first.results.map((r) => [r.runSeed, r.traceHash]));
    for (const r of again.results) expect(byRun.get(r.runSeed)).toBe(r.traceHash);
  }, 240_000);
});
