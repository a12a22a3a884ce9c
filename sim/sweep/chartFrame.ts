/**
 * What every chart of a sweep's pages draws first: the SVG element on a white ground, the title,
 * the value axis with its ticks and grid lines, the two axes and the unit. A chart passes its
 * geometry (the margins it needs for its labels and legend) and its highest value; it gets the
 * opening lines and the scale of values to pixels, and draws its marks after them.
 */
import { esc, px, valueTicks } from '../report/html/format';

/** A chart's size and margins, in pixels. */
export interface ChartBox {
  W: number;
  H: number;
  L: number;
  R: number;
  T: number;
  B: number;
}

export const INK = '#1f2328';
export const MUTED = '#656d76';

/** A number for a tick or a title: at most three decimals, no trailing zeros. */
export function shortNumber(v: number): string {
  return String(Math.round(v * 1000) / 1000);
}

export function chartFrame(
  title: string,
  unit: string,
  maxValue: number,
  box: ChartBox,
): { lines: string[]; Y: (v: number) => number } {
  const { W, H, L, R, T, B } = box;
  const ticks = valueTicks(maxValue > 0 ? maxValue : 1);
  const yMax = ticks[ticks.length - 1]!;
  const Y = (v: number) => T + (1 - v / yMax) * (H - T - B);
  const lines = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(title)}" font-family="system-ui, -apple-system, 'Segoe UI', 'DejaVu Sans', sans-serif">`,
    `<rect x="0" y="0" width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${L}" y="18" font-size="13" font-weight="600" fill="${INK}">${esc(title)}</text>`,
  ];
  for (const v of ticks)
    lines.push(
      `<line x1="${L}" y1="${px(Y(v))}" x2="${W - R}" y2="${px(Y(v))}" stroke="#eaeef2"/><text x="${L - 6}" y="${px(Y(v) + 3.5)}" font-size="10" fill="${MUTED}" text-anchor="end">${esc(shortNumber(v))}</text>`,
    );
  lines.push(
    `<line x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}" stroke="#8c959f"/><line x1="${L}" y1="${T}" x2="${L}" y2="${H - B}" stroke="#8c959f"/>`,
    `<text transform="translate(14 ${px(T + (H - T - B) / 2)}) rotate(-90)" font-size="11" fill="${MUTED}" text-anchor="middle">${esc(unit)}</text>`,
  );
  return { lines, Y };
}
