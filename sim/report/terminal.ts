/**
 * The readable terminal summary with asciichart plots. Up to EVERY_NODE_UP_TO sidechain nodes it
 * plots a height line per node; above it, the band (highest, median, lowest head), and it says
 * which nodes share a fork tree and which fell behind, as ranges of node ids.
 */
import * as asciichart from 'asciichart';
import { type RunResult } from '../run/run';
import { type Scenario } from '../scenario/scenario';
import { faultGroups } from './aggregate/faultGroups';
import { groupForkTrees } from './aggregate/forkTreeGroups';
import { heightBand, OUTLIER_LAG } from './aggregate/heightBand';
import { nodeRanges } from './aggregate/nodeRanges';
import { aggregateNodes } from './aggregate/threshold';
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

/** The label column of the summary ("checkpoints " is the widest label). */
const LABEL = 12;

/** `label` then `items` joined by `sep` (", "), wrapped at `columns` under the label's column. */
export function wrapped(label: string, items: readonly string[], columns: number, sep = ', '): string {
  const indent = ' '.repeat(LABEL);
  const width = Math.max(20, columns - LABEL);
  const lines: string[] = [];
  let line = '';
  items.forEach((item, i) => {
    const piece = i < items.length - 1 ? `${item}${sep.trimEnd()}` : item;
    if (line && line.length + 1 + piece.length > width) {
      lines.push(line);
      line = piece;
    } else line = line ? `${line} ${piece}` : piece;
  });
  lines.push(line);
  return lines.map((l, i) => (i === 0 ? label.padEnd(LABEL) : indent) + l).join('\n');
}

/** Faults as `kind@Ns(target)`; faults of one kind that fired and healed together as one `kind@Ns(×k: targets)`. */
export function faultItems(s: Scenario, r: RunResult): string[] {
  const faults = r.faultsFired.map((f) => {
    const forMs = s.faults[f.index]?.forMs;
    return {
      index: f.index,
      kind: f.kind,
      detail: f.detail,
      startMs: f.atMs,
      endMs: forMs === undefined ? null : f.atMs + forMs,
    };
  });
  return faultGroups(faults, { maxItems: 6 }).map(
    (g) =>
      `${g.kind}@${(g.startMs / 1000).toFixed(0)}s(${g.indexes.length > 1 ? `×${g.indexes.length}: ` : ''}${g.text})`,
  );
}

/** Many nodes: which share a fork tree, and which fell behind the highest head. */
function nodeLines(r: RunResult, columns: number): string[] {
  const nodes = r.sidechain.nodes.map((n) => n.node);
  const groups = groupForkTrees(r.sidechain.nodes, r.reorgs);
  const MAX_GROUPS = 6;
  const items = groups
    .slice(0, MAX_GROUPS)
    .map((g) => `${g.nodes.length} (${nodeRanges(g.nodes, { maxItems: 3, countFrom: Number.POSITIVE_INFINITY })})`);
  if (groups.length > MAX_GROUPS) items.push(`${groups.length - MAX_GROUPS} more`);
  const out = [
    wrapped(
      'nodes',
      [
        `${nodes.length} sidechain nodes, ${groups.length} distinct fork tree${groups.length === 1 ? '' : 's'}: ${items[0]}`,
        ...items.slice(1),
      ],
      columns,
    ),
  ];
  const band = heightBand(r.samples.timeMs, r.samples.sidechainHeight, nodes);
  if (band.outliers.length === 0) out.push(`behind      no node fell ${OUTLIER_LAG}+ blocks behind the highest head`);
  else {
    const worst = band.outliers[0]!;
    const worstNodes = band.outliers.filter((l) => l.maxLag === worst.maxLag).map((l) => l.node);
    const text = `${band.outliers.length} node${band.outliers.length === 1 ? '' : 's'} fell ${OUTLIER_LAG}+ blocks behind the highest head: ${nodeRanges(
      band.outliers.map((l) => l.node),
      { maxItems: 8, countFrom: Number.POSITIVE_INFINITY },
    )}; furthest ${worst.maxLag} blocks: ${nodeRanges(worstNodes, { maxItems: 4, countFrom: Number.POSITIVE_INFINITY })} at ${((worst.maxLagAtMs ?? 0) / 1000).toFixed(0)} s`;
    out.push(wrapped('behind', text.split(' '), columns, ' '));
  }
  return out;
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
  // The description's first sentence, wrapped under the label, at most three lines.
  const about = wrapped('scenario', `${r.scenario} — ${s.description.split('.')[0]}`.split(' '), columns, ' ').split(
    '\n',
  );
  out.push(about.length > 3 ? `${about.slice(0, 3).join('\n')} …` : about.join('\n'));
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
  out.push(r.faultsFired.length ? wrapped('faults', faultItems(s, r), columns) : 'faults      none');
  const many = aggregateNodes(r.sidechain.nodes.length);
  if (many) out.push(...nodeLines(r, columns));
  out.push(`trace       ${r.traceHash}`);
  out.push('');
  if (many) {
    const band = heightBand(
      r.samples.timeMs,
      r.samples.sidechainHeight,
      r.sidechain.nodes.map((n) => n.node),
    );
    out.push(
      plot(
        `sidechain height across ${r.sidechain.nodes.length} nodes (highest, median, lowest)`,
        [band.max, band.median, band.min],
        8,
        columns,
      ),
    );
  } else out.push(plot('sidechain height per node', Object.values(r.samples.sidechainHeight), 8, columns));
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
  // Names by message type (`accepted.MsgCheckpointNoAck`) run longer than the counts' names.
  const width = Math.max(18, ...o.checks.map((ch) => ch.what.length));
  for (const ch of o.checks)
    out.push(
      `  ${mark[ch.status]} ${ch.what.padEnd(width)} expected ${expectedText(ch).padEnd(10)} got ${ch.actual}${ch.status === 'not judged' ? '  (not judged: the run stopped early)' : ''}`,
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
