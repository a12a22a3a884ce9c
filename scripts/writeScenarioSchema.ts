/**
 * `npm run schema`: write scenarios/scenario.schema.json from the schema the decoder validates
 * with (sim/scenario/schema.ts). A test fails while the file is stale.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCENARIOS_DIR } from '../sim/scenario/load';
import { publishedScenarioSchema } from '../sim/scenario/schema';

const file = join(SCENARIOS_DIR, 'scenario.schema.json');
writeFileSync(file, `${JSON.stringify(publishedScenarioSchema(), null, 2)}\n`);
// In the repository's format (npm run lint checks it).
execFileSync('npx', ['biome', 'format', '--write', file], { stdio: 'ignore' });
process.stdout.write(`wrote ${file}\n`);
