/**
 * `lockstep report merge DIR...`: merge the summaries of fuzz shards into one (summary.json and
 * summary.md in `--out`), refusing a folder that is not a shard, a shard given twice, and shards
 * of different commits, parameters or shard counts. `--markdown` prints the Markdown (for a CI
 * job summary); the exit code is the campaign's (failures: their worst verdict).
 *
 * Folders of `lockstep sweep --shard I/N` (a runs.jsonl journal) merge into one sweep's results
 * instead: the same refusals, the runs of all shards together, and every table written anew. A
 * merge with a shard missing is refused, naming the missing shards (exit 1), unless `--partial`
 * asks for the incomplete tables.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from '../src/core/errors';
import { campaignMarkdown, mergeShards } from '../sim/campaign/shardFile';
import { mergeCorpusFolders } from '../sim/campaign/guidedFiles';
import { campaignExitCode, formatCampaign } from './fuzzCommand';
import { analyseSweep } from '../sim/sweep/analysis';
import { JOURNAL_FILE, JOURNAL_KIND, JournalWriter, readJournal, type Journal } from '../sim/sweep/journal';
import { mergeSweepShards } from '../sim/sweep/merge';
import { remeasure } from '../sim/sweep/remeasure';
import { summaryMarkdown as sweepMarkdown, sweepFiles } from '../sim/sweep/outputs';
import { formatSweep, sweepExitCode, writeSweepResults } from './sweepCommand';

export interface ReportMergeOptions {
  dirs: string[];
  /** Default: reports/fuzz/merged, or reports/sweeps/<sweep>-merged for sweep shards. */
  out?: string;
  json: boolean;
  markdown: boolean;
  /** Sweep shards: merge even when some are missing (the tables say incomplete). */
  partial?: boolean;
}

function readShard(dir: string): { dir: string; summary: unknown } {
  const file = join(resolve(dir), 'summary.json');
  if (!existsSync(resolve(dir))) throw new InputError('dirs', `${dir}: no such folder`);
  if (!existsSync(file)) throw new InputError('dirs', `${dir} has no summary.json: it is not a fuzz shard folder`);
  try {
    return { dir, summary: JSON.parse(readFileSync(file, 'utf8')) };
  } catch (e) {
    throw new InputError('dirs', `${file} is not valid JSON: ${(e as Error).message}`);
  }
}

function readSweepShard(dir: string): { dir: string; journal: Journal } {
  let journal: Journal | null;
  try {
    journal = readJournal(resolve(dir));
  } catch (e) {
    throw new InputError('dirs', `${dir}: ${(e as Error).message}`);
  }
  if (journal === null) throw new InputError('dirs', `${dir} has no ${JOURNAL_FILE}: it is not a sweep shard folder`);
  return { dir, journal };
}

const isSweepShard = (dir: string): boolean => {
  const file = join(resolve(dir), JOURNAL_FILE);
  return existsSync(file) && readFileSync(file, 'utf8').slice(0, 200).includes(`"kind":"${JOURNAL_KIND}"`);
};

async function mergeSweeps(o: ReportMergeOptions): Promise<number> {
  const shards = o.dirs.map(readSweepShard);
  const merged = mergeSweepShards(shards);
  if (merged.missingShards.length && !o.partial)
    throw new InputError(
      'dirs',
      `shard${merged.missingShards.length === 1 ? '' : 's'} ${merged.missingShards.map((i) => `${i}/${merged.shardCount}`).join(', ')} of sweep ${merged.plan.sweep} ${merged.missingShards.length === 1 ? 'is' : 'are'} missing (given: ${merged.shards.map((i) => `${i}/${merged.shardCount}`).join(', ')}); name every shard, or pass --partial for incomplete tables`,
    );
  const dir = resolve(o.out ?? join('reports', 'sweeps', `${merged.plan.sweep}-merged`));
  if (o.dirs.some((d) => resolve(d) === dir)) throw new InputError('--out', `${o.out} is one of the shards`);
  const build = { version: merged.version, source: merged.source };
  const records = remeasure(merged.records, merged.plan.metrics);
  const summary = analyseSweep(merged.plan, records, build);
  new JournalWriter(
    dir,
    {
      kind: JOURNAL_KIND,
      plan: merged.plan,
      ...build,
      sourceFiles: merged.sourceFiles,
      shard: { index: 1, count: 1 },
    },
    merged.records,
  );
  writeSweepResults(dir, sweepFiles(merged.plan, records, summary));
  const missing = merged.missingShards.length
    ? `shards not merged: ${merged.missingShards.map((i) => `${i}/${merged.shardCount}`).join(', ')}; the tables are incomplete\n`
    : '';
  if (o.json)
    process.stdout.write(
      `${JSON.stringify({ ...summary, shards: merged.shards, missingShards: merged.missingShards, out: dir })}\n`,
    );
  else if (o.markdown) process.stdout.write(`${sweepMarkdown(summary)}${missing ? `\n**${missing.trim()}**\n` : ''}`);
  else process.stdout.write(`${formatSweep(summary, dir)}${missing}`);
  return sweepExitCode(merged.records, false);
}

export async function reportMergeCommand(o: ReportMergeOptions): Promise<number> {
  if (o.json && o.markdown) throw new InputError('--markdown', 'give --json or --markdown, not both');
  if (o.dirs.length > 0 && o.dirs.some(isSweepShard)) return mergeSweeps(o);
  const merged = mergeShards(o.dirs.map(readShard));
  const dir = resolve(o.out ?? join('reports', 'fuzz', 'merged'));
  if (o.dirs.some((d) => resolve(d) === dir)) throw new InputError('--out', `${o.out} is one of the shards`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(merged, null, 2)}\n`);
  writeFileSync(join(dir, 'summary.md'), campaignMarkdown(merged));
  // Guided shards keep corpora: one corpus for the next campaign (e.g. a CI cache).
  const corpus = mergeCorpusFolders(
    o.dirs.map((d) => resolve(d)),
    dir,
    merged,
  );
  if (corpus && !o.json) process.stderr.write(`corpus: ${corpus.entries} runs in ${corpus.file}\n`);
  if (o.json) process.stdout.write(`${JSON.stringify({ ...merged, out: dir })}\n`);
  else if (o.markdown) process.stdout.write(campaignMarkdown(merged));
  else process.stdout.write(formatCampaign(merged, dir));
  return campaignExitCode(merged);
}
