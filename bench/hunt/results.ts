/**
 * The hunt bench's results.json: what makes runs comparable (the code, the sample seed and size,
 * the budget, the strategies and their settings, the population) and one row per bug per strategy:
 * caught or not, the CPU-seconds to the first catch (the budget when not caught), the runs it took,
 * how it was caught (an oracle's safety or liveness verdict naming the oracle, a crash, a hang, a
 * failed expectation), the catching run and its repro file, and failing runs the unmodified code
 * fails too. Shards merge like the mutation bench's (merge refuses what would count wrong).
 */
import { InputError } from '../../src/core/errors';
import { type MutantInfo } from '../mutation/population';
import { type UnitResult } from '../mutation/unitStage';
import { type Shard } from '../mutation/sample';
import { type HuntResult } from './hunt';
import { type StrategyName } from './strategies';

export const HUNT_KIND = 'lockstep-hunt-shard';
export const HUNT_MERGED_KIND = 'lockstep-hunt-merged';

export interface HuntParams {
  /** The sample seed (also the guided campaign's seed unless given apart). */
  seed: number;
  /** Unit-detected mutants in the population. */
  sample: number;
  budgetS: number;
  strategies: StrategyName[];
  swarmDurationMs: number;
  campaignSeed: number;
  plants: string[];
  targets: string[];
  mutators: string[];
  populationSize: number;
  populationHash: string;
  /** The mutants, in the population's order (the same for every shard). */
  mutantKeys: string[];
}

export type BugInfo =
  | { type: 'plant'; key: string; plant: string; rule: string; guards: string[] }
  | ({ type: 'mutant'; unit: UnitResult; static: boolean } & MutantInfo);

export interface HuntRow extends Omit<HuntResult, 'job'> {
  /** The bug's place in the population (plants first, then the mutants). */
  index: number;
  bug: BugInfo;
  strategy: StrategyName;
  /** The catching run: its label, its place in the campaign, and its repro file (relative to the results folder). */
  catchRun: { label: string; index: number; file: string } | null;
  /** For a plant: whether the catching oracle is one that guards its rule. */
  byGuard: boolean | null;
}

export interface Machine {
  cpus: number;
  model: string;
  loadStart: number[];
  loadEnd: number[];
}

export interface HuntShard {
  kind: typeof HUNT_KIND;
  version: string;
  commit: string | null;
  params: HuntParams;
  shard: Shard;
  interrupted: boolean;
  rows: HuntRow[];
  /** How the population was found: mutants examined, unit verdicts run now and reused. */
  unit: { examined: number; ran: number; cached: number; wallMs: number };
  wall: { totalMs: number; huntMs: number };
  /** CPU time of the bench's process (every thread, Stryker's children apart) and of the runs counted. */
  cpu: { processMs: number; childrenMs: number; runsMs: number } | null;
  machine: Machine;
}

export interface HuntMerged
  extends Omit<HuntShard, 'kind' | 'shard' | 'interrupted' | 'unit' | 'wall' | 'cpu' | 'machine'> {
  kind: typeof HUNT_MERGED_KIND;
  shardCount: number;
  shards: Array<Pick<HuntShard, 'shard' | 'unit' | 'wall' | 'cpu' | 'machine'> & { file: string }>;
  missingShards: number[];
}

export type AnyHunt = HuntShard | HuntMerged;

export function asHunt(file: string, value: unknown): AnyHunt {
  const o = value as { kind?: string } | null;
  if (o && (o.kind === HUNT_KIND || o.kind === HUNT_MERGED_KIND)) return o as AnyHunt;
  throw new InputError(file, `not a hunt bench result: no "kind": "${HUNT_KIND}"`);
}

export function mergeHunts(parts: Array<{ file: string; value: unknown }>): HuntMerged {
  if (!parts.length) throw new InputError('files', 'name at least one shard (a results.json or its folder)');
  const shards = parts.map((p) => {
    const r = asHunt(p.file, p.value);
    if (r.kind === HUNT_MERGED_KIND) throw new InputError(p.file, 'is already merged; merge the shards themselves');
    return { file: p.file, r };
  });
  const first = shards[0]!;
  const seen = new Map<number, string>();
  for (const { file, r } of shards) {
    if (r.shard.count !== first.r.shard.count)
      throw new InputError(
        file,
        `is shard ${r.shard.index}/${r.shard.count}, ${first.file} is of ${first.r.shard.count}`,
      );
    const twice = seen.get(r.shard.index);
    if (twice !== undefined) throw new InputError(file, `shard ${r.shard.index} is given twice (${twice} and ${file})`);
    seen.set(r.shard.index, file);
    if (r.interrupted) throw new InputError(file, 'was interrupted: run that shard again');
    if (r.commit !== first.r.commit || r.version !== first.r.version)
      throw new InputError(
        file,
        `comes from commit ${r.commit ?? 'unknown'}, ${first.file} from ${first.r.commit ?? 'unknown'}`,
      );
    if (JSON.stringify(r.params) !== JSON.stringify(first.r.params))
      throw new InputError(file, `ran with other parameters than ${first.file}`);
  }
  const count = first.r.shard.count;
  const missingShards: number[] = [];
  for (let i = 1; i <= count; i++) if (!seen.has(i)) missingShards.push(i);
  return {
    kind: HUNT_MERGED_KIND,
    version: first.r.version,
    commit: first.r.commit,
    params: first.r.params,
    shardCount: count,
    shards: shards
      .map(({ file, r }) => ({ file, shard: r.shard, unit: r.unit, wall: r.wall, cpu: r.cpu, machine: r.machine }))
      .sort((a, b) => a.shard.index - b.shard.index),
    missingShards,
    rows: shards
      .flatMap((s) => s.r.rows)
      .sort((a, b) => a.index - b.index || (a.strategy < b.strategy ? -1 : a.strategy > b.strategy ? 1 : 0)),
  };
}
