/**
 * The files of a guided campaign (`lockstep fuzz --strategy guided`): a failing run's scenario file
 * (what `lockstep run --scenario` replays: the run's scenario, its seed, and its random streams'
 * name), the resume journal written after every generation (`explorer-state.json`: the explorer's
 * state and the results so far), and the corpus (`corpus.json`), read from a file or a folder and
 * written to the results folder and wherever `--corpus-out` says.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../src/core/errors';
import { type PlantName } from '../../src/core/plants';
import { type Scenario } from '../scenario/scenario';
import { encodeScenario } from '../scenario/encodeScenario';
import { CORPUS_FILE, type CorpusEntry, corpusFile, mergeCorpora, readCorpus } from './explore/corpus';
import { type ExploreJob, type ExplorerState, type ExplorerStats } from './explore/explorer';
import { type ExploreRunResult } from './exploreTask';

export const STATE_FILE = 'explorer-state.json';
export const STATE_KIND = 'lockstep-fuzz-explorer-state';

/** A failing run as a scenario file: `lockstep run --scenario FILE` replays it (same trace hash). */
export function failureScenario(
  job: ExploreJob,
  r: Pick<ExploreRunResult, 'verdict' | 'oracle'>,
  plant: PlantName | undefined,
): Record<string, unknown> {
  const s: Scenario = {
    ...job.scenario,
    name: `fuzz-run-${job.id}`,
    description: `Run ${job.id} of a guided fuzz campaign (${job.origin}${job.ops ? `: ${job.ops.join(', ')}` : ''}).`,
    // The campaign ran it under the explorer's name: the same streams replay the same run.
    streams: job.scenario.streams ?? job.scenario.name,
    expect: { verdict: r.verdict as 'pass', ...(r.oracle ? { oracle: r.oracle } : {}), min: {}, max: {} },
    ...(plant ? { plant } : {}),
    seed: job.seed,
  };
  return encodeScenario(s);
}

export interface StateFile {
  kind: typeof STATE_KIND;
  version: string;
  commit: string | null;
  /** What the campaign was started with (a resume must ask for the same). */
  params: { campaignSeed: number; shard: { index: number; count: number }; plant: string | null; runs: number | null };
  state: ExplorerState;
  results: ExploreRunResult[];
}

/** Write a file whole or not at all (a temporary name, then a rename). */
function writeWhole(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

export function writeState(dir: string, f: StateFile): void {
  writeWhole(join(dir, STATE_FILE), `${JSON.stringify(f, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}\n`);
}

/** A resume journal, checked against what the new campaign asks for. */
export function readState(dir: string, expect: StateFile['params'] & { commit: string | null }): StateFile {
  const file = join(dir, STATE_FILE);
  if (!existsSync(file))
    throw new InputError(
      '--resume',
      `no ${STATE_FILE} in ${dir}: nothing to resume (an interrupted guided campaign leaves one)`,
    );
  let f: StateFile;
  try {
    f = JSON.parse(readFileSync(file, 'utf8')) as StateFile;
  } catch (e) {
    throw new InputError('--resume', `${file} is not valid JSON: ${(e as Error).message}`);
  }
  if (f.kind !== STATE_KIND) throw new InputError('--resume', `${file} is not a guided campaign's state`);
  const { commit, ...want } = expect;
  if (JSON.stringify(f.params) !== JSON.stringify(want))
    throw new InputError(
      '--resume',
      `${file} is of a campaign with other parameters (${JSON.stringify(f.params)}), not ${JSON.stringify(want)}`,
    );
  if (f.commit !== commit)
    throw new InputError(
      '--resume',
      `${file} was written at commit ${f.commit ?? 'unknown'}, this is ${commit ?? 'unknown'}: the runs would differ; start afresh`,
    );
  return f;
}

/** The corpus file of a path (a corpus.json, or a folder that holds one). */
export function corpusPath(path: string): string {
  return existsSync(path) && statSync(path).isDirectory() ? join(path, CORPUS_FILE) : path;
}

export function loadCorpus(path: string, field = '--corpus-in'): { entries: CorpusEntry[]; dropped: string[] } {
  const file = corpusPath(path);
  if (!existsSync(file))
    throw new InputError(field, `no corpus at ${path} (expected ${CORPUS_FILE} or a folder holding one)`);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new InputError(field, `${file} is not valid JSON: ${(e as Error).message}`);
  }
  return readCorpus(file, value);
}

export function saveCorpus(
  dir: string,
  entries: readonly CorpusEntry[],
  build: { version: string; commit: string | null },
): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, CORPUS_FILE);
  writeWhole(file, `${JSON.stringify(corpusFile(entries, build), null, 1)}\n`);
  return file;
}

/**
 * The corpora of shard folders merged into `outDir` (the union, then the cover of every feature);
 * null when no shard holds one (swarm shards).
 */
export function mergeCorpusFolders(
  dirs: readonly string[],
  outDir: string,
  build: { version: string; commit: string | null },
): { entries: number; file: string } | null {
  const parts = dirs.filter((d) => existsSync(join(d, CORPUS_FILE))).map((d) => loadCorpus(d, 'dirs').entries);
  if (!parts.length) return null;
  const merged = mergeCorpora(parts);
  return { entries: merged.length, file: saveCorpus(outDir, merged, build) };
}

/** Terminal lines about the explorer: what it kept and from where, the features it saw. */
export function explorerLines(s: ExplorerStats): string[] {
  const o = s.byOrigin;
  const part = (k: keyof typeof o) => `${o[k].kept}/${o[k].runs} ${k}`;
  const ops = Object.entries(s.byOperator)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, e]) => `${k} ${e.kept}/${e.runs}`)
    .join(', ');
  return [
    `explorer    ${s.features} features seen; corpus ${s.corpus} runs; kept (new ground) of run: ${[part('fresh'), part('mutant'), ...(o.corpus.runs ? [part('corpus')] : [])].join(', ')}`,
    ...(ops ? [`operators   kept/run: ${ops}`] : []),
  ];
}
