/**
 * The guided explorer: a campaign that learns from what it has seen. It works in generations: it
 * draws a batch of runs from its state (fresh draws from the space, space.ts, or mutations of runs
 * its corpus kept, mutate.ts), the caller runs them (on any number of workers, in any order) and
 * hands the results back in job order, and the explorer takes them in: features counted, runs that
 * reached something new kept. The next batch is drawn only from that state, so the sequence of
 * runs depends on the campaign seed, the shard, the loaded corpus and the code under test (through
 * what its runs showed), never on the worker count or the finishing order.
 *
 * A campaign that loaded a corpus runs its entries again first (in their saved order, a batch at a
 * time): their features are counted on this code before anything is mutated.
 *
 * The state after a generation is plain data (`state()`), and `Explorer.resume` continues from it
 * with exactly the runs the uninterrupted campaign would have made.
 */
import { Rng } from '../../env/rng';
import { type Scenario } from '../../scenario/scenario';
import { decodeScenario } from '../../scenario/decodeScenario';
import { encodeScenario } from '../../scenario/encodeScenario';
import { Corpus, type CorpusEntry, costUnits, entryKey } from './corpus';
import { type Mutator, checked, fitScenario, mutateScenario } from './mutate';
import { drawScenario } from './space';
import { type FeatureFamily } from './features';

export const EXPLORER_VERSION = 1;
/** Runs per generation: fixed, so the sequence does not depend on the worker count. */
export const DEFAULT_BATCH = 8;
/** The share of a batch drawn fresh once the corpus has entries (the rest are mutations). */
export const FRESH_SHARE = 0.25;

export interface ExplorerOptions {
  campaignSeed: number;
  shard: { index: number; count: number };
  batch?: number;
  /** A loaded corpus, run again first. */
  corpus?: readonly CorpusEntry[];
  /**
   * The feature families that count as new ground (default all: features.ts). For measuring
   * which feedback pays; `fresh` draws every run fresh (no corpus, no mutation: the space alone).
   */
  families?: readonly FeatureFamily[];
  fresh?: boolean;
}

export type JobOrigin = 'corpus' | 'fresh' | 'mutant';

export interface ExploreJob {
  /** The run's id in the campaign: the k-th run of shard I/N is (k - 1) * N + I (as swarm seeds are laid out). */
  id: number;
  scenario: Scenario;
  /** The seed it runs with. */
  seed: number;
  origin: JobOrigin;
  /** A mutant's parent (its corpus id) and the operators applied. */
  parent?: string;
  ops?: Mutator[];
}

/** What the explorer needs back from a run. */
export interface ExploreOutcome {
  id: number;
  failed: boolean;
  features: readonly string[];
}

export interface ExplorerStats {
  runs: number;
  byOrigin: Record<JobOrigin, { runs: number; kept: number }>;
  /** Per operator: mutants it took part in, and those kept (they reached something new). */
  byOperator: Record<string, { runs: number; kept: number }>;
  features: number;
  corpus: number;
}

/** The explorer's state between generations (JSON): enough to resume exactly. */
export interface ExplorerState {
  version: number;
  campaignSeed: number;
  shard: { index: number; count: number };
  batch: number;
  generation: number;
  runs: number;
  /** Loaded entries not yet run again. */
  pendingCorpus: Array<{ id: string; seed: number; scenario: Record<string, unknown> }>;
  corpus: Array<{ id: string; seed: number; features: string[]; scenario: Record<string, unknown> }>;
  seen: Array<[string, number]>;
  stats: ExplorerStats;
  families?: FeatureFamily[];
  fresh?: boolean;
}

function emptyStats(): ExplorerStats {
  return {
    runs: 0,
    byOrigin: { corpus: { runs: 0, kept: 0 }, fresh: { runs: 0, kept: 0 }, mutant: { runs: 0, kept: 0 } },
    byOperator: {},
    features: 0,
    corpus: 0,
  };
}

/** A fresh scenario, fitted and checked (the draw is repeated in the rare case the decoder refuses it). */
export function freshScenario(rng: Rng): Scenario {
  for (let i = 0; ; i++) {
    const s = checked(fitScenario(drawScenario(rng)));
    if (s !== null) return s;
    if (i > 20) throw new Error(`the explorer's space drew ${i} scenarios the decoder refuses (${rng.path})`);
  }
}

export class Explorer {
  private generation = 0;
  private runs = 0;
  private readonly corpus = new Corpus();
  private pendingCorpus: CorpusEntry[];
  private readonly stats: ExplorerStats = emptyStats();
  private readonly batch: number;
  /** The batch handed out and not yet taken back, and the state before it was drawn. */
  private open: ExploreJob[] | null = null;
  private before: { runs: number; pending: CorpusEntry[] } = { runs: 0, pending: [] };

  constructor(private readonly opts: ExplorerOptions) {
    this.batch = opts.batch ?? DEFAULT_BATCH;
    this.pendingCorpus = [...(opts.corpus ?? [])];
  }

  private rngOf(generation: number): Rng {
    const { campaignSeed, shard } = this.opts;
    return Rng.forSeed(`explore-${campaignSeed}-${shard.index}-${shard.count}`).fork(`g${generation}`);
  }

  private nextId(): number {
    const { index, count } = this.opts.shard;
    return this.runs++ * count + index;
  }

  /**
   * The next generation's runs, at most `limit` of them (the end of a campaign of a set number of
   * runs); call `ingest` with their outcomes, or `abandon`, before asking again.
   */
  nextBatch(limit = Infinity): ExploreJob[] {
    if (this.open) throw new Error('the previous batch has not been taken back yet');
    this.before = { runs: this.runs, pending: [...this.pendingCorpus] };
    const rng = this.rngOf(this.generation);
    const jobs: ExploreJob[] = [];
    for (let i = 0; i < Math.min(this.batch, limit); i++) {
      const jr = rng.fork(`j${i}`);
      const loaded = this.pendingCorpus.shift();
      if (loaded) {
        jobs.push({
          id: 0,
          scenario: loaded.scenario,
          seed: loaded.seed,
          origin: 'corpus',
          parent: loaded.id,
        });
        continue;
      }
      const parent = this.generation > 0 && !this.opts.fresh && !jr.bool(FRESH_SHARE) ? this.corpus.pick(jr) : null;
      if (parent) {
        const donor = this.corpus.pick(jr);
        const m = mutateScenario(jr, parent.scenario, donor && donor !== parent ? donor.scenario : null);
        if (m) {
          const seed = jr.bool(0.3) ? jr.int(1, 2 ** 31 - 1) : parent.seed;
          jobs.push({ id: 0, scenario: m.scenario, seed, origin: 'mutant', parent: parent.id, ops: m.ops });
          continue;
        }
      }
      jobs.push({ id: 0, scenario: freshScenario(jr), seed: jr.int(1, 2 ** 31 - 1), origin: 'fresh' });
    }
    // Cheapest first (a loaded corpus keeps its order): a campaign that stops at its first failure
    // spends the least before it, shortest-job-first; ids follow the order run.
    const order = jobs
      .map((j, i) => ({ j, i, cost: j.origin === 'corpus' ? -1 : costUnits(j.scenario) }))
      .sort((a, b) => a.cost - b.cost || a.i - b.i)
      .map(({ j }) => ({ ...j, id: this.nextId() }));
    this.open = order;
    return order;
  }

  /** Take a generation's outcomes back, in job order (a failing run is counted, never kept). */
  ingest(outcomes: readonly ExploreOutcome[]): void {
    const jobs = this.open;
    if (!jobs) throw new Error('no batch is open');
    if (outcomes.length !== jobs.length || outcomes.some((o, i) => o.id !== jobs[i]!.id))
      throw new Error('the outcomes must be those of the open batch, in job order');
    const families = this.opts.families ? new Set<string>(this.opts.families) : null;
    for (const [i, o] of outcomes.entries()) {
      const job = jobs[i]!;
      const features = families ? o.features.filter((f) => families.has(f.slice(0, f.indexOf(':')))) : o.features;
      const kept =
        !o.failed &&
        this.corpus.consider({
          id: entryKey(job.scenario, job.seed),
          scenario: job.scenario,
          seed: job.seed,
          features: [...features].sort(),
        }).length > 0;
      this.count(job, kept);
    }
    this.open = null;
    this.generation++;
  }

  /** Forget the open batch (its runs did not all finish): the state is as before it was drawn. */
  abandon(): void {
    if (!this.open) return;
    this.runs = this.before.runs;
    this.pendingCorpus = this.before.pending;
    this.open = null;
  }

  private count(job: ExploreJob, kept: boolean): void {
    const s = this.stats;
    s.runs++;
    s.byOrigin[job.origin].runs++;
    if (kept) s.byOrigin[job.origin].kept++;
    for (const op of new Set(job.ops ?? [])) {
      const e = s.byOperator[op] ?? { runs: 0, kept: 0 };
      s.byOperator[op] = e;
      e.runs++;
      if (kept) e.kept++;
    }
  }

  /** How the campaign went so far (features seen, corpus size, what kept runs came from). */
  summary(): ExplorerStats {
    return { ...structuredClone(this.stats), features: this.corpus.seen.size, corpus: this.corpus.entries.length };
  }

  /** The corpus kept so far (to save). */
  entries(): readonly CorpusEntry[] {
    return this.corpus.entries;
  }

  /** Between generations only: the state to resume from. */
  state(): ExplorerState {
    if (this.open) throw new Error('a batch is open: save the state between generations');
    const enc = (e: CorpusEntry) => ({ id: e.id, seed: e.seed, scenario: encodeScenario(e.scenario) });
    return {
      version: EXPLORER_VERSION,
      campaignSeed: this.opts.campaignSeed,
      shard: this.opts.shard,
      batch: this.batch,
      generation: this.generation,
      runs: this.runs,
      pendingCorpus: this.pendingCorpus.map(enc),
      corpus: this.corpus.entries.map((e) => ({ ...enc(e), features: e.features })),
      seen: [...this.corpus.seen],
      stats: this.summary(),
      ...(this.opts.families ? { families: [...this.opts.families] } : {}),
      ...(this.opts.fresh ? { fresh: true } : {}),
    };
  }

  /** An explorer that continues from `state` (written by `state()` of the same version). */
  static resume(state: ExplorerState): Explorer {
    if (state.version !== EXPLORER_VERSION)
      throw new Error(`the saved explorer state is of version ${state.version}, this is ${EXPLORER_VERSION}`);
    const x = new Explorer({
      campaignSeed: state.campaignSeed,
      shard: state.shard,
      batch: state.batch,
      ...(state.families ? { families: state.families } : {}),
      ...(state.fresh ? { fresh: true } : {}),
    });
    x.generation = state.generation;
    x.runs = state.runs;
    x.pendingCorpus = state.pendingCorpus.map((e) => ({
      id: e.id,
      seed: e.seed,
      features: [],
      scenario: decodeScenario(e.scenario),
    }));
    x.corpus.restore(
      state.corpus.map((e) => ({ id: e.id, seed: e.seed, features: e.features, scenario: decodeScenario(e.scenario) })),
      state.seen,
    );
    Object.assign(x.stats, structuredClone(state.stats));
    return x;
  }
}
