/**
 * Property tests run with a fixed seed (reproducible CI); FC_SEED=<n> replays another one.
 * fast-check prints the seed and the counterexample path of a failure; we add the repro command.
 */
import fc from 'fast-check';

const seedFromEnv = process.env.FC_SEED;
const seed = seedFromEnv !== undefined && /^-?\d+$/.test(seedFromEnv) ? Number(seedFromEnv) : 20261121;

fc.configureGlobal({
  seed,
  reporter: (details) => {
    if (details.failed) {
      throw new Error(
        `${fc.defaultReportMessage(details)}\n` +
          (details.errorInstance instanceof Error ? `Cause: ${details.errorInstance.message}\n` : '') +
          `Repro: FC_SEED=${details.seed} npx vitest run <this file>  (path ${JSON.stringify(details.counterexamplePath)})`,
      );
    }
  },
});
