/**
 * The client CLI run in-process for tests: its commands on a fresh yargs, output captured, the
 * exit code it would set (a thrown error mapped as the real entry point maps it), and the key
 * files of a home written as `lockstep keys` writes them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yargs from 'yargs';
import { EXIT, exitCodeForError } from '../../core/exitCodes';
import { type TestKey } from '../../app/testing/testChain';
import { registerClientCommands } from '../commands';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

/**
 * Run `lockstep ARGS` (client commands) as the real entry point would (strict, a command required,
 * the same fail message and error mapping), with `fetchImpl` as its HTTP client if given and `env`
 * as its environment.
 */
export async function cli(args: string[], fetchImpl?: typeof fetch, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  let out = '';
  let err = '';
  let code: number = EXIT.pass;
  const parser = registerClientCommands(yargs(args).scriptName('lockstep'), {
    setExitCode: (c) => {
      code = c;
    },
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    env,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  })
    .demandCommand(1, 'Name a command')
    .strict()
    .help()
    .exitProcess(false)
    .fail((msg, error) => {
      if (error) throw error;
      err += `lockstep: ${msg}\nRun with --help for usage.\n`;
      code = EXIT.badInput;
    });
  try {
    await parser.parseAsync();
  } catch (e) {
    code = exitCodeForError(e);
    err += `lockstep: ${(e as Error).message}\n`;
  }
  return { code, out, err };
}

/** A key file of `home`'s keys/ folder. */
export function writeKey(home: string, name: string, key: TestKey): void {
  writeFileSync(
    join(home, 'keys', `${name}.json`),
    JSON.stringify({ name, address: key.address, pub_key: key.pubKey, private_key: key.privateKey }),
  );
}
