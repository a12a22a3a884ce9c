/**
 * `lockstep run`: run a scenario on virtual time, show progress, print a readable summary with
 * plots (or one JSON object), and write the run's report folder: a self-contained repro holding
 * the exact scenario file, summary.json (with the scenario file's hash, seed, crypto, placement,
 * version and commit), summary.md, metrics.json (sim/metrics), report.html and trace.jsonl.
 *
 * The verdict counts the scenario's expectations (src/core/exitCodes.ts has the codes). The folder
 * is written under a temporary name and renamed into place only when complete; Ctrl-C or SIGTERM
 * stops the run at the next step, reports `interrupted` (exit 130) and puts the partial report in
 * `<dir>.interrupted/`, leaving an earlier complete report as it was.
 */
import { cacheStats } from '../src/core/memo';
import { cacheTable } from './cacheTable';
import { createWriteStream, existsSync, type WriteStream } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { durationText, parseDurationMs } from '../src/core/duration';
import { InputError } from '../src/core/errors';
import { loadScenario } from '../sim/scenario/load';
import { type Scenario } from '../sim/scenario/scenario';
import { type RunResult } from '../sim/run/run';
import { runOutcome } from '../sim/report/outcome';
import { type RunMeta, summaryJson, summaryMarkdown, summaryObject } from '../sim/report/summary';
import { DEFAULT_COLUMNS, terminalSummary, verdictLine } from '../sim/report/terminal';
import { reportHtml } from '../sim/report/html';
import { metricsJson } from '../sim/metrics/metricsFile';
import { EXIT } from '../src/core/exitCodes';
import { exitCodeOf } from './verdictCodes';
import { Progress, progressIntervalMs } from './progress';
import { watchInterrupts } from './interrupts';
import { ReportFolder } from './reportFolder';
import { displayPath, gitCommit, lockstepVersion, sha256Hex } from './provenance';
import { driveRun } from './runLoop';
import { checkDeterminism, formatDeterminism, Interrupted } from './determinism';

export interface RunCliOptions {
  scenario: string;
  /** Default: the scenario's own `seed`, else 1. */
  seed?: number;
  until?: string;
  placement: string;
  crypto?: string;
  json: boolean;
  out?: string;
  trace: boolean;
  checkDeterminism?: boolean;
  /** Check the modules' invariants after every block (a broken one is a crash). */
  checkInvariants?: boolean;
  /** Share block execution between the service nodes (default on). */
  sharedExecution?: boolean;
  /** Print the caches' and the shared execution's hit rates. */
  stats?: boolean;
  progressInterval?: string;
  /** Test-only (hidden flag): with --check-determinism, the second run diverges after this main-domain event. */
  divergeAfterEvent?: number;
}

/**
 * The faults a run to `untilMs` never reaches (a scenario file may not hold faults after its own
 * end: the decoder refuses them; a run shortened with --until only warns).
 */
export function faultsAfterEnd(s: Scenario, untilMs: number): string[] {
  const out: string[] = [];
  s.faults.forEach((f, i) => {
    if (f.atMs !== undefined && f.atMs >= untilMs)
      out.push(
        `faults[${i}].at: ${durationText(f.atMs)} is after the end of the run (${durationText(untilMs)}); it never fires`,
      );
  });
  return out;
}

export async function runCommand(opts: RunCliOptions): Promise<number> {
  if (opts.seed !== undefined && (!Number.isSafeInteger(opts.seed) || opts.seed < 0))
    throw new InputError('--seed', `expected a non-negative integer, got ${opts.seed}`);
  if (opts.placement !== 'inline' && opts.placement !== 'worker')
    throw new InputError('--placement', `expected inline or worker, got ${JSON.stringify(opts.placement)}`);
  if (opts.crypto !== undefined && opts.crypto !== 'real' && opts.crypto !== 'fast')
    throw new InputError('--crypto', `expected real or fast, got ${JSON.stringify(opts.crypto)}`);
  const intervalMs = progressIntervalMs(opts.progressInterval);
  const loaded = loadScenario(opts.scenario);
  const scenario: Scenario = opts.crypto
    ? { ...loaded.scenario, crypto: opts.crypto as 'real' | 'fast' }
    : loaded.scenario;
  const seed = opts.seed ?? scenario.seed ?? 1;
  const untilMs = opts.until === undefined ? scenario.durationMs : parseDurationMs(opts.until, '--until');
  if (untilMs <= 0) throw new InputError('--until', 'must be positive');
  if (opts.divergeAfterEvent !== undefined && !opts.checkDeterminism)
    throw new InputError('--test-diverge-after', 'only with --check-determinism');
  for (const w of faultsAfterEnd(scenario, untilMs)) process.stderr.write(`warning: ${w}\n`);

  // A regression of the campaign pipeline names a planted bug: the run switches it on (both placements).
  if (scenario.plant !== undefined)
    process.stderr.write(`note: planted bug ${scenario.plant} is on for this run (test build)\n`);

  if (opts.checkDeterminism) return determinismCommand(scenario, seed, untilMs, opts, intervalMs);

  // Named after the file (regressions share scenario names); a report's scenario.json after its scenario.
  const stem = basename(loaded.file, '.json') === 'scenario' ? scenario.name : basename(loaded.file, '.json');
  const outDir = resolve(opts.out ?? join('reports', 'runs', `${stem}-${seed}`));
  const folder = new ReportFolder(outDir);
  const traceFile: WriteStream | null = opts.trace ? createWriteStream(folder.file('trace.jsonl')) : null;
  const progress = new Progress('s simulated', { enabled: !opts.json, intervalMs });
  const interrupts = watchInterrupts({
    onFirst: (signal) =>
      process.stderr.write(
        `\n${signal}: stopping at the next step; the partial report goes to ${ReportFolder.interruptedDir(outDir)}\n`,
      ),
  });
  let result: RunResult;
  try {
    result = await driveRun(
      scenario,
      {
        seed,
        untilMs,
        placement: opts.placement,
        ...(opts.checkInvariants ? { checkInvariants: true } : {}),
        ...(opts.sharedExecution === false ? { sharedExecution: false } : {}),
        ...(traceFile ? { traceSink: (line: string) => void traceFile.write(`${line}\n`) } : {}),
      },
      { progress, shouldStop: () => interrupts.requested },
    );
  } catch (e) {
    progress.stop();
    interrupts.dispose();
    if (traceFile) await new Promise<void>((r) => traceFile.end(r));
    folder.discard();
    throw e;
  }
  const wallMs = progress.elapsedMs();
  progress.stop();

  const meta: RunMeta = {
    scenarioFile: displayPath(loaded.file),
    scenarioSha256: sha256Hex(loaded.bytes),
    placement: opts.placement,
    version: lockstepVersion(),
    commit: gitCommit(),
    untilMs,
  };
  const outcome = runOutcome(scenario, result, { untilMs });
  folder.write('scenario.json', loaded.bytes);
  folder.write('summary.json', summaryJson(scenario, result, meta));
  folder.write('summary.md', summaryMarkdown(scenario, result, meta));
  folder.write('metrics.json', metricsJson(result));
  folder.write('report.html', reportHtml(scenario, result, outcome));
  if (traceFile) await new Promise<void>((r) => traceFile.end(r));
  const reportDir = outcome.interrupted ? folder.keepInterrupted() : folder.commit();
  interrupts.dispose();
  const htmlFile = join(reportDir, 'report.html');

  const sharedStats = result.main.sharedExecution;
  const statsNote =
    opts.placement === 'worker'
      ? 'caches of the main thread (service nodes, parent chain); the sidechain ran in a worker'
      : 'caches of this process (every domain ran inline)';
  if (opts.json) {
    const stats = opts.stats ? { caches: cacheStats(), sharedExecution: sharedStats } : {};
    process.stdout.write(
      `${JSON.stringify({ ...summaryObject(scenario, result, meta), wallMs, report: reportDir, html: htmlFile, ...stats })}\n`,
    );
  } else {
    process.stdout.write(
      terminalSummary(scenario, result, { wallMs, outcome, columns: process.stdout.columns || DEFAULT_COLUMNS }),
    );
    if (outcome.interrupted)
      process.stdout.write(
        `report      ${reportDir} (partial${existsSync(outDir) ? `; the complete report in ${outDir} is untouched` : ''})\n`,
      );
    else process.stdout.write(`report      ${reportDir}\n`);
    process.stdout.write(`html        ${htmlFile}\n`);
    if (opts.stats) process.stdout.write(`\n${cacheTable(cacheStats(), sharedStats, statsNote)}`);
  }
  return exitCodeOf(outcome.verdict);
}

async function determinismCommand(
  scenario: Scenario,
  seed: number,
  untilMs: number,
  opts: RunCliOptions,
  intervalMs: number,
): Promise<number> {
  const interrupts = watchInterrupts({
    onFirst: (signal) => process.stderr.write(`\n${signal}: stopping at the next step\n`),
  });
  let check: Awaited<ReturnType<typeof checkDeterminism>>;
  let first: RunResult | null = null;
  try {
    check = await checkDeterminism(scenario, {
      seed,
      untilMs,
      ...(opts.divergeAfterEvent !== undefined ? { divergeAfterEvent: opts.divergeAfterEvent } : {}),
      drive: (label) => ({
        progress: new Progress(`s simulated, ${label}`, { enabled: !opts.json, intervalMs }),
        shouldStop: () => interrupts.requested,
      }),
      onResult: (r) => {
        first ??= r;
      },
    });
  } catch (e) {
    if (e instanceof Interrupted) {
      process.stdout.write(
        opts.json
          ? `${JSON.stringify({ verdict: 'interrupted', determinism: null })}\n`
          : 'verdict     INTERRUPTED (the determinism check did not finish)\n',
      );
      return EXIT.interrupted;
    }
    throw e;
  } finally {
    interrupts.dispose();
  }
  const outcome = runOutcome(scenario, first!, { untilMs });
  if (opts.json) {
    process.stdout.write(
      `${JSON.stringify({ scenario: scenario.name, seed, verdict: outcome.verdict, message: outcome.message, determinism: check })}\n`,
    );
  } else {
    process.stdout.write(`scenario    ${scenario.name}   seed ${seed}   crypto ${scenario.crypto}\n`);
    process.stdout.write(formatDeterminism(check));
    process.stdout.write(`verdict     ${verdictLine(outcome)}\n`);
  }
  // Runs that differ are a bug of Lockstep itself: a crash, whatever the verdict of the first run.
  return check.ok ? exitCodeOf(outcome.verdict) : EXIT.crash;
}
