/**
 * How often the tool's 95% interval of a mean covers the true mean, measured on synthetic
 * populations whose mean is known: draw `trials` samples of n values, compute each sample's
 * interval exactly as a sweep does (BCa, seeded), count the intervals that hold the true mean.
 * The same procedure covers a paired difference (the mean of the per-seed differences is a
 * one-sample mean). scripts/calibrateCoverage.ts runs it large and writes coverageTable.json and
 * the table in docs/SWEEPS.md; stats.coverage.test.ts runs a slice of it and checks the table.
 */
import seedrandom from 'seedrandom';
import { mean } from 'simple-statistics';
import { bcaInterval } from './bootstrap';
import { normalQuantile } from './normal';
import { type Interval } from './bootstrap';
import { wilsonInterval } from './proportion';

export interface Population {
  name: string;
  /** What it is, for the documented table. */
  description: string;
  /** The true mean the intervals should cover. */
  mean: number;
  draw: (random: () => number) => number;
}

const standardNormal = (random: () => number) => normalQuantile(Math.min(1 - 1e-16, Math.max(1e-16, random())));

/** The populations of the calibration: a symmetric one, two skewed ones and one of mostly zeros. */
export const POPULATIONS: readonly Population[] = [
  {
    name: 'normal',
    description: 'normal, mean 10, sd 3',
    mean: 10,
    draw: (r) => 10 + 3 * standardNormal(r),
  },
  {
    name: 'skewed',
    description: 'exponential, mean 10 (skewness 2)',
    mean: 10,
    draw: (r) => -10 * Math.log(1 - r()),
  },
  {
    name: 'heavy-tailed',
    description: 'lognormal, 10·e^Z with Z standard normal (skewness 6.2), mean 10·e^0.5',
    mean: 10 * Math.exp(0.5),
    draw: (r) => 10 * Math.exp(standardNormal(r)),
  },
  {
    name: 'mostly-one-value',
    description:
      'mostly zeros: 0 with probability 0.75, else exponential with mean 20 (mean 5; like the reorg depths of healthy nodes)',
    mean: 5,
    draw: (r) => (r() < 0.75 ? 0 : -20 * Math.log(1 - r())),
  },
];

export interface CoverageOptions {
  trials: number;
  /** Resamples per interval. */
  resamples: number;
  /** Names the random streams of the samples and of their intervals. */
  seed: string;
  level?: number;
}

export interface CoverageResult {
  population: string;
  n: number;
  trials: number;
  covered: number;
  coverage: number;
  /** Wilson 95% interval of the coverage itself (the measurement's own uncertainty). */
  coverageCi: Interval;
}

export function measureCoverage(pop: Population, n: number, o: CoverageOptions): CoverageResult {
  const random = seedrandom.alea(`coverage/${o.seed}/${pop.name}/${n}`);
  const r = () => random.double();
  const meanOf = (v: readonly number[]) => mean(v as number[]);
  let covered = 0;
  for (let t = 0; t < o.trials; t++) {
    const sample = Array.from({ length: n }, () => pop.draw(r));
    const ci = bcaInterval(sample, meanOf, {
      seed: `${o.seed}/${pop.name}/${n}/${t}`,
      resamples: o.resamples,
      ...(o.level !== undefined ? { level: o.level } : {}),
    });
    if (ci && ci.interval[0] <= pop.mean && pop.mean <= ci.interval[1]) covered++;
  }
  return {
    population: pop.name,
    n,
    trials: o.trials,
    covered,
    coverage: covered / o.trials,
    coverageCi: wilsonInterval(covered, o.trials),
  };
}
