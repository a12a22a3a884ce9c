/**
 * What a sweep's analysis needs, and what makes two shards of one sweep comparable: the cells in
 * order, every seed, the metrics, the comparisons, the bootstrap settings, the drawn fields, the
 * grid's axes (for plots against a parameter) and the family-wise error rate of its "clear"
 * calls. It is written at the top of every shard's journal; `report merge` merges shards only of
 * one plan and one source tree.
 */
import { type Sweep } from './sweepFile';

/** A study's "clear" calls keep the chance of even one false call below this (Holm). */
export const FAMILY_ALPHA = 0.05;

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
  /** The grid's axes: path, short name, values (in the sweep file's form). */
  axes: Array<{ path: string; name: string; values: unknown[] }>;
  /** Each grid cell's value on each axis, by axis path (cells listed by hand are absent). */
  cellAxes: Record<string, Record<string, unknown>>;
  alpha: number;
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
    axes: s.axes.map((a) => ({ path: a.path, name: a.name, values: a.values })),
    cellAxes: Object.fromEntries(s.cells.flatMap((c) => (c.axisValues ? [[c.label, c.axisValues]] : []))),
    alpha: FAMILY_ALPHA,
  };
}

/** Seeds of shard I/N: every N-th seed of the list, starting at the I-th (all cells of a seed stay together). */
export function seedsOfShard(seeds: readonly number[], shard: { index: number; count: number }): number[] {
  return seeds.filter((_, i) => i % shard.count === shard.index - 1);
}
