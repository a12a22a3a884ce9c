/**
 * Text and number formatting for report.html: HTML escaping, SVG coordinates and times. Everything
 * here is a pure function of its input (no locale, no clock), so the page is byte-identical for
 * the same run.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escape text for HTML/SVG content and attribute values. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** An SVG coordinate: at most one decimal, no "-0". */
export function px(x: number): string {
  const r = Math.round(x * 10) / 10;
  return r === 0 ? '0' : String(r);
}

/** Virtual ms as seconds with one decimal: "102.3 s". */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** An axis label for virtual ms: "45s", "4m", "4m30s". */
export function timeLabel(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  const rest = s % 60;
  return rest === 0 ? `${m}m` : `${m}m${String(rest).padStart(2, '0')}s`;
}

/** A shortened hash or address: "0x1234ab…". */
export function short(hex: string, digits = 6): string {
  return hex.length > digits + 2 ? `${hex.slice(0, digits + 2)}…` : hex;
}

/** An integer with thin grouping ("1 234 567"), locale-independent. */
export function int(n: number | bigint): string {
  const s = String(n);
  const neg = s.startsWith('-');
  const digits = neg ? s.slice(1) : s;
  const groups: string[] = [];
  for (let end = digits.length; end > 0; end -= 3) groups.unshift(digits.slice(Math.max(0, end - 3), end));
  return (neg ? '-' : '') + groups.join('\u202f');
}

/** Tick values for a time axis from 0 to `maxMs`: at most about ten, on round steps. */
export function timeTicks(maxMs: number): number[] {
  const stepsS = [1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 900, 1200, 1800, 3600, 7200, 14400, 28800, 86400];
  let step = stepsS[stepsS.length - 1]! * 1000;
  for (const s of stepsS) {
    if (maxMs / (s * 1000) <= 10) {
      step = s * 1000;
      break;
    }
  }
  const out: number[] = [];
  for (let t = 0; t <= maxMs; t += step) out.push(t);
  return out;
}

/** Tick values for a value axis from 0 to at least `max`: about five, on 1-2-5 steps; the last tick covers max. */
export function valueTicks(max: number): number[] {
  if (!(max > 0)) return [0, 1];
  let step = 1;
  for (let mag = 1; ; mag *= 10) {
    const found = [1, 2, 5].map((m) => m * mag).find((s) => max / s <= 5);
    if (found !== undefined) {
      step = found;
      break;
    }
    if (mag > 1e15) break;
  }
  if (max <= 1) step = max <= 0.5 ? 0.1 : 0.2;
  const out: number[] = [];
  for (let v = 0; v < max + step - 1e-9; v += step) out.push(Math.round(v * 1000) / 1000);
  return out;
}
