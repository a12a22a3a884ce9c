/**
 * `npm run schema`: write scenarios/scenario.schema.json and sweeps/sweep.schema.json from the
 * schemas the decoders validate with (sim/scenario/schema.ts, sim/sweep/sweepSchema.ts). A test
 * fails while either file is stale.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCENARIOS_DIR } from '../sim/scenario/load';
import { publishedScenarioSchema } from '../sim/scenario/schema';
import { publishedSweepSchema } from '../sim/sweep/sweepSchema';

const files: Array<[string, unknown]> = [
  [join(SCENARIOS_DIR, 'scenario.schema.json'), publishedScenarioSchema()],
  [join(SCENARIOS_DIR, '..', 'sweeps', 'sweep.schema.json'), publishedSweepSchema()],
];
for (const [file, schema] of files) {
  writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
  // In the repository's format (npm run lint checks it).
  execFileSync('npx', ['biome', 'format', '--write', file], { stdio: 'ignore' });
  process.stdout.write(`wrote ${file}\n`);
}
