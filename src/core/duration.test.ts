import { describe, expect, it } from 'vitest';
import { formatDurationMs, parseDurationMs } from './duration';

describe('durations', () => {
  it('parses the usual forms', () => {
    expect(parseDurationMs('500ms')).toBe(500);
    expect(parseDurationMs('90s')).toBe(90_000);
    expect(parseDurationMs('10m')).toBe(600_000);
    expect(parseDurationMs('1h30m')).toBe(5_400_000);
    expect(parseDurationMs('1200')).toBe(1200);
    expect(parseDurationMs(0)).toBe(0);
  });
  it('names the field on bad input', () => {
    for (const bad of ['', '10x', 'm10', '1.5h', '-1s', '10m junk']) expect(() => parseDurationMs(bad, 'until')).toThrow(/^until: /);
    expect(() => parseDurationMs(-1, 'until')).toThrow(/until/);
  });
  it('formats like Go durations', () => {
    expect(formatDurationMs(1_000_000)).toBe('16m40s');
    expect(formatDurationMs(3_600_000)).toBe('1h');
    expect(formatDurationMs(3_601_000)).toBe('1h0m1s');
    expect(formatDurationMs(32_000)).toBe('32s');
  });
});
