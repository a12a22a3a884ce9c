/**
 * The coverage of the sweeps' 95% interval of a mean, on synthetic data with a known answer
 * (coverage.ts: normal, skewed, heavy-tailed and mostly-zero populations, the last one named
 * mostly-one-value as the shape it stands for), at 6, 10 and 30 runs:
 * measured here on a slice (500 samples each, 1,000 resamples, a fixed seed) and checked against
 * the documented table, which `npm run calibrate` measured on 4,000 samples each and wrote to
 * coverageTable.json and docs/SWEEPS.md. And the small-n warning fires where coverage falls below
 * 90%.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../cli/provenance';
import { POPULATIONS, measureCoverage } from './coverage';
import COVERAGE_CALIBRATION from './coverageTable.json';
import { COVERAGE_FLOOR, type Shape, coverageMarkdown, runsNeeded, sampleShape, smallSample } from './shape';

const SLICE = { trials: 500, resamples: 1000, seed: 'coverage-test' };
const documented = (pop: string, n: number) =>
  COVERAGE_CALIBRATION.rows.find((r) => r.population === pop && r.n === n)!;

describe('coverage of the 95% interval of a mean', () => {
  for (const pop of POPULATIONS)
    for (const n of [6, 10, 30])
      it(`${pop.name}, ${n} runs: as documented, within the two measurements' error`, () => {
        const got = measureCoverage(pop, n, SLICE);
        const want = documented(pop.name, n);
        // Four standard errors of the difference of two independent binomial shares.
        const p = want.coverage;
        const se = Math.sqrt((p * (1 - p)) / SLICE.trials + (p * (1 - p)) / want.trials);
        expect(Math.abs(got.coverage - p), `measured ${got.coverage}, documented ${p}`).toBeLessThanOrEqual(4 * se);
        // And it is the BCa interval's, not a nominal 95%: at 6 runs every population falls short.
        if (n === 6) expect(got.coverage).toBeLessThan(0.9);
      });

  it('docs/SWEEPS.md holds the table the calibration wrote', () => {
    const doc = readFileSync(join(PACKAGE_ROOT, 'docs', 'SWEEPS.md'), 'utf8');
    expect(doc).toContain(coverageMarkdown());
    expect(COVERAGE_CALIBRATION).toMatchObject({ level: 0.95, method: 'BCa', statistic: 'mean' });
    expect(COVERAGE_CALIBRATION.rows).toHaveLength(POPULATIONS.length * 7);
  });

  it('a shape needs as many runs as its coverage says: below 90% is small n, from the runs needed on it is not', () => {
    for (const row of COVERAGE_CALIBRATION.rows) {
      const shape = row.population as Shape;
      if (row.coverage < COVERAGE_FLOOR) expect(smallSample(shape, row.n), `${shape} n=${row.n}`).toBe(true);
      const need = runsNeeded(shape);
      if (need !== null && row.n >= need) expect(row.coverage).toBeGreaterThanOrEqual(COVERAGE_FLOOR);
    }
  });

  it('the warning fires on nine samples in ten or more wherever the documented coverage is below 90%', () => {
    // The shape is read from the sample: the warning must not miss a population's small samples.
    const random = seedrandom.alea('shape-test');
    const r = () => random.double();
    for (const pop of POPULATIONS)
      for (const n of [6, 10, 30]) {
        if (documented(pop.name, n).coverage >= COVERAGE_FLOOR) continue;
        let fired = 0;
        for (let t = 0; t < 400; t++) {
          const sample = Array.from({ length: n }, () => pop.draw(r));
          if (smallSample(sampleShape(sample), n)) fired++;
        }
        expect(fired / 400, `${pop.name} n=${n}`).toBeGreaterThanOrEqual(0.9);
      }
  });

  it('reads a sample as mostly zero when half its values are one value, else by its skewness', () => {
    expect(sampleShape([0, 0, 0, 5, 7, 0])).toBe('mostly-one-value');
    expect(sampleShape([6, 6, 6, 6])).toBe('mostly-one-value');
    expect(sampleShape([1, 2, 3, 4, 5, 6, 7, 8])).toBe('normal');
    expect(sampleShape([1, 1.5, 2, 2.5, 3, 3.5, 4, 30])).toBe('heavy-tailed');
  });
});
