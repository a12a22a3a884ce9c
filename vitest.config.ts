import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Four projects, split by file name so a new test lands in the right one without editing this file:
 *   unit  fast tests of one part (the inner loop: `npm test -- --project unit`)
 *   prop  property and model-based tests (fast-check: `*.prop.test.ts`, `*.model.test.ts`)
 *   sim   whole simulated runs: the scenario suite, placements, fuzz campaigns and shrinking
 *   e2e   real processes, sockets and browsers: `*.e2e.test.ts`, `*.browser.test.ts`
 * `npm test` runs all four.
 */
const ALL = [
  'src/**/*.test.ts',
  'sim/**/*.test.ts',
  'cli/**/*.test.ts',
  'scenarios/**/*.test.ts',
  'bench/**/*.test.ts',
];
const PROP = ['**/*.prop.test.ts', '**/*.model.test.ts'];
const E2E = ['**/*.e2e.test.ts', '**/*.browser.test.ts'];
const SIM = ['scenarios/**/*.test.ts', 'sim/run/placement.test.ts', 'sim/campaign/**/*.test.ts', '**/*.sim.test.ts'];

/** What every project shares (the mutation bench's unit-only config reuses it). */
export const SHARED_TEST = {
  // Property tests run with a fixed seed so CI is reproducible; FC_SEED overrides it. Every
  // project keeps it: unit and sim tests use fast-check too. Each file starts with empty caches,
  // and every service app checks the modules' invariants at the end of every block it executes.
  setupFiles: ['./sim/testing/fastCheckSetup.ts', './sim/testing/runSetup.ts'],
  testTimeout: 60_000,
};

/** The unit project (bench/mutation/vitest.unit.config.ts runs it alone under Stryker). */
export const UNIT_PROJECT = {
  name: 'unit',
  include: ALL,
  exclude: [...configDefaults.exclude, ...PROP, ...E2E, ...SIM],
  // The inner loop: one module graph shared by the files of a worker (about 2.5x faster than a
  // fresh one per file, most of which was loading ethers and the app again). Unit tests keep no
  // state between files (no mocks or stubbed globals, each builds its own chain or app; the
  // process-wide caches only memoise pure results), so they must pass in any order in one graph
  // as well.
  pool: 'threads',
  isolate: false,
} as const;

export default defineConfig({
  test: {
    ...SHARED_TEST,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on a 2-core CI machine, one test file
    // at a time, and the e2e files spend much of their time waiting on processes and sockets.
    // Two workers keep both cores busy (the whole suite measured 686 s with one, see README).
    maxWorkers: 2,
    projects: [
      { extends: true, test: { ...UNIT_PROJECT, exclude: [...UNIT_PROJECT.exclude] } },
      { extends: true, test: { name: 'prop', include: PROP, exclude: [...configDefaults.exclude, ...E2E] } },
      { extends: true, test: { name: 'sim', include: SIM, exclude: [...configDefaults.exclude, ...PROP, ...E2E] } },
      { extends: true, test: { name: 'e2e', include: E2E } },
    ],
  },
});
