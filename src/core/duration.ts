/**
 * Durations as people write them (`90s`, `10m`, `2h`, `1h30m`, `500ms`) to integer milliseconds,
 * and back. A duration needs a unit: a bare number (`240` or `"240"`) is rejected, because it is
 * ambiguous (a run of `"duration": 240` used to last 0.24 s); the error says how it would have
 * been read. Zero needs no unit. Errors name the field.
 */
import { InputError } from './errors';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

function bareNumber(field: string, text: string): InputError {
  return new InputError(
    field,
    `a bare number is ambiguous; ${text} would be read as ${text} ms; write "${text}s" or "${text}ms"`,
  );
}

export function parseDurationMs(value: unknown, field = 'duration'): number {
  if (typeof value === 'number') {
    if (value === 0) return 0;
    if (!Number.isSafeInteger(value) || value < 0)
      throw new InputError(field, `expected a duration such as 90s, 10m or 2h, got ${value}`);
    throw bareNumber(field, String(value));
  }
  if (typeof value !== 'string' || value.length === 0)
    throw new InputError(field, `expected a duration such as 90s, 10m or 2h, got ${JSON.stringify(value)}`);
  if (/^\d+$/.test(value)) {
    if (Number(value) === 0) return 0;
    throw bareNumber(field, value);
  }
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

/**
 * A duration as a scenario file writes it, exact and with units: whole seconds as hours, minutes
 * and seconds (`2h`, `4m`, `2m35s`, `20s`), anything else in milliseconds (`1500ms`, `20ms`).
 * `parseDurationMs(durationText(ms)) === ms` for every non-negative safe integer.
 */
export function durationText(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`not a duration: ${ms}`);
  if (ms === 0) return '0s';
  if (ms % 1000 !== 0) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`;
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
