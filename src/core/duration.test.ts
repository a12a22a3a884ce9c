import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { durationText, formatDurationMs, parseDurationMs } from './duration';

describe('durations', () => {
  it('parses the usual forms', () => {
    expect(parseDurationMs('500ms')).toBe(500);
    expect(parseDurationMs('90s')).toBe(90_000);
    expect(parseDurationMs('10m')).toBe(600_000);
    expect(parseDurationMs('1h30m')).toBe(5_400_000);
    expect(parseDurationMs('1s500ms')).toBe(1500);
    expect(parseDurationMs(0)).toBe(0);
    expect(parseDurationMs('0')).toBe(0);
  });
  it('rejects a bare number and says how it would have been read', () => {
    expect(() => parseDurationMs(240, 'duration')).toThrow(
      'duration: a bare number is ambiguous; 240 would be read as 240 ms; write "240s" or "240ms"',
    );
    expect(() => parseDurationMs('1200', 'faults[3].at')).toThrow(
      'faults[3].at: a bare number is ambiguous; 1200 would be read as 1200 ms; write "1200s" or "1200ms"',
    );
    expect(() => parseDurationMs(1.5, 'for')).toThrow(/^for: expected a duration/);
  });
  it('durationText writes units and reads back to the same milliseconds', () => {
    expect(durationText(0)).toBe('0s');
    expect(durationText(20)).toBe('20ms');
    expect(durationText(1500)).toBe('1500ms');
    expect(durationText(240_000)).toBe('4m');
    expect(durationText(155_000)).toBe('2m35s');
    expect(durationText(7_200_000)).toBe('2h');
    expect(durationText(3_601_000)).toBe('1h1s');
    fc.assert(
      fc.property(fc.nat({ max: Number.MAX_SAFE_INTEGER }), (ms) => {
        expect(parseDurationMs(durationText(ms))).toBe(ms);
      }),
    );
  });
  it('names the field on bad input', () => {
    for (const bad of ['', '10x', 'm10', '1.5h', '-1s', '10m junk'])
      expect(() => parseDurationMs(bad, 'until')).toThrow(/^until: /);
    expect(() => parseDurationMs(-1, 'until')).toThrow(/until/);
  });
  it('formats like Go durations', () => {
    expect(formatDurationMs(1_000_000)).toBe('16m40s');
    expect(formatDurationMs(3_600_000)).toBe('1h');
    expect(formatDurationMs(3_601_000)).toBe('1h0m1s');
    expect(formatDurationMs(32_000)).toBe('32s');
  });
});

import { rfc3339FromUnixSeconds } from './time';

describe('RFC 3339 from unix seconds', () => {
  it('matches the calendar', () => {
    expect(rfc3339FromUnixSeconds(0)).toBe('1970-01-01T00:00:00Z');
    expect(rfc3339FromUnixSeconds(1_600_000_000)).toBe('2020-09-13T12:26:40Z');
    expect(rfc3339FromUnixSeconds(951_782_400)).toBe('2000-02-29T00:00:00Z');
    expect(rfc3339FromUnixSeconds(4_102_444_799)).toBe('2099-12-31T23:59:59Z');
    expect(rfc3339FromUnixSeconds(-1)).toBe('1969-12-31T23:59:59Z');
  });
});
