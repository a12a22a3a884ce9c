/**
 * The files a sweep writes from its runs, as text: CSV and JSON for notebooks (runs.csv,
 * cells.csv, comparisons.csv, summary.json), a Markdown summary and a self-contained HTML page
 * with a box-and-strip plot per metric. All pure functions of the plan and the runs: no wall
 * time, no paths, so a rerun with the same seeds writes the same bytes.
 */
import { type SweepRunRecord } from '../campaign/sweepTask';
import { CSP, STYLE } from '../report/html/page';
import { esc } from '../report/html/format';
import { type Interval } from '../stats/bootstrap';
import { type SweepSummary, isFailed } from './analysis';
import { type SweepPlan } from './plan';
import { type PlotCell, boxStripSvg } from './plot';

function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'string' ? v : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const csv = (rows: unknown[][]): string => rows.map((r) => r.map(csvField).join(',')).join('\n') + '\n';

/** Runs in table order: by cell (in plan order), then seed. */
export function orderedRuns(plan: SweepPlan, records: readonly SweepRunRecord[]): SweepRunRecord[] {
  const cellIndex = new Map(plan.cells.map((c, i) => [c, i]));
  return records.slice().sort((a, b) => cellIndex.get(a.cell)! - cellIndex.get(b.cell)! || a.seed - b.seed);
}

export function runsCsv(plan: SweepPlan, records: readonly SweepRunRecord[]): string {
  return csv([
    ['cell', 'seed', 'verdict', 'oracle', ...plan.metrics, 'traceHash'],
    ...orderedRuns(plan, records).map((r) => [
      r.cell,
      r.seed,
      r.verdict,
      r.violation?.oracle ?? '',
      ...plan.metrics.map((m) => r.metrics[m]),
      r.traceHash,
    ]),
  ]);
}

export function cellsCsv(s: SweepSummary): string {
  const rows: unknown[][] = [
    [
      'cell',
      'metric',
      'unit',
      'runs',
      'failed',
      'n',
      'median',
      'mean',
      'mean_ci_low',
      'mean_ci_high',
      'median_ci_low',
      'median_ci_high',
      'p95',
      'min',
      'max',
    ],
  ];
  for (const m of s.metrics)
    for (const c of s.cells) {
      const x = c.stats[m.name]!;
      rows.push([
        c.label,
        m.name,
        m.unit,
        c.runs,
        c.failed,
        x.n,
        x.median,
        x.mean,
        x.meanCi?.[0],
        x.meanCi?.[1],
        x.medianCi?.[0],
        x.medianCi?.[1],
        x.p95,
        x.min,
        x.max,
      ]);
    }
  return csv(rows);
}

export function comparisonsCsv(s: SweepSummary): string {
  return csv([
    [
      'a',
      'b',
      'metric',
      'n',
      'paired',
      'mean_diff',
      'mean_diff_ci_low',
      'mean_diff_ci_high',
      'median_diff',
      'median_diff_ci_low',
      'median_diff_ci_high',
    ],
    ...s.comparisons.map((c) => [
      c.a,
      c.b,
      c.metric,
      c.n,
      c.paired,
      c.meanDiff,
      c.meanDiffCi?.[0],
      c.meanDiffCi?.[1],
      c.medianDiff,
      c.medianDiffCi?.[0],
      c.medianDiffCi?.[1],
    ]),
  ]);
}

export function summaryJson(s: SweepSummary): string {
  return `${JSON.stringify(s, null, 2)}\n`;
}

/** A number for a table: at most two decimals. */
export function fmt(v: number | null | undefined): string {
  if (v === null || v === undefined) return '—';
  return String(Math.round(v * 100) / 100);
}

export const fmtCi = (ci: Interval | null): string => (ci ? `[${fmt(ci[0])}, ${fmt(ci[1])}]` : '—');

const mdCell = (s: string) => s.replace(/\|/g, '\\|');

/** `1 seed`, `30 seeds`. */
export const counted = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** One metric's table across the cells, in Markdown. */
export function metricTableMarkdown(s: SweepSummary, metric: string): string {
  const lines = [
    '| cell | runs | failed | median | mean [95% CI] | p95 | min – max |',
    '| --- | ---: | ---: | ---: | --- | ---: | --- |',
  ];
  for (const c of s.cells) {
    const x = c.stats[metric]!;
    lines.push(
      `| ${mdCell(c.label)} | ${c.runs} | ${c.failed} | ${fmt(x.median)} | ${fmt(x.mean)} ${fmtCi(x.meanCi)} | ${fmt(x.p95)} | ${x.n ? `${fmt(x.min)} – ${fmt(x.max)}` : '—'} |`,
    );
  }
  return lines.join('\n');
}

/** The comparisons of some metrics, in Markdown. */
export function comparisonsMarkdown(
  s: SweepSummary,
  metrics: readonly string[] = s.metrics.map((m) => m.name),
): string {
  const lines = [
    '| metric | A | B | B − A, mean [95% CI] | B − A, median [95% CI] | seeds |',
    '| --- | --- | --- | --- | --- | ---: |',
  ];
  for (const c of s.comparisons)
    if (metrics.includes(c.metric))
      lines.push(
        `| ${c.metric} | ${mdCell(c.a)} | ${mdCell(c.b)} | ${fmt(c.meanDiff)} ${fmtCi(c.meanDiffCi)} | ${fmt(c.medianDiff)} ${fmtCi(c.medianDiffCi)} | ${c.n}${c.paired ? ' paired' : ''} |`,
      );
  return lines.join('\n');
}

function headline(s: SweepSummary): string[] {
  const failed = s.cells.reduce((n, c) => n + c.failed, 0);
  const seeds =
    s.seeds.length > 1 && s.seeds.every((x, i) => i === 0 || x === s.seeds[i - 1]! + 1)
      ? `${s.seeds[0]}..${s.seeds.at(-1)}`
      : s.seeds.join(', ');
  return [
    `- runs: ${s.runs} of ${s.runsExpected} (${counted(s.cells.length, 'cell')} × ${counted(s.seeds.length, 'seed')})${s.complete ? '' : ' — **incomplete**'}, ${failed} failed`,
    `- seeds: ${seeds}${s.drawn.length ? `; drawn afresh for each seed, the same in every cell: ${s.drawn.map((d) => `\`${d}\``).join(', ')}` : ''}`,
    `- statistics over the runs that passed: median, mean with its ${Math.round(s.level * 100)}% bootstrap interval (${s.bootstrap.resamples} resamples, seed \`${s.bootstrap.seed}\`), p95 (type 7); differences paired by seed`,
    `- Lockstep ${s.version}${s.commit ? ` at commit \`${s.commit.slice(0, 12)}\`` : ''}`,
  ];
}

export function summaryMarkdown(s: SweepSummary): string {
  const out = [`# Sweep ${s.sweep}`, ''];
  if (s.description) out.push(s.description, '');
  out.push(...headline(s), '');
  for (const m of s.metrics)
    out.push(`## ${m.name} (${m.unit})`, '', m.definition, '', metricTableMarkdown(s, m.name), '');
  if (s.comparisons.length) out.push('## Comparisons (B − A)', '', comparisonsMarkdown(s), '');
  const failures = s.cells.flatMap((c) => c.failures.map((f) => ({ cell: c.label, ...f })));
  if (failures.length) {
    out.push('## Failed runs', '', '| cell | seed | verdict | first violation |', '| --- | ---: | --- | --- |');
    for (const f of failures) out.push(`| ${mdCell(f.cell)} | ${f.seed} | ${f.verdict} | ${mdCell(f.message)} |`);
    out.push('');
  }
  return out.join('\n');
}

/** The plot input of one metric: every passing run's value, per cell. */
export function plotCells(s: SweepSummary, records: readonly SweepRunRecord[], metric: string): PlotCell[] {
  return s.cells.map((c) => ({
    label: c.label,
    summary: c.stats[metric]!,
    values: records
      .filter((r) => r.cell === c.label && !isFailed(r) && typeof r.metrics[metric] === 'number')
      .sort((a, b) => a.seed - b.seed)
      .map((r) => ({ seed: r.seed, value: r.metrics[metric] as number })),
  }));
}

export function metricSvg(s: SweepSummary, records: readonly SweepRunRecord[], metric: string): string {
  const m = s.metrics.find((x) => x.name === metric)!;
  return boxStripSvg(`${m.name} (${m.unit})`, m.unit, plotCells(s, records, metric));
}

const table = (head: string[], rows: string[][], num: boolean[]): string =>
  `<div class="scroll"><table><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((v, i) => `<td${num[i] ? ' class="num"' : ''}>${esc(v)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table></div>`;

export function sweepHtml(s: SweepSummary, records: readonly SweepRunRecord[]): string {
  const sections = s.metrics.map((m) => {
    const rows = s.cells.map((c) => {
      const x = c.stats[m.name]!;
      return [
        c.label,
        String(c.runs),
        String(c.failed),
        fmt(x.median),
        `${fmt(x.mean)} ${fmtCi(x.meanCi)}`,
        fmt(x.p95),
        x.n ? `${fmt(x.min)} – ${fmt(x.max)}` : '—',
      ];
    });
    return `<section id="m-${esc(m.name)}"><h2>${esc(m.name)} <small>(${esc(m.unit)})</small></h2><p>${esc(m.definition).replace(/`([^`]+)`/g, '<code>$1</code>')}</p>
<figure class="chart">${metricSvg(s, records, m.name).replace(/ width="\d+" height="\d+"/, '')}</figure>
${table(['cell', 'runs', 'failed', 'median', 'mean [95% CI]', 'p95', 'min – max'], rows, [false, true, true, true, false, true, false])}</section>`;
  });
  const comparisons = s.comparisons.length
    ? `<section id="comparisons"><h2>Comparisons (B − A)</h2>${table(
        ['metric', 'A', 'B', 'B − A, mean [95% CI]', 'B − A, median [95% CI]', 'seeds'],
        s.comparisons.map((c) => [
          c.metric,
          c.a,
          c.b,
          `${fmt(c.meanDiff)} ${fmtCi(c.meanDiffCi)}`,
          `${fmt(c.medianDiff)} ${fmtCi(c.medianDiffCi)}`,
          `${c.n}${c.paired ? ' paired' : ''}`,
        ]),
        [false, false, false, false, false, true],
      )}</section>`
    : '';
  const failures = s.cells.flatMap((c) => c.failures.map((f) => [c.label, String(f.seed), f.verdict, f.message]));
  const failed = failures.length
    ? `<section id="failures"><h2>Failed runs</h2>${table(['cell', 'seed', 'verdict', 'first violation'], failures, [false, true, false, false])}</section>`
    : '';
  const facts = headline(s)
    .map((l) => `<li>${esc(l.replace(/^- /, '').replace(/[`*]/g, ''))}</li>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Sweep ${esc(s.sweep)}</title><style>${STYLE}</style></head>
<body><header class="top"><h1>Sweep ${esc(s.sweep)}</h1>${s.description ? `<p class="desc">${esc(s.description)}</p>` : ''}<ul>${facts}</ul>
<nav>${s.metrics.map((m) => `<a href="#m-${esc(m.name)}">${esc(m.name)}</a>`).join('')}${s.comparisons.length ? '<a href="#comparisons">comparisons</a>' : ''}${failures.length ? '<a href="#failures">failed runs</a>' : ''}</nav></header>
<main><div class="charts">${sections.join('\n')}</div>${comparisons}${failed}</main>
<footer>Written by lockstep sweep. Plots: box from the first to the third quartile with the median line, whiskers to the smallest and largest value, each dot one run, the diamond the mean with its bootstrap interval.</footer>
</body></html>
`;
}

/** Every file of a sweep's results, by name. */
export function sweepFiles(
  plan: SweepPlan,
  records: readonly SweepRunRecord[],
  s: SweepSummary,
): Record<string, string> {
  return {
    'runs.csv': runsCsv(plan, records),
    'cells.csv': cellsCsv(s),
    'comparisons.csv': comparisonsCsv(s),
    'summary.json': summaryJson(s),
    'summary.md': summaryMarkdown(s),
    'report.html': sweepHtml(s, records),
  };
}
