/**
 * `lockstep fuzz --strategy guided`: the explorer's campaign (sim/campaign/guided.ts) with the
 * command's effects: progress, a line and a scenario file per failing run, the resume journal
 * after every generation, the corpus written and read, the results folder written whole (an
 * interrupted one goes to `<dir>.interrupted/`, and `--resume` continues it).
 */
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { InputError } from '../src/core/errors';
import { type GuidedCampaign, type GuidedOptions, guidedRepro, runGuidedCampaign } from '../sim/campaign/guided';
import {
  type StateFile,
  STATE_KIND,
  explorerLines,
  failureScenario,
  loadCorpus,
  readState,
  saveCorpus,
  writeState,
} from '../sim/campaign/guidedFiles';
import { type CorpusEntry } from '../sim/campaign/explore/corpus';
import { campaignMarkdown, SHARD_KIND, type ShardFile, seedRangeOf } from '../sim/campaign/shardFile';
import { EXIT } from '../src/core/exitCodes';
import { Progress } from './progress';
import { watchInterrupts } from './interrupts';
import { ReportFolder } from './reportFolder';
import { gitCommit, lockstepVersion } from './provenance';

/** The campaign's own options (sim/campaign/guided.ts), and what the command adds around it. */
export interface GuidedFuzzOptions
  extends Pick<GuidedOptions, 'runs' | 'wallBudgetMs' | 'workers' | 'shard' | 'campaignSeed' | 'plant'> {
  outDir: string;
  corpusIn?: string;
  corpusOut?: string;
  resume: boolean;
  json: boolean;
  intervalMs: number;
}

export async function guidedFuzz(
  o: GuidedFuzzOptions,
  format: (s: ShardFile, dir: string) => string,
): Promise<{ file: ShardFile; dir: string }> {
  const build = { version: lockstepVersion(), commit: gitCommit() };
  const params: StateFile['params'] = {
    campaignSeed: o.campaignSeed,
    shard: o.shard,
    plant: o.plant ?? null,
    runs: o.runs ?? null,
  };
  const interruptedDir = ReportFolder.interruptedDir(o.outDir);
  const resumed = o.resume ? readState(interruptedDir, { ...params, commit: build.commit }) : null;
  if (o.resume && o.corpusIn !== undefined)
    throw new InputError('--corpus-in', 'a resumed campaign goes on with the corpus it had; leave out --corpus-in');
  let corpus: CorpusEntry[] | undefined;
  if (o.corpusIn !== undefined) {
    const loaded = loadCorpus(o.corpusIn);
    corpus = loaded.entries;
    for (const d of loaded.dropped) process.stderr.write(`warning: corpus entry left out: ${d}\n`);
  }
  const folder = new ReportFolder(o.outDir);
  const failuresDir = folder.file('failures');
  if (resumed && existsSync(join(interruptedDir, 'failures')))
    cpSync(join(interruptedDir, 'failures'), failuresDir, { recursive: true });
  const fileOf = (id: number) => join(relative(process.cwd(), o.outDir) || '.', 'failures', `run-${id}.json`);

  const progress = new Progress('runs', { enabled: !o.json, intervalMs: o.intervalMs });
  const interrupts = watchInterrupts({
    onFirst: (signal) =>
      progress.line(`${signal}: stopping: finishing the runs under way (send it again to abort at once)`),
    onAbort: () => {
      progress.stop();
      try {
        process.stderr.write(`partial results: ${folder.keepInterrupted()} (continue with --resume)\n`);
      } finally {
        process.exit(EXIT.interrupted);
      }
    },
  });
  const total = o.runs !== undefined ? Math.ceil((o.runs - o.shard.index + 1) / o.shard.count) : null;
  let failures = resumed ? resumed.results.filter((r) => r.verdict !== 'pass').length : 0;
  const started = Date.now();
  let c: GuidedCampaign;
  try {
    c = await runGuidedCampaign({
      ...(o.runs !== undefined ? { runs: o.runs } : {}),
      ...(o.wallBudgetMs !== undefined ? { wallBudgetMs: o.wallBudgetMs } : {}),
      workers: o.workers,
      shard: o.shard,
      campaignSeed: o.campaignSeed,
      ...(o.plant ? { plant: o.plant } : {}),
      ...(corpus ? { corpus } : {}),
      ...(resumed ? { resume: { state: resumed.state, results: resumed.results } } : {}),
      repro: (id) => guidedRepro(fileOf(id)),
      now: Date.now,
      shouldStop: () => interrupts.requested,
      onResult: (r, job, done) => {
        if (r.verdict !== 'pass') {
          failures++;
          mkdirSync(failuresDir, { recursive: true });
          writeFileSync(
            join(failuresDir, `run-${r.seed}.json`),
            `${JSON.stringify(failureScenario(job, r, o.plant), null, 2)}\n`,
          );
          progress.line(
            `FAIL run ${r.seed}: ${r.verdict}${r.violation ? ` (${r.oracle}: ${r.violation.message})` : ''}  repro: npx lockstep run --scenario ${fileOf(r.seed)}`,
          );
        }
        const secs = Math.max(0.001, progress.elapsedMs() / 1000);
        const rate = done / secs;
        progress.update({
          done,
          total,
          detail: `${failures} failing, ${rate.toFixed(2)} runs/s`,
          etaMs:
            total !== null
              ? done > 0
                ? ((total - done) / rate) * 1000
                : null
              : Math.max(0, (o.wallBudgetMs ?? 0) - progress.elapsedMs()),
        });
      },
      onGeneration: (state, results) =>
        writeState(folder.dir, { kind: STATE_KIND, ...build, params, state, results: [...results] }),
    });
  } catch (e) {
    progress.stop();
    interrupts.dispose();
    folder.discard();
    throw e;
  }
  progress.stop();
  const file: ShardFile = {
    kind: SHARD_KIND,
    ...build,
    params: {
      profile: 'explore',
      durationMs: 0,
      crypto: 'drawn',
      efficacyEvery: 0,
      plant: o.plant ?? null,
      seeds: o.runs ?? null,
      timeBudgetMs: o.wallBudgetMs ?? null,
      strategy: 'guided',
      campaignSeed: o.campaignSeed,
      corpusIn: corpus ? corpus.length : null,
    },
    shard: o.shard,
    seedRange: seedRangeOf(
      c.results.map((r) => r.seed),
      o.shard.count,
    ),
    wallMs: Date.now() - started,
    ...c.summary,
    explorer: c.explorer,
  };
  folder.write('summary.json', `${JSON.stringify(file, null, 2)}\n`);
  folder.write('summary.md', campaignMarkdown(file));
  saveCorpus(folder.dir, c.corpus, build);
  if (o.corpusOut !== undefined) saveCorpus(o.corpusOut, c.corpus, build);
  const dir = c.summary.interrupted ? folder.keepInterrupted() : folder.commit();
  // A resumed campaign that finished leaves no interrupted part behind.
  if (resumed && !c.summary.interrupted) rmSync(interruptedDir, { recursive: true, force: true });
  interrupts.dispose();
  if (o.json) process.stdout.write(`${JSON.stringify({ ...file, out: dir })}\n`);
  else process.stdout.write(format(file, dir) + explorerLines(c.explorer).join('\n') + '\n');
  return { file, dir };
}
