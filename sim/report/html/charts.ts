/**
 * Small SVG charts for report.html: series over virtual time (lines or stems) and a bar chart.
 * Each chart is a <figure> with a legend whose entries toggle their series (the page's script).
 */
import { esc, int, px, seconds, timeLabel, timeTicks, valueTicks } from './format';

export interface TimeSeries {
  key: string;
  name: string;
  color: string;
  /** [virtual ms, value], in time order. */
  points: Array<[number, number]>;
  /** 'area': the region between `floor` and `points` (a band), filled. */
  kind: 'line' | 'stem' | 'area';
  /** Horizontal offset in pixels (stems of several series at one time fan out instead of hiding each other). */
  dx?: number;
  /** For 'area': the lower edge, [virtual ms, value] in time order. */
  floor?: Array<[number, number]>;
  /** A stem's hover text (default: "name: value at time"). */
  stemTitle?: (point: [number, number], index: number) => string;
}

export interface Band {
  startMs: number;
  endMs: number;
  title: string;
}

const W = 540;
const H = 230;
const L = 46;
const R = 14;
const T = 12;
const B = 28;

function legend(series: Array<{ key: string; name: string; color: string }>): string {
  if (series.length < 2) return '';
  return `<div class="legend">${series
    .map(
      (s) =>
        `<button type="button" class="lg" data-toggle="${esc(s.key)}" title="show or hide ${esc(s.name)}"><i style="background:${s.color}"></i>${esc(s.name)}</button>`,
    )
    .join('')}</div>`;
}

function frame(title: string, note: string, svg: string, legendHtml: string, footer = ''): string {
  return `<figure class="chart"><figcaption>${esc(title)}${note ? ` <small>${esc(note)}</small>` : ''}</figcaption>${svg}${legendHtml}${footer}</figure>`;
}

export interface TimePanel {
  yName: string;
  series: TimeSeries[];
  integer?: boolean;
  /** Pixel height in the chart's own units (the width is 540). */
  height?: number;
  /** A caption above this panel (for a second panel). */
  caption?: string;
}

/** One SVG of series over time on an axis from 0 to `endMs`; fault periods shaded. */
function timeSvg(p: TimePanel, endMsIn: number, bands: Band[], label: string): string {
  const endMs = Math.max(1, endMsIn);
  const h = p.height ?? H;
  const yMaxData = p.series.reduce((m, s) => s.points.reduce((mm, pt) => Math.max(mm, pt[1]), m), 0);
  const yTicks = valueTicks(p.integer ? Math.max(1, yMaxData) : yMaxData);
  const yMax = yTicks[yTicks.length - 1]!;
  const X = (ms: number) => L + (Math.max(0, Math.min(endMs, ms)) / endMs) * (W - L - R);
  const Y = (v: number) => T + (1 - v / yMax) * (h - T - B);
  const out: string[] = [`<svg viewBox="0 0 ${W} ${h}" role="img" aria-label="${esc(label)}">`];
  for (const b of bands) {
    out.push(
      `<rect class="band" x="${px(X(b.startMs))}" y="${T}" width="${px(Math.max(1, X(b.endMs) - X(b.startMs)))}" height="${h - T - B}"><title>${esc(b.title)}</title></rect>`,
    );
  }
  for (const v of yTicks)
    out.push(
      `<line class="grid" x1="${L}" y1="${px(Y(v))}" x2="${W - R}" y2="${px(Y(v))}"/><text class="ytick" x="${L - 5}" y="${px(Y(v) + 3.5)}">${esc(String(v))}</text>`,
    );
  for (const t of timeTicks(endMs))
    out.push(
      `<line class="grid" x1="${px(X(t))}" y1="${T}" x2="${px(X(t))}" y2="${h - B}"/><text class="tick" x="${px(X(t))}" y="${h - B + 14}">${timeLabel(t)}</text>`,
    );
  out.push(
    `<line class="axis" x1="${L}" y1="${h - B}" x2="${W - R}" y2="${h - B}"/><line class="axis" x1="${L}" y1="${T}" x2="${L}" y2="${h - B}"/>`,
  );
  out.push(
    `<text class="yname" transform="translate(11 ${px(T + (h - T - B) / 2)}) rotate(-90)">${esc(p.yName)}</text>`,
  );
  if (p.series.every((s) => s.points.length === 0))
    out.push(
      `<text class="none" x="${px(L + (W - L - R) / 2)}" y="${px(T + (h - T - B) / 2)}" text-anchor="middle">nothing to plot</text>`,
    );
  for (const s of p.series) {
    const attrs = `data-series="${esc(s.key)}"`;
    if (s.kind === 'area') {
      if (s.points.length === 0) continue;
      const top = s.points.map((pt, i) => `${i ? 'L' : 'M'}${px(X(pt[0]))} ${px(Y(pt[1]))}`).join('');
      const bottom = [...(s.floor ?? [])]
        .reverse()
        .map((pt) => `L${px(X(pt[0]))} ${px(Y(pt[1]))}`)
        .join('');
      out.push(
        `<path class="area" ${attrs} d="${top}${bottom}Z" fill="${s.color}"><title>${esc(s.name)}</title></path>`,
      );
    } else if (s.kind === 'line') {
      if (s.points.length === 0) continue;
      const d = s.points.map((pt, i) => `${i ? 'L' : 'M'}${px(X(pt[0]))} ${px(Y(pt[1]))}`).join('');
      const last = s.points[s.points.length - 1]!;
      out.push(
        `<path class="series" ${attrs} d="${d}" stroke="${s.color}"><title>${esc(`${s.name}: ${int(last[1])} at ${seconds(last[0])}`)}</title></path>`,
      );
    } else {
      const dx = s.dx ?? 0;
      const stems = s.points
        .map((pt, i) => {
          const x = px(X(pt[0]) + dx);
          const title = s.stemTitle ? s.stemTitle(pt, i) : `${s.name}: ${pt[1]} at ${seconds(pt[0])}`;
          return `<line x1="${x}" y1="${px(Y(0))}" x2="${x}" y2="${px(Y(pt[1]))}"/><circle cx="${x}" cy="${px(Y(pt[1]))}" r="3"><title>${esc(title)}</title></circle>`;
        })
        .join('');
      out.push(`<g class="stems" ${attrs} stroke="${s.color}" fill="${s.color}">${stems}</g>`);
    }
  }
  out.push('</svg>');
  return out.join('');
}

/**
 * A strip per row (node) over time, shaded by a small non-negative integer (e.g. blocks behind):
 * white at 0, darker for more; runs of equal value are one rectangle.
 */
export interface HeatPanel {
  caption: string;
  /** Sample times, ms (the value holds until the next sample). */
  timeMs: number[];
  rows: Array<{ key: string; name: string; values: number[] }>;
  unit: (v: number) => string;
  /**
   * Many rows: thin rows, a name every few rows, one hover text and one link per row (the
   * detail is behind the link), and runs of equal shade rather than equal value.
   */
  compact?: {
    rowTitle: (row: { key: string; name: string; values: number[] }) => string;
    href: (row: { key: string; name: string; values: number[] }) => string;
  };
}

/** Values at or above this share the darkest shade. */
export const HEAT_LEVELS = 4;

/** The fill opacity of a heat cell of value v (> 0). */
export function heatOpacity(v: number): string {
  return (v <= 1 ? 0.16 : Math.min(0.95, 0.35 + 0.2 * (v - 1))).toFixed(2);
}

/** Row height and how often a row is named, for n rows: about 360 px in all, names at least 11 px apart. */
export function heatRows(n: number, compact: boolean): { rowH: number; labelEvery: number } {
  if (!compact) return { rowH: 12, labelEvery: 1 };
  const rowH = Math.max(2, Math.min(12, Math.floor(360 / Math.max(1, n))));
  const labelEvery = [1, 2, 5, 10, 20, 50, 100].find((k) => k * rowH >= 11) ?? 100;
  return { rowH, labelEvery };
}

function heatSvg(p: HeatPanel, endMsIn: number, bands: Band[]): string {
  const endMs = Math.max(1, endMsIn);
  const { rowH, labelEvery } = heatRows(p.rows.length, p.compact !== undefined);
  const h = T + p.rows.length * rowH + 20;
  const X = (ms: number) => L + (Math.max(0, Math.min(endMs, ms)) / endMs) * (W - L - R);
  const out: string[] = [`<svg viewBox="0 0 ${W} ${h}" role="img" aria-label="${esc(p.caption)}">`];
  for (const b of bands)
    out.push(
      `<rect class="band" x="${px(X(b.startMs))}" y="${T}" width="${px(Math.max(1, X(b.endMs) - X(b.startMs)))}" height="${p.rows.length * rowH}"><title>${esc(b.title)}</title></rect>`,
    );
  for (const t of timeTicks(endMs))
    out.push(
      `<line class="grid" x1="${px(X(t))}" y1="${T}" x2="${px(X(t))}" y2="${T + p.rows.length * rowH}"/><text class="tick" x="${px(X(t))}" y="${T + p.rows.length * rowH + 14}">${timeLabel(t)}</text>`,
    );
  p.rows.forEach((row, ri) => {
    const y = T + ri * rowH;
    const c = p.compact;
    const name =
      ri % labelEvery === 0
        ? `<text class="ytick" x="${L - 5}" y="${px(y + rowH / 2 + 3.5)}">${esc(row.name)}</text>`
        : '';
    if (c)
      out.push(
        `<a href="${esc(c.href(row))}" class="heat" data-node="${esc(row.key)}"><title>${esc(c.rowTitle(row))}</title>${name}<rect class="hit" x="${L}" y="${px(y)}" width="${W - L - R}" height="${rowH}"/>`,
      );
    else
      out.push(
        `<g class="heat" data-series="${esc(row.key)}">${name}<line class="grid" x1="${L}" y1="${px(y + rowH)}" x2="${W - R}" y2="${px(y + rowH)}"/>`,
      );
    if (c) {
      // Compact rows: runs of one shade, and one path per shade (a row is small however often it changes).
      const cells = new Map<number, string[]>();
      let i = 0;
      while (i < row.values.length) {
        const level = Math.min(row.values[i]!, HEAT_LEVELS);
        let j = i + 1;
        while (j < row.values.length && Math.min(row.values[j]!, HEAT_LEVELS) === level) j++;
        if (level > 0) {
          const x0 = X(p.timeMs[i] ?? 0);
          const w = Math.max(1, X(p.timeMs[j] ?? endMs) - x0);
          cells.set(level, [...(cells.get(level) ?? []), `M${px(x0)} ${px(y)}h${px(w)}v${rowH}h${px(-w)}z`]);
        }
        i = j;
      }
      for (const level of [...cells.keys()].sort((a, b) => a - b))
        out.push(`<path d="${cells.get(level)!.join('')}" fill-opacity="${heatOpacity(level)}"/>`);
    } else {
      // Full rows: a rectangle per run of one value, with its own hover text.
      let i = 0;
      while (i < row.values.length) {
        const v = row.values[i]!;
        let j = i + 1;
        while (j < row.values.length && row.values[j] === v) j++;
        if (v > 0) {
          const t0 = p.timeMs[i] ?? 0;
          const t1 = p.timeMs[j] ?? endMs;
          out.push(
            `<rect x="${px(X(t0))}" y="${px(y + 1)}" width="${px(Math.max(1, X(t1) - X(t0)))}" height="${rowH - 2}" fill-opacity="${heatOpacity(v)}"><title>${esc(`${row.name}: ${p.unit(v)} from ${seconds(t0)} to ${seconds(t1)}`)}</title></rect>`,
          );
        }
        i = j;
      }
    }
    out.push(c ? '</a>' : '</g>');
  });
  out.push('</svg>');
  return out.join('');
}

/** A figure of series over time (panels on one time axis; the legend toggles a series in all of them). */
export function timeChart(opts: {
  title: string;
  note?: string;
  endMs: number;
  bands: Band[];
  panels: Array<TimePanel | HeatPanel>;
  /** Markup below the legend (already escaped). */
  footer?: string;
}): string {
  const svgs = opts.panels.map((p) => {
    const cap = p.caption ? `<div class="subcap">${esc(p.caption)}</div>` : '';
    return (
      cap +
      ('rows' in p ? heatSvg(p, opts.endMs, opts.bands) : timeSvg(p, opts.endMs, opts.bands, p.caption ?? opts.title))
    );
  });
  const keys = new Map<string, { key: string; name: string; color: string }>();
  for (const p of opts.panels) if (!('rows' in p)) for (const s of p.series) if (!keys.has(s.key)) keys.set(s.key, s);
  return frame(opts.title, opts.note ?? '', svgs.join(''), legend([...keys.values()]), opts.footer);
}

/** One bar per category (values in seconds). */
export function barChart(opts: {
  title: string;
  note?: string;
  yName: string;
  bars: Array<{ label: string; value: number; title: string }>;
  color: string;
}): string {
  const yTicks = valueTicks(opts.bars.reduce((m, b) => Math.max(m, b.value), 0));
  const yMax = yTicks[yTicks.length - 1]!;
  const Y = (v: number) => T + (1 - v / yMax) * (H - T - B);
  const n = Math.max(1, opts.bars.length);
  const slot = (W - L - R) / n;
  const bw = Math.min(44, slot * 0.7);
  const out: string[] = [`<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(opts.title)}">`];
  for (const v of yTicks)
    out.push(
      `<line class="grid" x1="${L}" y1="${px(Y(v))}" x2="${W - R}" y2="${px(Y(v))}"/><text class="ytick" x="${L - 5}" y="${px(Y(v) + 3.5)}">${esc(String(v))}</text>`,
    );
  out.push(
    `<line class="axis" x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}"/><line class="axis" x1="${L}" y1="${T}" x2="${L}" y2="${H - B}"/>`,
  );
  out.push(
    `<text class="yname" transform="translate(11 ${px(T + (H - T - B) / 2)}) rotate(-90)">${esc(opts.yName)}</text>`,
  );
  if (opts.bars.length === 0)
    out.push(
      `<text class="none" x="${px(L + (W - L - R) / 2)}" y="${px(T + (H - T - B) / 2)}" text-anchor="middle">nothing to plot</text>`,
    );
  const labelEvery = Math.max(1, Math.ceil(opts.bars.length / 24));
  opts.bars.forEach((b, i) => {
    const cx = L + slot * (i + 0.5);
    const y = Y(b.value);
    out.push(
      `<g class="bar"><title>${esc(b.title)}</title><rect x="${px(cx - bw / 2)}" y="${px(y)}" width="${px(bw)}" height="${px(Math.max(0.5, Y(0) - y))}" fill="${opts.color}"/>` +
        (bw >= 18 ? `<text class="val" x="${px(cx)}" y="${px(y - 4)}">${esc(b.value.toFixed(0))}</text>` : '') +
        (i % labelEvery === 0 ? `<text class="tick" x="${px(cx)}" y="${H - B + 14}">${esc(b.label)}</text>` : '') +
        '</g>',
    );
  });
  out.push('</svg>');
  return frame(opts.title, opts.note ?? '', out.join(''), '');
}
