/**
 * How a bench with subcommands (the mutation bench, the hunt bench) parses its command line: a
 * yargs parser run to the end, bad input (an InputError from a handler, a usage error from yargs)
 * reported with the bench's name and exit code 1, never a stack.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Argv } from 'yargs';
import { InputError } from '../src/core/errors';
import { EXIT } from '../src/core/exitCodes';

/** Run `parser`; the exit code of bad input (its message written by `say`), or null when it ran. */
export async function parseBenchCommand(
  parser: Argv,
  name: string,
  say: (text: string) => void,
): Promise<number | null> {
  parser
    .strict()
    .help()
    .fail((msg, err) => {
      // Throw, not return: yargs goes on to the command's handler after a failure it was told of.
      throw err ?? new UsageError(msg);
    });
  try {
    await parser.parseAsync();
  } catch (e) {
    if (e instanceof InputError) {
      say(`${name}: ${e.message}`);
      return EXIT.badInput;
    }
    if (e instanceof UsageError) {
      say(`${name}: ${e.message}\n(see npm run bench -- ${name} --help)`);
      return EXIT.badInput;
    }
    throw e;
  }
  return null;
}

class UsageError extends Error {}

/**
 * A results file named on the command line (`results.json`, or the folder holding it), parsed;
 * `what` names the bench whose result it should be, for the error.
 */
export function readBenchResult(path: string, what: string): { file: string; value: unknown } {
  const abs = resolve(path);
  if (!existsSync(abs)) throw new InputError('files', `${path}: no such file or folder`);
  const file = statSync(abs).isDirectory() ? join(abs, 'results.json') : abs;
  if (!existsSync(file)) throw new InputError('files', `${path} has no results.json: it is not a ${what} result`);
  try {
    return { file: path, value: JSON.parse(readFileSync(file, 'utf8')) };
  } catch (e) {
    throw new InputError(path, `not valid JSON: ${(e as Error).message}`);
  }
}
