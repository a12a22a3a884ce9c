/**
 * `lockstep sweep FILE`: every cell of a sweep on every seed, over a worker pool, with progress
 * (a bar with ETA on a terminal, a status line every 10 s in a CI log, a line per failing run),
 * a journal of finished runs that survives Ctrl-C (run the command again to resume: finished runs
 * made from the same source tree are kept, the others run again and the command says why), shards
 * for CI matrices (`--shard I/N`, merged with `lockstep report merge`), and the tables and plots
 * written when every run of the shard is in. `--dry-run` lists the cells and the drawn values and
 * runs nothing; `--metrics-only` computes the metrics anew from the stored runs' digests.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from '../src/core/errors';
import { type SweepJob, type SweepRunRecord } from '../sim/campaign/sweepTask';
import { analyseSweep, isFailed, type SweepSummary } from '../sim/sweep/analysis';
import { dryRun, formatDryRun } from '../sim/sweep/dryRun';
import { jobKey, sweepJobs } from '../sim/sweep/jobs';
import { JOURNAL_KIND, type JournalHeader, JournalWriter, readJournal } from '../sim/sweep/journal';
import { type SweepPlan, planOf } from '../sim/sweep/plan';
import { SMALL_N_MARK, counted, fmt, fmtCi, sweepFiles } from '../sim/sweep/outputs';
import { remeasure, withoutDigest } from '../sim/sweep/remeasure';
import { type ReuseDecision, decideReuse } from '../sim/sweep/reuse';
import { runSweepJobs } from '../sim/sweep/runSweep';
import { sourceText } from '../sim/core/sourceState';
import { cellScenario, loadSweep } from '../sim/sweep/sweepFile';
import { EXIT } from '../src/core/exitCodes';
import { exitCodeOf, worstExitCode } from './verdictCodes';
import { parseShard } from './fuzzCommand';
import { watchInterrupts } from './interrupts';
import { Progress, progressIntervalMs } from './progress';
import { PACKAGE_ROOT, displayPath, lockstepVersion } from './provenance';
import { sourceState } from './sourceState';
import { type RunVerdict } from '../sim/report/outcome';

export interface SweepCliOptions {
  file: string;
  workers: number;
  shard: string;
  seeds?: number;
  out?: string;
  fresh: boolean;
  json: boolean;
  progressInterval?: string;
  /** List the cells, the drawn values and what a run would keep; run nothing. */
  dryRun?: boolean;
  /** Compute the metrics anew from the stored runs' digests; run nothing. */
  metricsOnly?: boolean;
}

/** Write a sweep's result files into `dir`, each whole (a temporary name, then renamed). */
export function writeSweepResults(dir: string, files: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    const tmp = join(dir, `.${name}.tmp-${process.pid}`);
    writeFileSync(tmp, text);
    renameSync(tmp, join(dir, name));
  }
}

/** The exit code of a sweep: the worst verdict among its failed runs; interrupted beats all. */
export function sweepExitCode(records: readonly SweepRunRecord[], interrupted: boolean): number {
  return worstExitCode([
    ...(interrupted ? [EXIT.interrupted] : []),
    ...records.filter(isFailed).map((r) => exitCodeOf(r.verdict as RunVerdict)),
  ]);
}

/** A few lines for the terminal: per metric, each cell's mean and interval. */
export function formatSweep(s: SweepSummary, dir: string): string {
  const width = Math.max(4, ...s.cells.map((c) => c.label.length));
  const failed = s.cells.reduce((n, c) => n + c.failed, 0);
  const lines = [
    `sweep       ${s.sweep}: ${s.runs} of ${s.runsExpected} runs (${counted(s.cells.length, 'cell')} × ${counted(s.seeds.length, 'seed')}), ${failed} failed${s.complete ? '' : ' (incomplete)'}`,
  ];
  for (const m of s.metrics) {
    lines.push(`${m.name} (${m.unit}): mean [95% CI], median`);
    for (const c of s.cells) {
      const x = c.stats[m.name]!;
      lines.push(
        `  ${c.label.padEnd(width)}  ${`${fmt(x.mean)} ${fmtCi(x.meanCi)}${x.smallN && x.n ? ` ${SMALL_N_MARK}` : ''}`.padEnd(30)} ${fmt(x.median)}`,
      );
    }
  }
  const clear = s.comparisons.filter((c) => c.clear).length;
  if (s.comparisons.length)
    lines.push(
      `compared    ${s.comparisons.length} differences, ${clear} clear after Holm's correction over ${s.method.familySize} tests`,
    );
  if (s.smallSamples.length)
    lines.push(
      `${SMALL_N_MARK} small n   ${counted(s.smallSamples.length, 'cell')} (× metric) with fewer runs than the interval needs for ${Math.round(100 * s.method.coverageFloor)}% coverage (summary.md lists them)`,
    );
  lines.push(`results     ${dir} (summary.md, report.html, cells.csv, runs.csv, comparisons.csv, summary.json)`);
  return `${lines.join('\n')}\n`;
}

/**
 * Whether two commits run the same simulations: nothing a run or its metrics depend on differs
 * between them — src/ and sim/ but their tests, the servers (src/rpc), the wallet client (src/client),
 * the reports, the tidy check, the test support, the statistics (sim/stats) and the sweep's own code (sim/sweep: a cell's
 * scenario is matched by the hash of its file anyway, and the tables are made afresh from the
 * runs), plus the package files. A commit that only changes those keeps a sweep's
 * finished runs; unknown commits never do.
 */
export function simulatorUnchanged(a: string | null, b: string | null): boolean {
  if (!a || !b) return false;
  try {
    execFileSync(
      'git',
      [
        'diff',
        '--quiet',
        a,
        b,
        '--',
        'src',
        'sim',
        'package.json',
        'package-lock.json',
        ':(exclude)*.test.ts',
        ':(exclude)src/client',
        ':(exclude)src/rpc',
        ':(exclude)sim/report',
        ':(exclude)sim/tidy',
        ':(exclude)sim/testing',
        ':(exclude)sim/sweep',
        ':(exclude)sim/stats',
      ],
      { cwd: PACKAGE_ROOT, stdio: 'ignore' },
    );
    return true;
  } catch {
    return false;
  }
}

const slug = (label: string) => label.replace(/[^A-Za-z0-9._-]+/g, '_');

export async function sweepCommand(o: SweepCliOptions): Promise<number> {
  if (!Number.isSafeInteger(o.workers) || o.workers < 1 || o.workers > 64)
    throw new InputError('--workers', `expected 1 to 64, got ${o.workers}`);
  if (o.seeds !== undefined && (!Number.isSafeInteger(o.seeds) || o.seeds < 1 || o.seeds > 100_000))
    throw new InputError('--seeds', `expected 1 to 100000, got ${o.seeds}`);
  if (o.dryRun && o.metricsOnly) throw new InputError('--metrics-only', 'give --dry-run or --metrics-only, not both');
  if (o.fresh && o.metricsOnly) throw new InputError('--metrics-only', '--fresh discards the runs it would measure');
  const shard = parseShard(o.shard);
  const intervalMs = progressIntervalMs(o.progressInterval);
  const loaded = loadSweep(o.file);
  const sweep =
    o.seeds === undefined ? loaded.sweep : { ...loaded.sweep, seeds: Array.from({ length: o.seeds }, (_, i) => i + 1) };
  const plan: SweepPlan = planOf(sweep);
  const { files: sourceFiles, ...source } = sourceState();
  const jobs = sweepJobs(sweep, shard, source);
  const suffix = shard.count > 1 ? `-shard-${shard.index}-of-${shard.count}` : '';
  const dir = resolve(o.out ?? join('reports', 'sweeps', `${sweep.name}${suffix}`));
  const build = { version: lockstepVersion(), source };
  const header: JournalHeader = { kind: JOURNAL_KIND, plan, version: build.version, source, sourceFiles, shard };
  // A shard's tables are of its own seeds; the merge of all shards has the sweep's.
  const shardPlan: SweepPlan =
    shard.count > 1 ? { ...plan, seeds: jobs.filter((j) => j.cell === plan.cells[0]).map((j) => j.seed) } : plan;

  const note = (line: string) => {
    if (!o.json) process.stderr.write(`${line}\n`);
  };
  const before = o.fresh ? null : readJournal(dir);
  if (o.metricsOnly) return metricsOnly(o, { before, jobs, shardPlan, dir });
  // Resume: keep the finished runs of this sweep (same cell, seed and scenario file) made from the
  // same source tree; anything else runs again, and the reasons are said.
  const decision: ReuseDecision | null = before ? decideReuse(before.records, jobs, source, simulatorUnchanged) : null;
  if (o.dryRun) {
    const d = dryRun(sweep, shardPlan.seeds, decision, jobs.length);
    process.stdout.write(o.json ? `${JSON.stringify(d)}\n` : formatDryRun(d, 40));
    return EXIT.pass;
  }
  const kept = decision?.kept ?? new Map<string, SweepRunRecord>();
  const journal = new JournalWriter(dir, header, [...kept.values()]);
  const todo: SweepJob[] = jobs.filter((j) => !kept.has(jobKey(j)));
  note(
    `sweep ${sweep.name}: ${counted(sweep.cells.length, 'cell')} × ${counted(jobs.length / sweep.cells.length, 'seed')}${shard.count > 1 ? ` (shard ${shard.index}/${shard.count})` : ''} = ${jobs.length} runs, ${o.workers} worker${o.workers === 1 ? '' : 's'}; results in ${displayPath(dir)}`,
  );
  note(
    `source      ${sourceText(source)}${sourceFiles.length ? ` (${sourceFiles.slice(0, 5).join(', ')}${sourceFiles.length > 5 ? `, … ${sourceFiles.length - 5} more` : ''})` : ''}`,
  );
  if (kept.size)
    note(
      `resuming: ${kept.size} finished runs kept from ${displayPath(join(dir, 'runs.jsonl'))}, ${todo.length} to run`,
    );
  for (const r of decision?.rerun ?? []) note(`${counted(r.runs, 'finished run')} run again: ${r.reason}`);

  const records = new Map(kept);
  const progress = new Progress('runs', { enabled: !o.json, intervalMs });
  let failures = [...kept.values()].filter(isFailed).length;
  let doneNow = 0;
  const show = () => {
    const secs = Math.max(0.001, progress.elapsedMs() / 1000);
    const rate = doneNow / secs;
    const left = jobs.length - records.size;
    progress.update({
      done: records.size,
      total: jobs.length,
      detail: `${failures} failed, ${(rate * 60).toFixed(1)} runs/min`,
      etaMs: doneNow > 0 ? (left / rate) * 1000 : null,
    });
  };
  const interrupts = watchInterrupts({
    onFirst: (signal) =>
      progress.line(
        `${signal}: stopping: finishing the runs under way; finished runs are kept (run the same command again to resume)`,
      ),
  });
  show();
  let interrupted = false;
  try {
    ({ interrupted } = await runSweepJobs({
      jobs: todo,
      workers: o.workers,
      shouldStop: () => interrupts.requested,
      onResult: (r) => {
        journal.append(r);
        records.set(jobKey(r), r);
        doneNow++;
        if (isFailed(r)) {
          failures++;
          const cell = sweep.cells.find((c) => c.label === r.cell)!;
          const file = join(dir, 'failures', `${slug(r.cell)}-seed-${r.seed}.json`);
          mkdirSync(join(dir, 'failures'), { recursive: true });
          writeFileSync(
            file,
            `${JSON.stringify({ ...cellScenario(sweep, cell, r.seed).json, seed: r.seed }, null, 2)}\n`,
          );
          progress.line(
            `FAIL ${r.cell}, seed ${r.seed}: ${r.verdict}${r.violation ? ` (${r.violation.oracle}: ${r.violation.message})` : r.error ? ` (${r.error.split('\n')[0]})` : ''}  repro: npx lockstep run --scenario ${displayPath(file)} --seed ${r.seed}`,
          );
        }
        show();
      },
    }));
  } finally {
    progress.stop();
    interrupts.dispose();
  }
  const all = [...records.values()];
  if (interrupted || all.length < jobs.length) {
    const line = `interrupted: ${all.length} of ${jobs.length} runs finished, kept in ${displayPath(join(dir, 'runs.jsonl'))}; run the same command again to resume`;
    if (o.json)
      process.stdout.write(
        `${JSON.stringify({ sweep: sweep.name, interrupted: true, runs: all.length, of: jobs.length, out: dir })}\n`,
      );
    else process.stderr.write(`${line}\n`);
    return EXIT.interrupted;
  }
  // Every metric of the plan from the runs' digests: kept runs may predate a metric of the file.
  const measured = remeasure(all, plan.metrics);
  const summary = analyseSweep(shardPlan, measured, build);
  writeSweepResults(dir, sweepFiles(shardPlan, measured, summary));
  if (o.json) process.stdout.write(`${JSON.stringify({ ...summary, out: dir })}\n`);
  else process.stdout.write(formatSweep(summary, displayPath(dir)));
  return sweepExitCode(all, false);
}

/** `--metrics-only`: the tables from the runs already made, every metric computed from their digests. */
function metricsOnly(
  o: SweepCliOptions,
  c: { before: ReturnType<typeof readJournal>; jobs: SweepJob[]; shardPlan: SweepPlan; dir: string },
): number {
  if (!c.before)
    throw new InputError('--metrics-only', `${displayPath(c.dir)} holds no runs of this sweep yet: run it first`);
  const byKey = new Map(c.before.records.map((r) => [jobKey(r), r]));
  const records: SweepRunRecord[] = [];
  let missing = 0;
  let changed = 0;
  for (const j of c.jobs) {
    const r = byKey.get(jobKey(j));
    if (!r) missing++;
    else if (r.scenarioSha256 !== j.scenarioSha256) changed++;
    else records.push(r);
  }
  if (missing || changed)
    throw new InputError(
      '--metrics-only',
      `${missing ? `${counted(missing, 'run')} of this sweep ${missing === 1 ? 'is' : 'are'} not made yet` : ''}${missing && changed ? ' and ' : ''}${changed ? `${counted(changed, 'run')} changed scenario` : ''}: run the sweep (without --metrics-only) first`,
    );
  const bare = withoutDigest(records);
  if (bare.length)
    throw new InputError(
      '--metrics-only',
      `${counted(bare.length, 'run')} (e.g. cell ${JSON.stringify(bare[0]!.cell)}, seed ${bare[0]!.seed}) stored no digest to measure (made before runs kept one): run the sweep again`,
    );
  const sources = new Set(records.map((r) => JSON.stringify(r.source ?? null)));
  if (sources.size > 1)
    throw new InputError('--metrics-only', 'the stored runs come from different source trees: run the sweep again');
  const measured = remeasure(records, c.shardPlan.metrics);
  const source = records[0]?.source ?? c.before.header.source;
  const summary = analyseSweep(c.shardPlan, measured, { version: c.before.header.version, source });
  writeSweepResults(c.dir, sweepFiles(c.shardPlan, measured, summary));
  if (!o.json)
    process.stderr.write(
      `metrics of ${records.length} stored runs (made at ${sourceText(source)}) computed from their digests; nothing ran\n`,
    );
  if (o.json) process.stdout.write(`${JSON.stringify({ ...summary, out: c.dir })}\n`);
  else process.stdout.write(formatSweep(summary, displayPath(c.dir)));
  return sweepExitCode(records, false);
}
