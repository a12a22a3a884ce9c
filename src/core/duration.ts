/**
 * Durations as people write them (`90s`, `10m`, `2h`, `1h30m`, `500ms`, or plain milliseconds)
 * to integer milliseconds, and back. Errors name the field.
 */
import { InputError } from './errors';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDurationMs(value: unknown, field = 'duration'): number {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new InputError(field, `expected a non-negative integer of milliseconds, got ${value}`);
    return value;
  }
  if (typeof value !== 'string' || value.length === 0)
    throw new InputError(field, `expected a duration such as 90s, 10m or 2h, got ${JSON.stringify(value)}`);
  if (/^\d+$/.test(value)) return Number(value);
  const re = /(\d+)(ms|s|m|h|d)/g;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(value); m !== null; m = re.exec(value)) {
    if (m.index !== consumed) break;
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
    consumed = re.lastIndex;
  }
  if (consumed !== value.length || consumed === 0) {
    throw new InputError(field, `expected a duration such as 90s, 10m, 2h or 1h30m, got ${JSON.stringify(value)}`);
  }
  if (!Number.isSafeInteger(total)) throw new InputError(field, `duration too large: ${value}`);
  return total;
}

/** Go-style duration text (`16m40s`, `2h0m0s` is written `2h`), as the CLI prints params. */
export function formatDurationMs(ms: number): string {
  if (ms === 0) return '0s';
  const parts: string[] = [];
  let rest = ms;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = rest / 1000;
  if (h) parts.push(`${h}h`);
  if (m || (h && s)) parts.push(`${m}m`);
  if (s) parts.push(`${s}s`);
  return parts.join('');
}
