/**
 * Every example `lockstep node fault --help` shows runs (issue 22, item 5: `node fault x --json …`
 * failed with "give the fault either as arguments or as --json, not both"). Against a home that is
 * not running, an example gets as far as the connection: its arguments parse, and the fault they
 * build decodes for the home's network.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yargs from 'yargs';
import { loadScenario } from '../../sim/scenario/load';
import { NODE_FAULT_EXAMPLES, registerDevnetCommands } from './commands';
import { initHome } from './home';

const root = mkdtempSync(join(tmpdir(), 'lockstep-fault-examples-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A command line as a shell splits it (single quotes keep their contents whole). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2]!);
  return words;
}

async function run(args: string[]): Promise<Error | null> {
  const parser = registerDevnetCommands(yargs(args).scriptName('lockstep'), () => {})
    .strict()
    .exitProcess(false)
    .fail((msg, error) => {
      throw error ?? new Error(msg);
    });
  try {
    await parser.parseAsync();
    return null;
  } catch (e) {
    return e as Error;
  }
}

describe('lockstep node fault --help', () => {
  const home = join(root, 'dn');
  initHome({
    home,
    scenario: loadScenario('devnet').scenario,
    seed: 1,
    host: '127.0.0.1',
    ports: { rest: 0, status: 0, jsonRpc: 0, ws: 0 },
    overwrite: false,
  });

  it.each(NODE_FAULT_EXAMPLES.map(([cmd]) => [cmd]))('runs: lockstep %s', async (cmd) => {
    const err = await run(shellWords(cmd.replace('./dn', home)));
    expect(err?.message).toBe(
      `--home: no devnet is running in ${home} (no data/ports.json): start it with \`lockstep node start --home ${home}\``,
    );
  });

  it('a fault the network cannot have is refused before anything is sent, naming the field', async () => {
    const err = await run(['node', 'fault', 'crash', 'svc-9', '--home', home]);
    expect(err?.message).toMatch(/^fault\.node: unknown node "svc-9"/);
  });
});
