/**
 * `lockstep report merge DIR...`: merge the summaries of fuzz shards into one (summary.json and
 * summary.md in `--out`), refusing a folder that is not a shard, a shard given twice, and shards
 * of different commits, parameters or shard counts. `--markdown` prints the Markdown (for a CI
 * job summary); the exit code is the campaign's (failures: their worst verdict).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from '../core/errors';
import { campaignMarkdown, mergeShards } from '../../sim/campaign/shardFile';
import { campaignExitCode, formatCampaign } from './fuzzCommand';

export interface ReportMergeOptions {
  dirs: string[];
  out: string;
  json: boolean;
  markdown: boolean;
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

export async function reportMergeCommand(o: ReportMergeOptions): Promise<number> {
  if (o.json && o.markdown) throw new InputError('--markdown', 'give --json or --markdown, not both');
  const merged = mergeShards(o.dirs.map(readShard));
  const dir = resolve(o.out);
  if (o.dirs.some((d) => resolve(d) === dir)) throw new InputError('--out', `${o.out} is one of the shards`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(merged, null, 2)}\n`);
  writeFileSync(join(dir, 'summary.md'), campaignMarkdown(merged));
  if (o.json) process.stdout.write(`${JSON.stringify({ ...merged, out: dir })}\n`);
  else if (o.markdown) process.stdout.write(campaignMarkdown(merged));
  else process.stdout.write(formatCampaign(merged, dir));
  return campaignExitCode(merged);
}
