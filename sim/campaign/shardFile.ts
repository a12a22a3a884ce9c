/**
 * The summary.json of a fuzz shard (what `lockstep fuzz` writes) and of a merge of shards (what
 * `lockstep report merge` writes): the campaign summary plus what makes shards comparable — the
 * code (version, commit), the parameters, the shard and its seed range — and the wall time.
 * Merging refuses what would count wrong: a folder that is not a shard, a shard given twice,
 * shards of different commits, parameters or shard counts.
 */
import { InputError } from '../../src/core/errors';
import { formatDurationMs } from '../../src/core/duration';
import { type CampaignSummary, mergeSummaries } from './fuzz';
import { BYZANTINE_TXS } from '../faults/byzantineTxs';
import { byzantineTable, reachTable } from '../run/messageReach';
import { type ExplorerStats } from './explore/explorer';

export const SHARD_KIND = 'lockstep-fuzz-shard';
export const MERGED_KIND = 'lockstep-fuzz-merged';

export interface CampaignParams {
  profile: string;
  /** Simulated time per seed. */
  durationMs: number;
  crypto: string;
  efficacyEvery: number;
  plant: string | null;
  /** Seeds 1..seeds over all shards (null: the campaign ran for a wall-time budget). */
  seeds: number | null;
  timeBudgetMs: number | null;
  /** `guided`: the explorer's campaign (sim/campaign/guided.ts); absent: the swarm's. */
  strategy?: 'guided';
  /** The guided campaign's seed, and how many corpus entries it loaded (null: none). */
  campaignSeed?: number;
  corpusIn?: number | null;
}

export interface SeedRange {
  /** The seeds run: first, first + step, …, last (null when none ran). */
  first: number | null;
  last: number | null;
  step: number;
  count: number;
}

export interface ShardFile extends CampaignSummary {
  kind: typeof SHARD_KIND;
  version: string;
  commit: string | null;
  params: CampaignParams;
  shard: { index: number; count: number };
  seedRange: SeedRange;
  wallMs: number;
  /** A guided campaign's explorer figures (runs kept per origin and operator, features, corpus). */
  explorer?: ExplorerStats;
}

export interface MergedFile extends CampaignSummary {
  kind: typeof MERGED_KIND;
  version: string;
  commit: string | null;
  params: CampaignParams;
  shardCount: number;
  shards: Array<{ index: number; dir: string; seedRange: SeedRange; wallMs: number; interrupted: boolean }>;
  /** Shards of the matrix that were not given (their seeds are not in this summary). */
  missingShards: number[];
  /** The longest shard's wall time (shards run side by side). */
  wallMs: number;
}

export function seedRangeOf(seeds: readonly number[], step: number): SeedRange {
  const sorted = [...seeds].sort((a, b) => a - b);
  return { first: sorted[0] ?? null, last: sorted.at(-1) ?? null, step, count: sorted.length };
}

/** The seeds a range covers. */
function seedsOf(r: SeedRange): number[] {
  const out: number[] = [];
  if (r.first === null || r.last === null) return out;
  for (let s = r.first; s <= r.last; s += r.step) out.push(s);
  return out;
}

/** Read one folder's summary as a shard, or say clearly why it is not one. */
export function asShard(dir: string, value: unknown): ShardFile {
  const o = value as Record<string, unknown> | null;
  if (o === null || typeof o !== 'object' || Array.isArray(o))
    throw new InputError('dirs', `${dir}: summary.json is not a JSON object`);
  if (o.kind === SHARD_KIND) return o as unknown as ShardFile;
  if (o.kind === MERGED_KIND)
    throw new InputError('dirs', `${dir} is already a merged summary; merge the shard folders themselves`);
  if ('traceHash' in o && 'seed' in o)
    throw new InputError('dirs', `${dir} is the report of one run (lockstep run), not a fuzz shard`);
  throw new InputError(
    'dirs',
    `${dir} is not a fuzz shard: its summary.json has no "kind": "${SHARD_KIND}" (a shard written by an older lockstep lacks it; run it again)`,
  );
}

function differingKeys(a: CampaignParams, b: CampaignParams): Array<keyof CampaignParams> {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as Array<keyof CampaignParams>);
  return [...keys].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

/** Merge shard summaries (each with the folder it came from), refusing what would count wrong. */
export function mergeShards(parts: Array<{ dir: string; summary: unknown }>): MergedFile {
  if (parts.length === 0) throw new InputError('dirs', 'name at least one fuzz shard folder');
  const shards = parts.map((p) => ({ dir: p.dir, s: asShard(p.dir, p.summary) }));
  const first = shards[0]!;
  const byIndex = new Map<number, string>();
  const seedOwner = new Map<number, string>();
  for (const { dir, s } of shards) {
    if (s.shard.count !== first.s.shard.count)
      throw new InputError(
        'dirs',
        `${dir} is shard ${s.shard.index}/${s.shard.count} but ${first.dir} is ${first.s.shard.index}/${first.s.shard.count}: shards of one campaign split the seeds the same way`,
      );
    const twice = byIndex.get(s.shard.index);
    if (twice !== undefined)
      throw new InputError(
        'dirs',
        `shard ${s.shard.index}/${s.shard.count} is given twice (${twice} and ${dir}); its seeds would count twice`,
      );
    byIndex.set(s.shard.index, dir);
    if (s.commit !== first.s.commit || s.version !== first.s.version)
      throw new InputError(
        'dirs',
        `${dir} comes from ${s.version} at commit ${s.commit ?? 'unknown'} but ${first.dir} from ${first.s.version} at commit ${first.s.commit ?? 'unknown'}: merge shards of one build only`,
      );
    const diff = differingKeys(s.params, first.s.params);
    if (diff.length)
      throw new InputError(
        'dirs',
        `${dir} ran with other parameters than ${first.dir} (${diff.map((k) => `${k}: ${JSON.stringify(s.params[k])} vs ${JSON.stringify(first.s.params[k])}`).join(', ')})`,
      );
    for (const seed of seedsOf(s.seedRange)) {
      const other = seedOwner.get(seed);
      if (other !== undefined) throw new InputError('dirs', `seed ${seed} is in both ${other} and ${dir}`);
      seedOwner.set(seed, dir);
    }
  }
  const merged = mergeSummaries(shards.map((x) => x.s));
  const count = first.s.shard.count;
  const missingShards: number[] = [];
  for (let i = 1; i <= count; i++) if (!byIndex.has(i)) missingShards.push(i);
  return {
    kind: MERGED_KIND,
    version: first.s.version,
    commit: first.s.commit,
    params: first.s.params,
    shardCount: count,
    shards: shards
      .map(({ dir, s }) => ({
        index: s.shard.index,
        dir,
        seedRange: s.seedRange,
        wallMs: s.wallMs,
        interrupted: s.interrupted,
      }))
      .sort((a, b) => a.index - b.index),
    missingShards,
    wallMs: Math.max(...shards.map((x) => x.s.wallMs)),
    ...merged,
  };
}

/** A campaign (one shard or a merge) as Markdown, e.g. for a CI job summary. */
export function campaignMarkdown(s: ShardFile | MergedFile): string {
  const failing = s.failures.length;
  const p = s.params;
  const exercised = Object.keys(s.rules.exercised).length;
  const lines: string[] = [
    `## Fuzz campaign: ${s.seeds} ${p.strategy === 'guided' ? 'runs' : 'seeds'}, ${failing ? `**${failing} failing**` : 'none failing'}${s.interrupted ? ' (interrupted: partial results)' : ''}`,
    '',
    '| | |',
    '| --- | --- |',
    `| verdicts | ${
      Object.entries(s.verdicts)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none'
    } |`,
    p.strategy === 'guided'
      ? `| strategy | guided explorer, campaign seed ${p.campaignSeed}${p.corpusIn ? `, ${p.corpusIn} corpus runs loaded` : ''}; each run's length, crypto and faults drawn or mutated${p.plant ? `; planted bug ${p.plant}` : ''} |`
      : `| per seed | ${formatDurationMs(p.durationMs)} simulated, ${p.crypto} crypto, ${p.profile} profile${p.plant ? `, planted bug ${p.plant}` : ''} |`,
    s.kind === MERGED_KIND
      ? `| shards | ${s.shards.length} of ${s.shardCount}${s.missingShards.length ? ` (missing: ${s.missingShards.map((i) => `${i}/${s.shardCount}`).join(', ')})` : ''} |`
      : `| shard | ${s.shard.index}/${s.shard.count}, seeds ${s.seedRange.first ?? '-'}..${s.seedRange.last ?? '-'} step ${s.seedRange.step} |`,
    `| code | lockstep ${s.version}${s.commit ? ` at \`${s.commit.slice(0, 12)}\`` : ''} |`,
    `| wall time | ${formatDurationMs(Math.round(s.wallMs / 1000) * 1000)}${s.kind === MERGED_KIND ? ' (longest shard)' : ''} |`,
    `| rules | ${exercised} of ${exercised + s.rules.neverExercised.length} oracle-guarded rules exercised by at least one seed (docs/RULES.md); ${s.rules.neverExercised.length} never |`,
    '',
  ];
  if (s.groups.length) {
    lines.push(
      '### Failures by oracle',
      '',
      '| seeds | oracle | first violation | seed list |',
      '| --- | --- | --- | --- |',
    );
    for (const g of s.groups)
      lines.push(
        `| ${g.seeds.length} | ${g.oracle} | ${g.message.replace(/\|/g, '\\|')} | ${g.seeds.slice(0, 10).join(', ')}${g.seeds.length > 10 ? ', …' : ''} |`,
      );
    lines.push('', `Repro: \`${s.failures[0]!.repro.split('  (')[0]}\``, '');
  }
  if (s.kind === SHARD_KIND && s.explorer) {
    const x = s.explorer;
    const o = x.byOrigin;
    lines.push(
      '### Explorer',
      '',
      `${x.features} features seen; ${x.corpus} runs in the corpus. Runs that reached new ground, of those run: fresh draws ${o.fresh.kept}/${o.fresh.runs}, mutants ${o.mutant.kept}/${o.mutant.runs}${o.corpus.runs ? `, loaded corpus ${o.corpus.kept}/${o.corpus.runs}` : ''}.`,
      '',
      '| operator | mutants | kept |',
      '| --- | --- | --- |',
      ...Object.entries(x.byOperator)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, e]) => `| ${k} | ${e.runs} | ${e.kept} |`),
      '',
    );
  }
  lines.push('### Messages reached', '', ...reachTable(s.reach, true), '');
  lines.push(
    '### Byzantine kinds (crafted into its own blocks, delivered there, refused with the reference code)',
    '',
    ...byzantineTable(s.reach, BYZANTINE_TXS, true),
    '',
  );
  lines.push(
    '### Fault efficacy',
    '',
    '| fault kind | scheduled | fired | changed / measured |',
    '| --- | --- | --- | --- |',
  );
  for (const [kind, e] of Object.entries(s.faults).sort(([a], [b]) => (a < b ? -1 : 1)))
    lines.push(`| ${kind} | ${e.scheduled} | ${e.fired} | ${e.measured ? `${e.changed} / ${e.measured}` : '-'} |`);
  if (s.rules.neverExercised.length)
    lines.push('', '### Rules never exercised', '', s.rules.neverExercised.map((id) => `\`${id}\``).join(', '));
  if (s.warnings.length || (s.kind === MERGED_KIND && s.missingShards.length)) {
    lines.push('', '### Warnings', '');
    if (s.kind === MERGED_KIND && s.missingShards.length)
      lines.push(`- shards not merged: ${s.missingShards.map((i) => `${i}/${s.shardCount}`).join(', ')}`);
    for (const w of s.warnings) lines.push(`- ${w}`);
  }
  return `${lines.join('\n')}\n`;
}
