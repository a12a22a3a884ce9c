/**
 * The bench's JSON results (results.json of a run or a shard) and the merge of shards. A result
 * names what makes runs comparable: the code (version, commit, and a hash of the mutant
 * population), the parameters (sample size and seed, mutators, campaign) and the shard. Merging
 * refuses what would count wrong: a file that is not a shard, a shard given twice, shards of other
 * code or parameters, or of another shard count.
 */
import { createHash } from 'node:crypto';
import { InputError } from '../../src/core/errors';
import { type MutantInfo } from './population';
import { type UnitResult } from './unitStage';
import { type BaselineRun, type OracleResult } from './oracleStage';
import { type Campaign } from './campaign';
import { type Shard } from './sample';

export const RESULT_KIND = 'lockstep-mutation-shard';
export const MERGED_KIND = 'lockstep-mutation-merged';

export interface MutationParams {
  sampleSize: number;
  seed: number;
  targets: string[];
  mutators: string[];
  /** How many mutants the targets hold, and a hash of their identities (the code mutated). */
  populationSize: number;
  populationHash: string;
  campaign: Campaign;
  /** false: the unit stage was skipped (`--skip-unit`). */
  unitStage: boolean;
}

export interface MutantRecord extends MutantInfo {
  /** Its place in the sample (0-based). */
  index: number;
  unit: UnitResult | null;
  oracles: OracleResult;
}

export interface Machine {
  cpus: number;
  model: string;
  /** Load averages (1, 5, 15 min) when the run started and ended. */
  loadStart: number[];
  loadEnd: number[];
}

export interface StageTimes {
  unitMs: number;
  oraclesMs: number;
  totalMs: number;
}

export interface ShardResult {
  kind: typeof RESULT_KIND;
  version: string;
  commit: string | null;
  params: MutationParams;
  shard: Shard;
  /** Stopped by Ctrl-C: only the mutants done are in (a merge refuses it). */
  interrupted: boolean;
  baseline: BaselineRun[];
  /** The positive control (campaign.ts): a mutant known to be wrong, which the campaign killed. */
  control: { key: string; oracles: OracleResult };
  mutants: MutantRecord[];
  wall: StageTimes;
  /** CPU time of the bench process and of its finished children (Stryker's), when known. */
  cpu: { selfMs: number; childrenMs: number } | null;
  machine: Machine;
}

export interface MergedResult {
  kind: typeof MERGED_KIND;
  version: string;
  commit: string | null;
  params: MutationParams;
  shardCount: number;
  shards: Array<{
    index: number;
    file: string;
    mutants: number;
    wall: StageTimes;
    cpu: ShardResult['cpu'];
    machine: Machine;
  }>;
  missingShards: number[];
  /** Every shard's baseline passed (a failed baseline never writes a result). */
  baseline: BaselineRun[];
  control: ShardResult['control'];
  mutants: MutantRecord[];
  /** The longest shard's times (shards run side by side). */
  wall: StageTimes;
}

export type AnyResult = ShardResult | MergedResult;

export function populationHash(population: readonly MutantInfo[]): string {
  const h = createHash('sha256');
  for (const k of population.map((m) => m.key).sort()) h.update(`${k}\n`);
  return h.digest('hex');
}

/** Read a parsed results.json, or say clearly why it is not one. */
export function asResult(file: string, value: unknown): AnyResult {
  const o = value as Record<string, unknown> | null;
  if (o === null || typeof o !== 'object' || Array.isArray(o)) throw new InputError(file, 'not a JSON object');
  if (o.kind === RESULT_KIND || o.kind === MERGED_KIND) return o as unknown as AnyResult;
  throw new InputError(file, `not a mutation bench result: no "kind": "${RESULT_KIND}"`);
}

function differing(a: MutationParams, b: MutationParams): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as Array<keyof MutationParams>);
  return [...keys]
    .filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .map((k) => `${k}: ${JSON.stringify(a[k])} vs ${JSON.stringify(b[k])}`);
}

/** Merge shard results (each with the file it came from). */
export function mergeResults(parts: Array<{ file: string; value: unknown }>): MergedResult {
  if (parts.length === 0) throw new InputError('files', 'name at least one shard (a results.json or its folder)');
  const shards = parts.map((p) => {
    const r = asResult(p.file, p.value);
    if (r.kind === MERGED_KIND) throw new InputError(p.file, 'is already a merged result; merge the shards themselves');
    return { file: p.file, r };
  });
  const first = shards[0]!;
  const byIndex = new Map<number, string>();
  const owner = new Map<string, string>();
  for (const { file, r } of shards) {
    if (r.shard.count !== first.r.shard.count)
      throw new InputError(
        file,
        `is shard ${r.shard.index}/${r.shard.count} but ${first.file} is ${first.r.shard.index}/${first.r.shard.count}: shards of one sample split it the same way`,
      );
    const twice = byIndex.get(r.shard.index);
    if (twice !== undefined)
      throw new InputError(
        file,
        `shard ${r.shard.index}/${r.shard.count} is given twice (${twice} and ${file}); its mutants would count twice`,
      );
    byIndex.set(r.shard.index, file);
    if (r.interrupted)
      throw new InputError(file, 'was interrupted (only part of its mutants ran): run that shard again');
    if (r.commit !== first.r.commit || r.version !== first.r.version)
      throw new InputError(
        file,
        `comes from ${r.version} at commit ${r.commit ?? 'unknown'} but ${first.file} from ${first.r.version} at commit ${first.r.commit ?? 'unknown'}: merge shards of one commit only`,
      );
    const diff = differing(r.params, first.r.params);
    if (diff.length) throw new InputError(file, `ran with other parameters than ${first.file} (${diff.join(', ')})`);
    for (const m of r.mutants) {
      const other = owner.get(m.key);
      if (other !== undefined) throw new InputError(file, `mutant ${m.key} is also in ${other}`);
      owner.set(m.key, file);
    }
  }
  const count = first.r.shard.count;
  const missingShards: number[] = [];
  for (let i = 1; i <= count; i++) if (!byIndex.has(i)) missingShards.push(i);
  const max = (f: (t: StageTimes) => number) => Math.max(...shards.map((s) => f(s.r.wall)));
  return {
    kind: MERGED_KIND,
    version: first.r.version,
    commit: first.r.commit,
    params: first.r.params,
    shardCount: count,
    shards: shards
      .map(({ file, r }) => ({
        index: r.shard.index,
        file,
        mutants: r.mutants.length,
        wall: r.wall,
        cpu: r.cpu,
        machine: r.machine,
      }))
      .sort((a, b) => a.index - b.index),
    missingShards,
    baseline: first.r.baseline,
    control: first.r.control,
    mutants: shards.flatMap((s) => s.r.mutants).sort((a, b) => a.index - b.index),
    wall: { unitMs: max((t) => t.unitMs), oraclesMs: max((t) => t.oraclesMs), totalMs: max((t) => t.totalMs) },
  };
}
