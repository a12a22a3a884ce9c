/**
 * A metric against a numeric axis of a sweep's grid (sprint length, buffer time, confirmations):
 * the mean of each cell with its 95% interval, placed at the axis value on a linear scale, one line
 * per combination of the other axes' values. Standalone SVG like plot.ts (report.html inlines it;
 * the studies page links it as a file). A pure function of its input.
 *
 * An axis is numeric when every value is a number or a duration ("2m", "90s": plotted in seconds);
 * `numericAxisValue` says which.
 */
import { parseDurationMs } from '../../src/core/duration';
import { esc, px } from '../report/html/format';
import { type Interval } from '../stats/bootstrap';
import { type ChartBox, INK, MUTED, chartFrame, shortNumber } from './chartFrame';

export interface AxisPoint {
  /** The axis value as the grid wrote it, and its position on the scale. */
  label: string;
  x: number;
  mean: number;
  ci: Interval | null;
  n: number;
  smallN: boolean;
}

export interface AxisSeries {
  /** The other axes' values (`parentConfirmations=6`), or '' when the grid has one axis. */
  label: string;
  points: AxisPoint[];
}

/** The position of a grid value on a numeric scale: a number, or a duration in seconds; null otherwise. */
export function numericAxisValue(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v !== 'string') return null;
  try {
    return parseDurationMs(v, 'axis') / 1000;
  } catch {
    return null;
  }
}

const AXIS_GEOMETRY: ChartBox = { W: 640, H: 300, L: 56, R: 150, T: 30, B: 48 };
const { W, H, L, R, T, B } = AXIS_GEOMETRY;
const COLORS = ['#4e79a7', '#e15759', '#59a14f', '#f28e2b', '#b07aa1', '#76b7b2', '#edc948', '#9c755f'];

export function axisPlotSvg(title: string, unit: string, axisName: string, series: readonly AxisSeries[]): string {
  const points = series.flatMap((s) => s.points);
  const xs = points.map((p) => p.x);
  const xMin = Math.min(...xs);
  const xMax = Math.max(...xs);
  const maxValue = Math.max(0, ...points.map((p) => p.ci?.[1] ?? p.mean), ...points.map((p) => p.mean));
  const { lines: out, Y } = chartFrame(title, unit, maxValue, AXIS_GEOMETRY);
  const X = (x: number) => (xMax === xMin ? (L + W - R) / 2 : L + 16 + ((x - xMin) / (xMax - xMin)) * (W - L - R - 32));
  out.push(
    `<text x="${px((L + W - R) / 2)}" y="${H - 10}" font-size="11" fill="${MUTED}" text-anchor="middle">${esc(axisName)}</text>`,
  );
  const seen = new Set<string>();
  for (const p of points) {
    if (seen.has(p.label)) continue;
    seen.add(p.label);
    out.push(
      `<text x="${px(X(p.x))}" y="${H - B + 15}" font-size="10.5" fill="${INK}" text-anchor="middle">${esc(p.label)}</text>`,
    );
  }
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length]!;
    const sorted = s.points.slice().sort((a, b) => a.x - b.x);
    // Series side by side, a few pixels apart, so their intervals do not hide each other.
    const dx = (i - (series.length - 1) / 2) * 5;
    out.push(
      `<path d="${sorted.map((p, k) => `${k ? 'L' : 'M'}${px(X(p.x) + dx)} ${px(Y(p.mean))}`).join('')}" fill="none" stroke="${color}" stroke-width="1.5"/>`,
    );
    for (const p of sorted) {
      const cx = X(p.x) + dx;
      if (p.ci)
        out.push(
          `<line x1="${px(cx)}" y1="${px(Y(p.ci[0]))}" x2="${px(cx)}" y2="${px(Y(p.ci[1]))}" stroke="${color}" stroke-width="1.5"${p.smallN ? ' stroke-dasharray="3 2"' : ''}/>`,
        );
      out.push(
        `<circle cx="${px(cx)}" cy="${px(Y(p.mean))}" r="3.2" fill="${p.smallN ? '#ffffff' : color}" stroke="${color}" stroke-width="1.5"><title>${esc(`${s.label ? `${s.label}, ` : ''}${axisName}=${p.label}: mean ${shortNumber(p.mean)}${p.ci ? `, 95% interval ${shortNumber(p.ci[0])}–${shortNumber(p.ci[1])}` : ''}, ${p.n} runs${p.smallN ? ' (fewer than the interval needs)' : ''}`)}</title></circle>`,
      );
    }
    if (s.label)
      out.push(
        `<line x1="${W - R + 12}" y1="${T + 8 + i * 16}" x2="${W - R + 28}" y2="${T + 8 + i * 16}" stroke="${color}" stroke-width="2"/><text x="${W - R + 32}" y="${T + 12 + i * 16}" font-size="10.5" fill="${INK}">${esc(s.label)}</text>`,
      );
  });
  out.push(
    `<text x="${W - R}" y="18" font-size="10" fill="${MUTED}" text-anchor="end">mean and 95% interval; hollow, dashed: small n</text>`,
    '</svg>',
  );
  return `${out.join('\n')}\n`;
}
