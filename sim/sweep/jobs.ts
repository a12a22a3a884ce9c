/**
 * The runs of a sweep (or of one shard): every cell on every seed of the shard, seed by seed,
 * each with its scenario built and checked before anything runs, so a bad combination is an error
 * naming the cell and the seed at once, not an hour into the sweep.
 */
import { createHash } from 'node:crypto';
import { type SweepJob } from '../campaign/sweepTask';
import { seedsOfShard } from './plan';
import { type SourceState } from '../core/sourceState';
import { type Sweep, cellScenario } from './sweepFile';

export function sweepJobs(sweep: Sweep, shard: { index: number; count: number }, source: SourceState): SweepJob[] {
  const jobs: SweepJob[] = [];
  for (const seed of seedsOfShard(sweep.seeds, shard))
    for (const cell of sweep.cells) {
      const run = cellScenario(sweep, cell, seed);
      jobs.push({
        cell: cell.label,
        seed,
        scenarioSha256: createHash('sha256').update(sortedJson(run.json)).digest('hex'),
        scenario: run.scenario,
        metrics: sweep.metrics,
        drawn: run.drawn,
        source,
      });
    }
  return jobs;
}

export const jobKey = (j: { cell: string; seed: number }): string => `${j.seed}\u0000${j.cell}`;

/** JSON with every object's keys sorted: the same scenario file hashes the same whatever its key order. */
function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}
