/** The readable terminal summary with asciichart plots. */
import * as asciichart from 'asciichart';
import { type RunResult } from '../run';
import { type Scenario } from '../scenario/scenario';
import { expectedText, type RunOutcome, runOutcome } from './outcome';

/** Columns when the output is not a terminal. */
export const DEFAULT_COLUMNS = 80;
/** The y-axis labels and the axis take this many columns of each plot line. */
const AXIS_COLUMNS = 10;

/**
 * At most `n` points: each the maximum of its bucket of consecutive samples, so a short spike (a
 * reorg, a slow checkpoint) is never dropped between two kept samples.
 */
export function downsampleMax(xs: readonly number[], n: number): number[] {
  if (xs.length <= n) return [...xs];
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const from = Math.floor((i * xs.length) / n);
    const to = Math.floor(((i + 1) * xs.length) / n);
    let m = xs[from]!;
    for (let k = from + 1; k < to; k++) m = Math.max(m, xs[k]!);
    out.push(m);
  }
  return out;
}

/**
 * Axis bounds that give a whole number on every label: the top is a multiple of the rows, and
 * there are no more rows than the largest value needs.
 */
export function integerAxis(maxValue: number, wantedRows: number): { rows: number; top: number } {
  const m = Math.max(1, Math.ceil(maxValue));
  if (m <= wantedRows) return { rows: m, top: m };
  const step = Math.ceil(m / wantedRows);
  const rows = Math.ceil(m / step);
  return { rows, top: rows * step };
}

export function plot(title: string, series: number[][], rows: number, columns: number): string {
  const width = Math.max(10, columns - AXIS_COLUMNS);
  const clean = series.map((s) => downsampleMax(s, width)).filter((s) => s.length > 0);
  if (clean.length === 0 || clean.every((s) => s.every((v) => v === 0))) return `${title}\n  (nothing to plot)\n`;
  const max = Math.max(...clean.map((s) => Math.max(...s)));
  const min = Math.min(0, ...clean.map((s) => Math.min(...s)));
  const axis = integerAxis(max - min, rows);
  return `${title}\n${asciichart.plot(clean, {
    height: axis.rows,
    min,
    max: min + axis.top,
    format: (x: number) => x.toFixed(0).padStart(7),
  })}\n`;
}

/** The deepest reorg in each sample interval (reorgs are stamped with the node's epoch-based clock). */
export function reorgDepthSeries(s: Scenario, r: RunResult): number[] {
  return r.samples.timeMs.map((t, i) => {
    const prev = i === 0 ? -1 : r.samples.timeMs[i - 1]!;
    let d = 0;
    for (const x of r.reorgs) if (x.atMs - s.epochMs > prev && x.atMs - s.epochMs <= t) d = Math.max(d, x.depth);
    return d;
  });
}

export interface TerminalOptions {
  wallMs: number;
  /** The outcome (default: judged as a whole run). */
  outcome?: RunOutcome;
  /** Terminal width (default 80). */
  columns?: number;
}

export function terminalSummary(s: Scenario, r: RunResult, opts: TerminalOptions): string {
  const o = opts.outcome ?? runOutcome(s, r);
  const columns = opts.columns ?? DEFAULT_COLUMNS;
  const wallMs = opts.wallMs;
  const simS = r.simulatedMs / 1000;
  const c = r.counts;
  const out: string[] = [];
  out.push(`scenario    ${r.scenario} — ${s.description.split('.')[0]}`);
  out.push(`seed        ${r.seed}   crypto ${r.crypto}`);
  out.push(
    `simulated   ${simS.toFixed(0)} s in ${(wallMs / 1000).toFixed(1)} s of wall time (${(simS / Math.max(0.001, wallMs / 1000)).toFixed(0)}x)`,
  );
  if (o.shortened || o.interrupted)
    out.push(
      `${o.shortened ? 'shortened' : 'interrupted'}   ran ${simS.toFixed(0)} s of the scenario's ${(s.durationMs / 1000).toFixed(0)} s${o.notJudged.length ? `; ${o.notJudged.length} expectation${o.notJudged.length === 1 ? '' : 's'} not judged` : ''}`,
    );
  out.push(`events      ${r.events}`);
  out.push(`service     ${c.serviceBlocks} blocks`);
  out.push(
    `sidechain   ${c.sidechainBlocks} blocks, ${r.backupBlocks} by backups, ${c.reorgs} reorgs (deepest ${r.maxReorgDepth})`,
  );
  out.push(`spans       ${c.spans} committed beyond the genesis span`);
  out.push(
    `checkpoints ${c.checkpointsAcked} acked, ${c.noAcks} no-acks${r.checkpointLatencyMs.length ? `, latency ${(Math.min(...r.checkpointLatencyMs) / 1000).toFixed(0)}-${(Math.max(...r.checkpointLatencyMs) / 1000).toFixed(0)} s` : ''}`,
  );
  out.push(
    `faults      ${r.faultsFired.length ? r.faultsFired.map((f) => `${f.kind}@${(f.atMs / 1000).toFixed(0)}s(${f.detail})`).join(', ') : 'none'}`,
  );
  out.push(`trace       ${r.traceHash}`);
  out.push('');
  out.push(plot('sidechain height per node', Object.values(r.samples.sidechainHeight), 8, columns));
  out.push(plot('reorg depth over time (deepest per interval)', [reorgDepthSeries(s, r)], 4, columns));
  out.push(
    plot(
      'checkpoint latency, buffered to acked (s), per checkpoint',
      [r.checkpointLatencyMs.map((ms) => ms / 1000)],
      5,
      columns,
    ),
  );
  out.push('expectations');
  const mark = { ok: 'ok  ', failed: 'FAIL', 'not judged': '--  ' } as const;
  for (const ch of o.checks)
    out.push(
      `  ${mark[ch.status]} ${ch.what.padEnd(18)} expected ${expectedText(ch).padEnd(10)} got ${ch.actual}${ch.status === 'not judged' ? '  (not judged: the run stopped early)' : ''}`,
    );
  out.push('');
  out.push(`verdict     ${verdictLine(o)}`);
  return out.join('\n') + '\n';
}

/** `PASS`, `EXPECTATIONS (serviceBlocks expected >= 100000 got 28)`, `INTERRUPTED (…)`, with `, shortened`. */
export function verdictLine(o: RunOutcome): string {
  const notes: string[] = [];
  if (o.message !== 'completed') notes.push(o.message);
  if (o.shortened) notes.push(`shortened${o.notJudged.length ? `, ${o.notJudged.length} not judged` : ''}`);
  if (o.verdict !== 'expectations' && o.failed.length)
    notes.push(`expectations failed: ${o.failed.map((c) => c.what).join(', ')}`);
  return `${o.verdict.toUpperCase()}${notes.length ? ` (${notes.join('; ')})` : ''}`;
}
