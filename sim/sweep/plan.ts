/**
 * What a sweep's analysis needs, and what makes two shards of one sweep comparable: the cells in
 * order, every seed, the metrics, the comparisons, the bootstrap settings, the drawn fields. It is
 * written at the top of every shard's journal; `report merge` merges shards only of one plan and
 * one build.
 */
import { type Sweep } from './sweepFile';

export interface SweepPlan {
  sweep: string;
  description: string;
  cells: string[];
  seeds: number[];
  metrics: string[];
  compare: Array<[string, string]>;
  bootstrap: { resamples: number; seed: string };
  /** Field paths drawn per seed (documentation for the tables). */
  drawn: string[];
}

export function planOf(s: Sweep): SweepPlan {
  return {
    sweep: s.name,
    description: s.description,
    cells: s.cells.map((c) => c.label),
    seeds: s.seeds,
    metrics: s.metrics,
    compare: s.compare,
    bootstrap: s.bootstrap,
    drawn: s.draws.map((d) => d.path),
  };
}

/** Seeds of shard I/N: every N-th seed of the list, starting at the I-th (all cells of a seed stay together). */
export function seedsOfShard(seeds: readonly number[], shard: { index: number; count: number }): number[] {
  return seeds.filter((_, i) => i % shard.count === shard.index - 1);
}
