/**
 * The files a sweep writes from its runs, as text: CSV and JSON for notebooks (runs.csv with what
 * every run was, cells.csv, comparisons.csv, summary.json), a Markdown summary and a
 * self-contained HTML page with a box-and-strip plot per metric and, for a numeric axis of the
 * grid, the metric against it. All pure functions of the plan and the runs: no wall time, no
 * paths, so a rerun with the same seeds writes the same bytes.
 */
import { type SweepRunRecord } from '../campaign/sweepTask';
import { CSP, STYLE } from '../report/html/page';
import { esc } from '../report/html/format';
import { type Interval } from '../stats/bootstrap';
import { type Comparison, type SweepSummary, isFailed } from './analysis';
import { type AxisSeries, axisPlotSvg, numericAxisValue } from './axisPlot';
import { type SweepPlan } from './plan';
import { type PlotCell, boxStripSvg } from './plot';
import { sourceText } from '../core/sourceState';

function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const csv = (rows: unknown[][]): string => rows.map((r) => r.map(csvField).join(',')).join('\n') + '\n';

/** Runs in table order: by cell (in plan order), then seed. */
export function orderedRuns(plan: SweepPlan, records: readonly SweepRunRecord[]): SweepRunRecord[] {
  const cellIndex = new Map(plan.cells.map((c, i) => [c, i]));
  return records.slice().sort((a, b) => cellIndex.get(a.cell)! - cellIndex.get(b.cell)! || a.seed - b.seed);
}

/**
 * One row per run: what it was (its source tree, the values drawn for its seed, what each fault
 * resolved to and when it fired, every effective parameter) and what it gave (verdict, first
 * oracle, metrics, trace hash).
 */
export function runsCsv(plan: SweepPlan, records: readonly SweepRunRecord[]): string {
  const runs = orderedRuns(plan, records);
  const params: string[] = [];
  for (const r of runs) for (const k of Object.keys(r.params ?? {})) if (!params.includes(k)) params.push(k);
  const faults = Math.max(0, ...runs.map((r) => r.faults?.length ?? 0));
  const faultCols = Array.from({ length: faults }, (_, i) =>
    ['kind', 'target', 'atS', 'forS'].map((f) => `faults[${i}].${f}`),
  ).flat();
  return csv([
    [
      'cell',
      'seed',
      'verdict',
      'oracle',
      ...plan.drawn.map((d) => `drawn:${d}`),
      ...faultCols,
      ...params.map((p) => `params.${p}`),
      ...plan.metrics,
      'traceHash',
      'commit',
      'uncommitted',
    ],
    ...runs.map((r) => [
      r.cell,
      r.seed,
      r.verdict,
      r.violation?.oracle ?? '',
      ...plan.drawn.map((d) => r.drawn?.[d]),
      ...Array.from({ length: faults }, (_, i) => {
        const f = r.faults?.[i];
        return [f?.kind, f?.target, f?.atS, f?.forS];
      }).flat(),
      ...params.map((p) => r.params?.[p]),
      ...plan.metrics.map((m) => r.metrics[m]),
      r.traceHash,
      r.source?.commit,
      r.source?.dirty,
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
      'mean_ci_mc_error',
      'median_ci_low',
      'median_ci_high',
      'median_ci_mc_error',
      'p95',
      'min',
      'max',
      'nonzero',
      'nonzero_ci_low',
      'nonzero_ci_high',
      'shape',
      'runs_needed',
      'small_n',
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
        x.meanCiMc,
        x.medianCi?.[0],
        x.medianCi?.[1],
        x.medianCiMc,
        x.p95,
        x.min,
        x.max,
        x.nonzero,
        x.nonzeroCi?.[0],
        x.nonzeroCi?.[1],
        x.shape,
        x.runsNeeded,
        x.smallN,
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
      'mean_diff_ci_mc_error',
      'diff_of_medians',
      'diff_of_medians_ci_low',
      'diff_of_medians_ci_high',
      'median_of_diffs',
      'median_of_diffs_ci_low',
      'median_of_diffs_ci_high',
      'effect_size',
      'effect_size_kind',
      'seeds_higher',
      'seeds_lower',
      'seeds_equal',
      'correlation',
      'p',
      'p_method',
      'p_holm',
      'clear',
      'seeds_for_80pct_power',
      'shape',
      'runs_needed',
      'small_n',
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
      c.meanDiffMc,
      c.medianDiff,
      c.medianDiffCi?.[0],
      c.medianDiffCi?.[1],
      c.medianOfDiffs,
      c.medianOfDiffsCi?.[0],
      c.medianOfDiffsCi?.[1],
      c.effectSize,
      c.effectSizeKind,
      c.higher,
      c.lower,
      c.equal,
      c.correlation,
      c.test?.p,
      c.test?.method,
      c.pHolm,
      c.clear,
      c.seedsFor80,
      c.shape,
      c.runsNeeded,
      c.smallN,
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

/** A p-value: three decimals, `< 0.001` below. */
export function fmtP(p: number | null | undefined): string {
  if (p === null || p === undefined) return '—';
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}

/** A share as a percentage with one decimal. */
export const pct = (v: number): string => `${(100 * v).toFixed(1)}%`;

const mdCell = (s: string) => s.replace(/\|/g, '\\|');

/** `1 seed`, `30 seeds`. */
export const counted = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** The mark of a cell or comparison with fewer runs than its interval needs. */
export const SMALL_N_MARK = '⚠';

/** What the small-n mark means, in one sentence. */
export function smallNNote(s: SweepSummary): string {
  return `${SMALL_N_MARK} small n: fewer runs than a 95% interval of this shape needs to cover the true mean at least ${Math.round(100 * s.method.coverageFloor)}% of the time (measured coverage: docs/SWEEPS.md, "How many runs").`;
}

const need = (n: number | null) => (n === null ? 'more than 100' : String(n));

/** A cell's mean with its interval and, when its runs are too few, the mark and what it needs. */
function meanText(x: SweepSummary['cells'][number]['stats'][string]): string {
  return `${fmt(x.mean)} ${fmtCi(x.meanCi)}${x.smallN && x.n > 0 ? ` ${SMALL_N_MARK} (${x.shape}: needs ${need(x.runsNeeded)})` : ''}`;
}

const nonzeroText = (x: SweepSummary['cells'][number]['stats'][string]) =>
  x.n ? `${x.nonzero} of ${x.n} [${pct(x.nonzeroCi![0])}, ${pct(x.nonzeroCi![1])}]` : '—';

const METRIC_HEAD = [
  'cell',
  'runs',
  'failed',
  'median',
  'mean [95% CI]',
  'p95',
  'min – max',
  'non-zero [95% CI of the share]',
];

function metricRows(s: SweepSummary, metric: string): string[][] {
  return s.cells.map((c) => {
    const x = c.stats[metric]!;
    return [
      c.label,
      String(c.runs),
      String(c.failed),
      fmt(x.median),
      meanText(x),
      fmt(x.p95),
      x.n ? `${fmt(x.min)} – ${fmt(x.max)}` : '—',
      nonzeroText(x),
    ];
  });
}

/** One metric's table across the cells, in Markdown. */
export function metricTableMarkdown(s: SweepSummary, metric: string): string {
  return [
    `| ${METRIC_HEAD.join(' | ')} |`,
    '| --- | ---: | ---: | ---: | --- | ---: | --- | --- |',
    ...metricRows(s, metric).map((r) => `| ${r.map(mdCell).join(' | ')} |`),
  ].join('\n');
}

/** "lower on 7, higher on 0, equal on 3". */
export function directionText(c: Comparison): string {
  if (c.higher === null) return '—';
  return `${c.higher} / ${c.lower} / ${c.equal}`;
}

/** What a comparison shows, in words: "clearly lower", "clearly higher", "not clear". */
export function verdictText(c: Comparison): string {
  if (!c.clear || c.meanDiff === null) return 'not clear';
  return c.meanDiff < 0 ? 'clearly lower' : 'clearly higher';
}

const effectText = (c: Comparison) => (c.effectSize === null ? '—' : `${c.effectSizeKind} ${fmt(c.effectSize)}`);

const COMPARISON_HEAD = [
  'metric',
  'A',
  'B',
  'B − A, mean [95% CI]',
  'effect size',
  'seeds B > A / B < A / =',
  'p',
  'Holm p',
  'call',
];

function comparisonRows(s: SweepSummary, metrics: readonly string[]): string[][] {
  return s.comparisons
    .filter((c) => metrics.includes(c.metric))
    .map((c) => [
      c.metric,
      c.a,
      c.b,
      `${fmt(c.meanDiff)} ${fmtCi(c.meanDiffCi)}${c.smallN && c.n > 0 ? ` ${SMALL_N_MARK}` : ''}`,
      effectText(c),
      c.paired ? directionText(c) : `unpaired, ${c.n}`,
      fmtP(c.test?.p),
      fmtP(c.pHolm),
      verdictText(c),
    ]);
}

const MEDIAN_HEAD = [
  'metric',
  'A',
  'B',
  'difference of medians [95% CI]',
  'median of per-seed differences [95% CI]',
  'correlation A, B',
  'seeds for 80% power',
];

function medianRows(s: SweepSummary, metrics: readonly string[]): string[][] {
  return s.comparisons
    .filter((c) => metrics.includes(c.metric))
    .map((c) => [
      c.metric,
      c.a,
      c.b,
      `${fmt(c.medianDiff)} ${fmtCi(c.medianDiffCi)}`,
      c.paired ? `${fmt(c.medianOfDiffs)} ${fmtCi(c.medianOfDiffsCi)}` : '— (unpaired)',
      c.correlation === null ? '—' : fmt(c.correlation),
      c.seedsFor80 === null ? '—' : String(c.seedsFor80),
    ]);
}

const mdTable = (head: string[], rows: string[][], align: string[]) =>
  [`| ${head.join(' | ')} |`, `| ${align.join(' | ')} |`, ...rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`)].join(
    '\n',
  );

/** The comparisons of some metrics, in Markdown: the means (with the test and the call), then the medians. */
export function comparisonsMarkdown(
  s: SweepSummary,
  metrics: readonly string[] = s.metrics.map((m) => m.name),
): string {
  return [
    mdTable(COMPARISON_HEAD, comparisonRows(s, metrics), [
      '---',
      '---',
      '---',
      '---',
      '---:',
      '---:',
      '---:',
      '---:',
      '---',
    ]),
    '',
    mdTable(MEDIAN_HEAD, medianRows(s, metrics), ['---', '---', '---', '---', '---', '---:', '---:']),
  ].join('\n');
}

/** How the tables were made, in a few lines (the same in summary.md, report.html and the studies page). */
export function methodLines(s: SweepSummary): string[] {
  const m = s.method;
  return [
    `statistics over the runs that passed: median, p95 (type 7), mean with its ${Math.round(m.level * 100)}% BCa bootstrap interval (${m.resamples} resamples, seed \`${s.bootstrap.seed}\`; Monte Carlo error of every interval end at most ${pct(m.mcErrorMax)} of its interval's width); the share of runs with a non-zero value with its Wilson interval`,
    `differences B − A paired by seed: the mean difference with its BCa interval, Cohen's d_z, the seeds that went up, down or stayed; the difference of the medians and the median of the per-seed differences, each with its interval`,
    `a difference is called clear when its ${m.test.split(':')[0]} gives a p-value below ${m.alpha} after ${m.correction}'s correction over the family: ${m.family} (${m.familySize} tests)`,
  ];
}

function headline(s: SweepSummary): string[] {
  const failed = s.cells.reduce((n, c) => n + c.failed, 0);
  const seeds =
    s.seeds.length > 1 && s.seeds.every((x, i) => i === 0 || x === s.seeds[i - 1]! + 1)
      ? `${s.seeds[0]}..${s.seeds.at(-1)}`
      : s.seeds.join(', ');
  return [
    `- runs: ${s.runs} of ${s.runsExpected} (${counted(s.cells.length, 'cell')} × ${counted(s.seeds.length, 'seed')})${s.complete ? '' : ' — **incomplete**'}, ${failed} failed`,
    `- seeds: ${seeds}${s.drawn.length ? `; drawn afresh for each seed, the same in every cell: ${s.drawn.map((d) => `\`${d}\``).join(', ')} (each run's values: runs.csv)` : ''}`,
    ...methodLines(s).map((l) => `- ${l}`),
    `- Lockstep ${s.version} at ${sourceText(s.source)}`,
  ];
}

/** The small-n list, for a page: one line per metric with the cells it flags. */
export function smallNMarkdown(s: SweepSummary): string[] {
  if (!s.smallSamples.length) return [];
  const byMetric = new Map<string, string[]>();
  for (const x of s.smallSamples) {
    const list = byMetric.get(x.metric) ?? [];
    list.push(`${x.cell} (${x.n} runs, ${x.shape}: needs ${need(x.runsNeeded)})`);
    byMetric.set(x.metric, list);
  }
  return [
    `**${SMALL_N_MARK} Small n.** ${counted(s.smallSamples.length, 'cell')} of ${s.cells.length * s.metrics.length} (cell × metric) have fewer runs than their interval of the mean needs for ${Math.round(100 * s.method.coverageFloor)}% coverage; read those intervals as too narrow:`,
    '',
    ...[...byMetric].map(([m, list]) => `- ${m}: ${list.join('; ')}`),
    '',
  ];
}

export function summaryMarkdown(s: SweepSummary): string {
  const out = [`# Sweep ${s.sweep}`, ''];
  if (s.description) out.push(s.description, '');
  out.push(...headline(s), '');
  out.push(...smallNMarkdown(s));
  for (const m of s.metrics)
    out.push(`## ${m.name} (${m.unit})`, '', m.definition, '', metricTableMarkdown(s, m.name), '');
  if (s.comparisons.length) out.push('## Comparisons (B − A)', '', comparisonsMarkdown(s), '');
  const failures = s.cells.flatMap((c) => c.failures.map((f) => ({ cell: c.label, ...f })));
  if (failures.length) {
    out.push('## Failed runs', '', '| cell | seed | verdict | first violation |', '| --- | ---: | --- | --- |');
    for (const f of failures) out.push(`| ${mdCell(f.cell)} | ${f.seed} | ${f.verdict} | ${mdCell(f.message)} |`);
    out.push('');
  }
  if (s.smallSamples.length || s.comparisons.some((c) => c.smallN)) out.push(smallNNote(s), '');
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

/** The grid's axes whose every value sits on a numeric scale (numbers, durations), with at least two values. */
export function numericAxes(s: SweepSummary): SweepSummary['axes'] {
  return s.axes.filter((a) => a.values.length >= 2 && a.values.every((v) => numericAxisValue(v) !== null));
}

/** The series of one metric against one axis: a line per combination of the other axes. */
export function axisSeries(s: SweepSummary, metric: string, axisPath: string): AxisSeries[] {
  const axis = s.axes.find((a) => a.path === axisPath)!;
  const others = s.axes.filter((a) => a.path !== axisPath);
  const series = new Map<string, AxisSeries>();
  for (const c of s.cells) {
    const values = s.cellAxes[c.label];
    if (!values) continue;
    const key = others
      .map((a) => `${a.name}=${typeof values[a.path] === 'string' ? values[a.path] : JSON.stringify(values[a.path])}`)
      .join(' ');
    const x = c.stats[metric]!;
    if (x.mean === null) continue;
    const v = values[axis.path];
    const line = series.get(key) ?? { label: key, points: [] };
    line.points.push({
      label: typeof v === 'string' ? v : JSON.stringify(v),
      x: numericAxisValue(v)!,
      mean: x.mean,
      ci: x.meanCi,
      n: x.n,
      smallN: x.smallN,
    });
    series.set(key, line);
  }
  return [...series.values()];
}

export function axisSvg(s: SweepSummary, metric: string, axisPath: string): string {
  const m = s.metrics.find((x) => x.name === metric)!;
  const axis = s.axes.find((a) => a.path === axisPath)!;
  return axisPlotSvg(`${m.name} (${m.unit}) against ${axis.name}`, m.unit, axis.name, axisSeries(s, metric, axisPath));
}

const table = (head: string[], rows: string[][], num: boolean[]): string =>
  `<div class="scroll"><table><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((v, i) => `<td${num[i] ? ' class="num"' : ''}>${esc(v)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table></div>`;

const stripSize = (svg: string) => svg.replace(/ width="\d+" height="\d+"/, '');

export function sweepHtml(s: SweepSummary, records: readonly SweepRunRecord[]): string {
  const axes = numericAxes(s);
  const sections = s.metrics.map((m) => {
    const againstAxes = axes
      .map((a) => `<figure class="chart">${stripSize(axisSvg(s, m.name, a.path))}</figure>`)
      .join('\n');
    return `<section id="m-${esc(m.name)}"><h2>${esc(m.name)} <small>(${esc(m.unit)})</small></h2><p>${esc(m.definition).replace(/`([^`]+)`/g, '<code>$1</code>')}</p>
<figure class="chart">${stripSize(metricSvg(s, records, m.name))}</figure>
${againstAxes}
${table(METRIC_HEAD, metricRows(s, m.name), [false, true, true, true, false, true, false, false])}</section>`;
  });
  const comparisons = s.comparisons.length
    ? `<section id="comparisons"><h2>Comparisons (B − A)</h2>${table(
        COMPARISON_HEAD,
        comparisonRows(
          s,
          s.metrics.map((m) => m.name),
        ),
        [false, false, false, false, true, true, true, true, false],
      )}<h3>Medians</h3>${table(
        MEDIAN_HEAD,
        medianRows(
          s,
          s.metrics.map((m) => m.name),
        ),
        [false, false, false, false, false, true, true],
      )}</section>`
    : '';
  const failures = s.cells.flatMap((c) => c.failures.map((f) => [c.label, String(f.seed), f.verdict, f.message]));
  const failed = failures.length
    ? `<section id="failures"><h2>Failed runs</h2>${table(['cell', 'seed', 'verdict', 'first violation'], failures, [false, true, false, false])}</section>`
    : '';
  const facts = headline(s)
    .map((l) => `<li>${esc(l.replace(/^- /, '').replace(/[`*]/g, ''))}</li>`)
    .join('');
  const small = smallNMarkdown(s)
    .filter((l) => l)
    .map((l) => `<li>${esc(l.replace(/^- /, '').replace(/\*\*/g, ''))}</li>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Sweep ${esc(s.sweep)}</title><style>${STYLE}</style></head>
<body><header class="top"><h1>Sweep ${esc(s.sweep)}</h1>${s.description ? `<p class="desc">${esc(s.description)}</p>` : ''}<ul>${facts}</ul>${small ? `<ul class="warn">${small}</ul>` : ''}
<nav>${s.metrics.map((m) => `<a href="#m-${esc(m.name)}">${esc(m.name)}</a>`).join('')}${s.comparisons.length ? '<a href="#comparisons">comparisons</a>' : ''}${failures.length ? '<a href="#failures">failed runs</a>' : ''}</nav></header>
<main><div class="charts">${sections.join('\n')}</div>${comparisons}${failed}</main>
<footer>Written by lockstep sweep. Box plots: box from the first to the third quartile with the median line, whiskers to the smallest and largest value, each dot one run, the diamond the mean with its BCa interval. Against an axis: the mean of each cell with its interval, a line per combination of the other axes; hollow points and dashed intervals have fewer runs than the interval needs. ${esc(smallNNote(s))}</footer>
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
