import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'sim/**/*.test.ts', 'scenarios/**/*.test.ts'],
    // Property tests run with a fixed seed so CI is reproducible; FC_SEED overrides it.
    setupFiles: ['./sim/testing/fastCheckSetup.ts'],
    testTimeout: 60_000,
    pool: 'forks',
  },
});
