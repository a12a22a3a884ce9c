/**
 * `npm run rules`: write docs/RULES.md from the rule table (sim/rules/). A test fails while the
 * file is stale.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rulesMarkdown } from '../sim/rules/markdown';

const file = join(import.meta.dirname, '..', 'docs', 'RULES.md');
writeFileSync(file, rulesMarkdown());
process.stdout.write(`wrote ${file}\n`);
