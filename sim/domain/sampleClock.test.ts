import { describe, expect, it } from 'vitest';
import { SampleClock } from './sampleClock';

/** Every sample time a run of windows ending at `ends` takes. */
function samplesOver(clock: SampleClock, ends: number[]): number[] {
  const out: number[] = [];
  let ranTo = -1;
  for (const end of ends) {
    for (let t = clock.dueIn(ranTo, end); t !== null; t = clock.dueIn(ranTo, end)) {
      out.push(t);
      clock.advance();
    }
    ranTo = end;
  }
  return out;
}

describe('SampleClock', () => {
  it('samples every interval and once at the end of the run, whatever the windows', () => {
    expect(samplesOver(new SampleClock(10_000, 3_000), [10_000])).toEqual([3_000, 6_000, 9_000, 10_000]);
    expect(samplesOver(new SampleClock(10_000, 3_000), [1_000, 2_999, 3_000, 7_500, 12_000])).toEqual([
      3_000, 6_000, 9_000, 10_000,
    ]);
  });

  it('never samples past the end, nor twice at it', () => {
    const c = new SampleClock(6_000, 3_000);
    expect(samplesOver(c, [6_000, 20_000])).toEqual([3_000, 6_000]);
    expect(c.dueIn(20_000, 1e9)).toBeNull();
  });

  it('a run shorter than the interval samples only at its end', () => {
    expect(samplesOver(new SampleClock(500, 1_000), [400, 500, 900])).toEqual([500]);
  });
});
