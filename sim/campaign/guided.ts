/**
 * `lockstep fuzz --strategy guided`: the explorer's campaign (sim/campaign/explore/) over a worker
 * pool. Each generation's runs go to the pool together; their results are taken back in job order,
 * so the runs, the corpus and the summary are the same whatever the worker count or finishing order.
 * The summary is a fuzz campaign's (fuzz.ts), its `seed`s the runs' ids; the explorer's own figures
 * (runs kept, per origin and per mutation operator, features seen) come beside it.
 *
 * Stopping: after `runs` runs of the shard, when the wall budget is spent (checked between
 * generations), or when asked (Ctrl-C): the batch under way finishes and is reported; the state
 * handed to `onGeneration` is that of the last whole generation, which `resume` continues exactly.
 */
import { type PlantName } from '../../src/core/plants';
import { encodeScenario } from '../scenario/encodeScenario';
import { type CampaignSummary, seedsOfShard, summarise } from './fuzz';
import { openPool } from './pool';
import { type ExploreRunResult, type ExploreTaskJob } from './exploreTask';
import { type CorpusEntry } from './explore/corpus';
import { type ExploreJob, Explorer, type ExplorerState, type ExplorerStats } from './explore/explorer';

export interface GuidedOptions {
  /** Runs with ids 1..runs (within the shard); or run until the wall budget ends. */
  runs?: number;
  wallBudgetMs?: number;
  workers: number;
  shard: { index: number; count: number };
  campaignSeed: number;
  plant?: PlantName;
  /** A loaded corpus (run again first). */
  corpus?: readonly CorpusEntry[];
  /** Continue from a saved state (and the results it had) instead of starting afresh. */
  resume?: { state: ExplorerState; results: ExploreRunResult[] };
  /** How the repro of a failing run reads (the CLI knows where its file goes). */
  repro?: (id: number) => string;
  onResult?: (r: ExploreRunResult, job: ExploreJob, done: number) => void;
  /** After each whole generation: the state to resume from, and every result so far. */
  onGeneration?: (state: ExplorerState, results: readonly ExploreRunResult[]) => void;
  shouldStop?: () => boolean;
  now: () => number;
}

export interface GuidedCampaign {
  results: ExploreRunResult[];
  /** The jobs by id (the scenario and seed of each run). */
  jobs: Map<number, ExploreJob>;
  summary: CampaignSummary;
  explorer: ExplorerStats;
  corpus: readonly CorpusEntry[];
  state: ExplorerState;
}

/** What a guided campaign's failure says to do: run the scenario file it wrote (it holds the seed). */
export function guidedRepro(file: string): string {
  return `npx lockstep run --scenario ${file}  (shrink: npx lockstep shrink --scenario ${file})`;
}

export async function runGuidedCampaign(o: GuidedOptions): Promise<GuidedCampaign> {
  const explorer = o.resume
    ? Explorer.resume(o.resume.state)
    : new Explorer({ campaignSeed: o.campaignSeed, shard: o.shard, ...(o.corpus ? { corpus: o.corpus } : {}) });
  const results = new Map<number, ExploreRunResult>((o.resume?.results ?? []).map((r) => [r.seed, r]));
  const jobs = new Map<number, ExploreJob>();
  const limit = o.runs !== undefined ? seedsOfShard(o.runs, o.shard).length : Infinity;
  const start = o.now();
  let interrupted = false;
  const pool = openPool<ExploreTaskJob, ExploreRunResult>('exploreTask', o.workers);
  try {
    for (;;) {
      if (o.shouldStop?.()) {
        interrupted = true;
        break;
      }
      if (results.size >= limit) break;
      if (o.wallBudgetMs !== undefined && o.now() - start >= o.wallBudgetMs) break;
      const batch = explorer.nextBatch(limit - results.size);
      for (const j of batch) jobs.set(j.id, j);
      const out: ExploreRunResult[] = [];
      let filled = 0;
      let next = 0;
      let stopped = false;
      const loop = async (): Promise<void> => {
        for (let i = next++; i < batch.length; i = next++) {
          if (o.shouldStop?.()) {
            stopped = true;
            return;
          }
          const j = batch[i]!;
          const r = await pool.run({
            id: j.id,
            scenario: encodeScenario(j.scenario),
            seed: j.seed,
            ...(o.plant ? { plant: o.plant } : {}),
          });
          out[i] = r;
          filled++;
          results.set(r.seed, r);
          o.onResult?.(r, j, results.size);
        }
      };
      await Promise.all(Array.from({ length: Math.min(o.workers, batch.length) }, () => loop()));
      if (stopped || filled < batch.length) {
        // Reported, but not taken in: a resumed campaign runs the whole generation again.
        explorer.abandon();
        interrupted = true;
        break;
      }
      explorer.ingest(out.map((r) => ({ id: r.seed, failed: r.verdict !== 'pass', features: r.features })));
      o.onGeneration?.(explorer.state(), [...results.values()]);
    }
  } finally {
    await pool.close();
  }
  const sorted = [...results.values()].sort((a, b) => a.seed - b.seed);
  const summary = summarise(
    sorted,
    { durationMs: 0, crypto: 'fast', ...(o.plant ? { plant: o.plant } : {}) },
    interrupted,
  );
  if (o.repro) for (const f of summary.failures) f.repro = o.repro(f.seed);
  return {
    results: sorted,
    jobs,
    summary,
    explorer: explorer.summary(),
    corpus: explorer.entries(),
    state: explorer.state(),
  };
}
