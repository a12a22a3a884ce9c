/**
 * A box-and-strip plot of one metric across a sweep's cells, as a standalone SVG (styled inline,
 * so the same picture goes into report.html and, as a file, into a Markdown page): per cell a box
 * from the first to the third quartile with the median, whiskers to the smallest and largest
 * value, every run as a dot (spread sideways by its seed, the same way every time), and the mean
 * with its confidence interval beside the box. A pure function of its input.
 */
import { quantileSorted } from 'simple-statistics';
import { esc, px } from '../report/html/format';
import { type ChartBox, INK, MUTED, chartFrame, shortNumber } from './chartFrame';
import { type SampleSummary } from '../stats/describe';

export interface PlotCell {
  label: string;
  /** The passing runs' values, by seed. */
  values: Array<{ seed: number; value: number }>;
  summary: SampleSummary;
}

const BOX_GEOMETRY: ChartBox = { W: 640, H: 300, L: 56, R: 16, T: 30, B: 56 };
const { W, H, L, R, B } = BOX_GEOMETRY;
const BOX = '#4e79a7';
const MEAN = '#e15759';

/** A deterministic offset in [-1, 1] for a seed's dot. */
function jitter(seed: number): number {
  let h = (seed * 2654435761) >>> 0;
  h ^= h >>> 15;
  return ((h % 2001) - 1000) / 1000;
}

export function boxStripSvg(title: string, unit: string, cells: readonly PlotCell[]): string {
  const all = cells.flatMap((c) => c.values.map((v) => v.value));
  const hiCi = cells.map((c) => c.summary.meanCi?.[1] ?? 0);
  const maxValue = Math.max(0, ...all, ...hiCi);
  const { lines: out, Y } = chartFrame(title, unit, maxValue, BOX_GEOMETRY);
  const slot = (W - L - R) / Math.max(1, cells.length);
  cells.forEach((c, i) => {
    const cx = L + slot * (i + 0.5);
    const half = Math.min(26, slot * 0.22);
    const words = c.label.split(' ');
    words.forEach((w, k) => {
      out.push(
        `<text x="${px(cx)}" y="${H - B + 15 + k * 12}" font-size="10.5" fill="${INK}" text-anchor="middle">${esc(w)}</text>`,
      );
    });
    out.push(
      `<text x="${px(cx)}" y="${H - B + 15 + words.length * 12}" font-size="9.5" fill="${MUTED}" text-anchor="middle">n=${c.values.length}</text>`,
    );
    if (c.values.length === 0) return;
    const sorted = c.values.map((v) => v.value).sort((a, b) => a - b);
    const q1 = quantileSorted(sorted, 0.25);
    const q3 = quantileSorted(sorted, 0.75);
    const med = c.summary.median!;
    const bx = cx - half - 8;
    out.push(
      `<g><title>${esc(`${c.label}: median ${shortNumber(med)}, quartiles ${shortNumber(q1)}–${shortNumber(q3)}, range ${shortNumber(sorted[0]!)}–${shortNumber(sorted.at(-1)!)}`)}</title>`,
      `<line x1="${px(bx)}" y1="${px(Y(sorted[0]!))}" x2="${px(bx)}" y2="${px(Y(q1))}" stroke="${BOX}"/>`,
      `<line x1="${px(bx)}" y1="${px(Y(q3))}" x2="${px(bx)}" y2="${px(Y(sorted.at(-1)!))}" stroke="${BOX}"/>`,
      `<rect x="${px(bx - half / 2)}" y="${px(Y(q3))}" width="${px(half)}" height="${px(Math.max(1, Y(q1) - Y(q3)))}" fill="${BOX}" fill-opacity="0.18" stroke="${BOX}"/>`,
      `<line x1="${px(bx - half / 2)}" y1="${px(Y(med))}" x2="${px(bx + half / 2)}" y2="${px(Y(med))}" stroke="${BOX}" stroke-width="2.5"/>`,
      '</g>',
    );
    for (const v of c.values)
      out.push(
        `<circle cx="${px(cx + 6 + jitter(v.seed) * half * 0.45)}" cy="${px(Y(v.value))}" r="2.6" fill="${INK}" fill-opacity="0.45"><title>${esc(`${c.label}, seed ${v.seed}: ${shortNumber(v.value)}`)}</title></circle>`,
      );
    const mean = c.summary.mean!;
    const mx = cx + half + 10;
    const ci = c.summary.meanCi;
    if (ci)
      out.push(
        `<line x1="${px(mx)}" y1="${px(Y(ci[0]))}" x2="${px(mx)}" y2="${px(Y(ci[1]))}" stroke="${MEAN}" stroke-width="2"/><line x1="${px(mx - 4)}" y1="${px(Y(ci[0]))}" x2="${px(mx + 4)}" y2="${px(Y(ci[0]))}" stroke="${MEAN}"/><line x1="${px(mx - 4)}" y1="${px(Y(ci[1]))}" x2="${px(mx + 4)}" y2="${px(Y(ci[1]))}" stroke="${MEAN}"/>`,
      );
    out.push(
      `<path d="M${px(mx)} ${px(Y(mean) - 5)}L${px(mx + 5)} ${px(Y(mean))}L${px(mx)} ${px(Y(mean) + 5)}L${px(mx - 5)} ${px(Y(mean))}Z" fill="${MEAN}"><title>${esc(`${c.label}: mean ${shortNumber(mean)}${ci ? `, 95% interval ${shortNumber(ci[0])}–${shortNumber(ci[1])}` : ''}`)}</title></path>`,
    );
  });
  out.push(
    `<text x="${W - R}" y="18" font-size="10" fill="${MUTED}" text-anchor="end">box: quartiles and median · dots: runs · <tspan fill="${MEAN}">◆ mean and 95% interval</tspan></text>`,
    '</svg>',
  );
  return `${out.join('\n')}\n`;
}
