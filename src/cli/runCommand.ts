/**
 * `lockstep run`: run a scenario on virtual time, show progress, print a readable summary with
 * plots (or one JSON object), and write the run's report folder. Ctrl-C stops the run at the next
 * step and still writes what finished.
 */
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseDurationMs } from '../core/duration';
import { InputError } from '../core/errors';
import { loadScenario } from '../../sim/scenario/load';
import { prepareRunAsync, type RunResult } from '../../sim/run';
import { installPlant } from '../../sim/campaign/plants';
import { summaryJson, summaryMarkdown, checkExpectations } from '../../sim/report/summary';
import { terminalSummary } from '../../sim/report/terminal';
import { reportHtml } from '../../sim/report/html';
import { EXIT } from './exitCodes';

export interface RunCliOptions {
  scenario: string;
  seed: number;
  until?: string;
  placement: string;
  crypto?: string;
  json: boolean;
  out?: string;
  trace: boolean;
}

export const VERDICT_EXIT: Record<string, number> = {
  pass: EXIT.pass,
  safety: EXIT.safety,
  liveness: EXIT.liveness,
  crash: EXIT.crash,
};

export async function runCommand(opts: RunCliOptions): Promise<number> {
  if (!Number.isSafeInteger(opts.seed) || opts.seed < 0)
    throw new InputError('--seed', `expected a non-negative integer, got ${opts.seed}`);
  if (opts.placement !== 'inline' && opts.placement !== 'worker')
    throw new InputError('--placement', `expected inline or worker, got ${JSON.stringify(opts.placement)}`);
  if (opts.crypto !== undefined && opts.crypto !== 'real' && opts.crypto !== 'fast')
    throw new InputError('--crypto', `expected real or fast, got ${JSON.stringify(opts.crypto)}`);
  const { scenario: loaded } = loadScenario(opts.scenario);
  const scenario = opts.crypto ? { ...loaded, crypto: opts.crypto as 'real' | 'fast' } : loaded;
  const untilMs = opts.until === undefined ? scenario.durationMs : parseDurationMs(opts.until, '--until');
  if (untilMs <= 0) throw new InputError('--until', 'must be positive');

  const outDir = resolve(opts.out ?? join('reports', 'runs', `${scenario.name}-${opts.seed}`));
  mkdirSync(outDir, { recursive: true });
  const traceFile = opts.trace ? createWriteStream(join(outDir, 'trace.jsonl')) : null;

  // A regression of the campaign pipeline names a planted bug: turn it on (inline runs only).
  if (scenario.plant !== undefined) {
    if (opts.placement === 'worker')
      throw new InputError('--placement', 'a scenario with a planted bug runs inline only');
    installPlant(scenario.plant);
    process.stderr.write(`note: planted bug ${scenario.plant} is on for this run (test build)\n`);
  }

  let interrupted = false;
  const onSigint = () => {
    interrupted = true;
  };
  process.once('SIGINT', onSigint);
  const showProgress = !opts.json && process.stderr.isTTY;
  const wallStart = Date.now();
  const run = await prepareRunAsync(scenario, {
    seed: opts.seed,
    untilMs,
    placement: opts.placement,
    ...(traceFile ? { traceSink: (line: string) => void traceFile.write(line + '\n') } : {}),
    onProgress: (simMs, totalMs) => {
      if (showProgress) {
        const frac = simMs / totalMs;
        const bar = '='.repeat(Math.floor(frac * 30)).padEnd(30, ' ');
        process.stderr.write(
          `\r[${bar}] ${(frac * 100).toFixed(0).padStart(3)}%  ${(simMs / 1000).toFixed(0)} s simulated, ${((Date.now() - wallStart) / 1000).toFixed(1)} s wall `,
        );
      }
      return interrupted ? 'stop' : undefined;
    },
  });
  let result: RunResult;
  try {
    // Yield to the event loop between steps so Ctrl-C and output get through.
    while ((await run.step()) === 'more') await new Promise((r) => setImmediate(r));
    result = await run.finish();
  } finally {
    await run.close();
  }
  const wallMs = Date.now() - wallStart;
  process.removeListener('SIGINT', onSigint);
  if (showProgress) process.stderr.write('\n');

  writeFileSync(join(outDir, 'summary.json'), summaryJson(scenario, result));
  writeFileSync(join(outDir, 'summary.md'), summaryMarkdown(scenario, result));
  const htmlFile = join(outDir, 'report.html');
  writeFileSync(htmlFile, reportHtml(scenario, result));
  if (traceFile) await new Promise<void>((r) => traceFile.end(r));

  if (opts.json) {
    process.stdout.write(
      JSON.stringify({
        scenario: result.scenario,
        seed: result.seed,
        crypto: result.crypto,
        placement: opts.placement,
        simulatedMs: result.simulatedMs,
        wallMs,
        traceHash: result.traceHash,
        verdict: result.verdict,
        message: result.message,
        counts: result.counts,
        maxReorgDepth: result.maxReorgDepth,
        backupBlocks: result.backupBlocks,
        windows: result.windows,
        expectationsMet: checkExpectations(scenario, result).every((c) => c.ok),
        report: outDir,
        html: htmlFile,
      }) + '\n',
    );
  } else {
    process.stdout.write(terminalSummary(scenario, result, wallMs));
    process.stdout.write(`report      ${outDir}\n`);
    process.stdout.write(`html        ${htmlFile}\n`);
  }
  if (result.interrupted) return EXIT.badInput;
  return VERDICT_EXIT[result.verdict] ?? EXIT.crash;
}
