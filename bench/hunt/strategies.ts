/**
 * The campaigns the hunt bench races, each as a source of runs taken one at a time: `swarm` is
 * `lockstep fuzz` as it is (seed N is swarm scenario N of the default length, seeds 1, 2, 3, …);
 * `guided` is `lockstep fuzz --strategy guided` (the explorer, sim/campaign/explore/, its
 * generations taken in job order). A run is a scenario as its file holds it and a seed, so a
 * catch can be written as a repro file. Every bug meets the same campaign: the same seeds, the same
 * campaign seed; where a guided campaign goes after its first generation depends on what the bug
 * made its runs show.
 */
import { encodeScenario } from '../../sim/scenario/encodeScenario';
import { swarmScenario } from '../../sim/campaign/swarm';
import { Explorer, type ExploreJob, type ExplorerOptions } from '../../sim/campaign/explore/explorer';

export const STRATEGIES = ['swarm', 'guided'] as const;
export type StrategyName = (typeof STRATEGIES)[number];

export interface HuntJob {
  /** The run's place in the campaign (1-based). */
  index: number;
  /** A label: `seed 17`, or `run 9 (mutant of …)`. */
  label: string;
  scenario: Record<string, unknown>;
  seed: number;
}

export interface RunOutcome {
  failed: boolean;
  features: readonly string[];
}

export interface RunSource {
  next(): HuntJob;
  /** The outcome of the job `next` gave last (every job is taken back before the next is asked). */
  taken(outcome: RunOutcome): void;
}

export function swarmSource(durationMs: number): RunSource {
  let seed = 0;
  return {
    next() {
      seed++;
      const s = swarmScenario(seed, durationMs);
      // Under the swarm's own name, so its streams are the campaign's (fuzz-seed-N files keep it so).
      return { index: seed, label: `seed ${seed}`, scenario: encodeScenario(s), seed };
    },
    taken() {},
  };
}

/** The explorer as a run source; `opts` narrows its feedback or turns its corpus off (the reach bench). */
export function guidedSource(campaignSeed: number, opts: GuidedVariant = {}): RunSource {
  const explorer = new Explorer({ campaignSeed, shard: { index: 1, count: 1 }, ...opts });
  let batch: ExploreJob[] = [];
  let outcomes: Array<{ id: number; failed: boolean; features: readonly string[] }> = [];
  let at = 0;
  return {
    next() {
      if (at === batch.length) {
        batch = explorer.nextBatch();
        outcomes = [];
        at = 0;
      }
      const j = batch[at++]!;
      const how = j.origin === 'mutant' ? `mutant: ${(j.ops ?? []).join('+')}` : j.origin;
      return { index: j.id, label: `run ${j.id} (${how})`, scenario: encodeScenario(j.scenario), seed: j.seed };
    },
    taken(o) {
      outcomes.push({ id: batch[outcomes.length]!.id, failed: o.failed, features: o.features });
      if (outcomes.length === batch.length) explorer.ingest(outcomes);
    },
  };
}

export type GuidedVariant = Pick<ExplorerOptions, 'families' | 'fresh'>;

export function sourceOf(strategy: StrategyName, o: { swarmDurationMs: number; campaignSeed: number }): RunSource {
  return strategy === 'swarm' ? swarmSource(o.swarmDurationMs) : guidedSource(o.campaignSeed);
}
