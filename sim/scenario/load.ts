/**
 * Find and decode a scenario: a name under scenarios/ (`default`) or a path to a JSON file. Every
 * error names the file and, for a bad field, the field.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../../src/core/errors';
import { type Scenario } from './scenario';
import { decodeScenario } from './decodeScenario';

export const SCENARIOS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'scenarios');

/** A scenario file by its name: a JSON file that is not a schema (scenarios/scenario.schema.json). */
export function isScenarioFileName(name: string): boolean {
  return name.endsWith('.json') && !name.endsWith('.schema.json');
}

export function resolveScenarioPath(nameOrFile: string): string {
  if (nameOrFile.endsWith('.json') || nameOrFile.includes('/')) return resolve(nameOrFile);
  return join(SCENARIOS_DIR, `${nameOrFile}.json`);
}

/**
 * `field` names what the user gave (`--scenario` by default; `--report` when the file comes from
 * a report folder). `bytes` are the file's exact contents (a report keeps a copy and their hash).
 */
export function loadScenario(
  nameOrFile: string,
  field = '--scenario',
): { scenario: Scenario; file: string; bytes: Uint8Array } {
  const file = resolveScenarioPath(nameOrFile);
  if (!existsSync(file)) throw new InputError(field, `no scenario ${JSON.stringify(nameOrFile)} (looked for ${file})`);
  const bytes = readFileSync(file);
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw new InputError(file, `not valid JSON: ${(e as Error).message}`);
  }
  try {
    return { scenario: decodeScenario(json), file, bytes };
  } catch (e) {
    if (e instanceof InputError) throw new InputError(`${file}: ${e.field}`, e.message.slice(e.field.length + 2));
    throw e;
  }
}
