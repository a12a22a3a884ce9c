/**
 * How a bench with subcommands (the mutation bench, the hunt bench) parses its command line: a
 * yargs parser run to the end, bad input (an InputError from a handler, a usage error from yargs)
 * reported with the bench's name and exit code 1, never a stack.
 */
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
