/**
 * Merging the journals of a sweep's shards (a CI matrix of `lockstep sweep --shard I/N`) into the
 * runs of one sweep, refusing what would count wrong: a shard given twice, shards of another plan
 * (sweep file, seeds, cells, metrics), another source tree or another shard count, and a run
 * present in two shards. Shards not given are named (`report merge` refuses to call a merge with
 * a shard missing complete).
 */
import { InputError } from '../../src/core/errors';
import { type SweepRunRecord } from '../campaign/sweepTask';
import { type Journal } from './journal';
import { type SweepPlan } from './plan';
import { type SourceState, sameSource, sourceText } from '../core/sourceState';

export interface MergedSweep {
  plan: SweepPlan;
  version: string;
  source: SourceState;
  sourceFiles: string[];
  shardCount: number;
  shards: number[];
  missingShards: number[];
  records: SweepRunRecord[];
}

export function mergeSweepShards(parts: Array<{ dir: string; journal: Journal }>): MergedSweep {
  if (parts.length === 0) throw new InputError('dirs', 'name at least one sweep shard folder');
  const first = parts[0]!;
  const h0 = first.journal.header;
  const byIndex = new Map<number, string>();
  const owner = new Map<string, string>();
  const records: SweepRunRecord[] = [];
  for (const { dir, journal } of parts) {
    const h = journal.header;
    if (h.shard.count !== h0.shard.count)
      throw new InputError(
        'dirs',
        `${dir} is shard ${h.shard.index}/${h.shard.count} but ${first.dir} is ${h0.shard.index}/${h0.shard.count}: shards of one sweep split the seeds the same way`,
      );
    const twice = byIndex.get(h.shard.index);
    if (twice !== undefined)
      throw new InputError(
        'dirs',
        `shard ${h.shard.index}/${h.shard.count} is given twice (${twice} and ${dir}); its runs would count twice`,
      );
    byIndex.set(h.shard.index, dir);
    if (!h.source || !h0.source)
      throw new InputError(
        'dirs',
        `${h.source ? first.dir : dir} was written before sweeps recorded their source tree: run it again`,
      );
    if (h.version !== h0.version || !sameSource(h.source, h0.source))
      throw new InputError(
        'dirs',
        `${dir} comes from ${h.version} at ${sourceText(h.source)} but ${first.dir} from ${h0.version} at ${sourceText(h0.source)}: merge shards of one source tree only`,
      );
    if (JSON.stringify(h.plan) !== JSON.stringify(h0.plan)) {
      const keys = (Object.keys(h0.plan) as Array<keyof SweepPlan>).filter(
        (k) => JSON.stringify(h.plan[k]) !== JSON.stringify(h0.plan[k]),
      );
      throw new InputError(
        'dirs',
        `${dir} is another sweep than ${first.dir} (its plan differs in ${keys.join(', ')})`,
      );
    }
    for (const r of journal.records) {
      const key = `${r.cell} seed ${r.seed}`;
      const other = owner.get(key);
      if (other !== undefined)
        throw new InputError(
          'dirs',
          `the run of cell ${JSON.stringify(r.cell)}, seed ${r.seed} is in both ${other} and ${dir}`,
        );
      owner.set(key, dir);
      records.push(r);
    }
  }
  const missingShards: number[] = [];
  for (let i = 1; i <= h0.shard.count; i++) if (!byIndex.has(i)) missingShards.push(i);
  return {
    plan: h0.plan,
    version: h0.version,
    source: h0.source,
    sourceFiles: h0.sourceFiles ?? [],
    shardCount: h0.shard.count,
    shards: [...byIndex.keys()].sort((a, b) => a - b),
    missingShards,
    records,
  };
}
