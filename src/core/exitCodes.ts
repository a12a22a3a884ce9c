/**
 * The exit codes of every `lockstep` command, as numbers, and the code of an error that ends a
 * command. Which run verdict exits with which code, and the table `--help` and the README show,
 * are the command line's (cli/verdictCodes.ts); the wallet client (src/client) exits with these.
 */
import { InputError, InvariantError } from './errors';

export const EXIT = {
  pass: 0,
  badInput: 1,
  safety: 2,
  liveness: 3,
  crash: 4,
  expectations: 5,
  interrupted: 130,
} as const;

/** Bad input (a flag, a file, an argument the user got wrong) exits 1; anything else is a crash. */
export function exitCodeForError(e: unknown): number {
  if (e instanceof InputError) return EXIT.badInput;
  if (e instanceof InvariantError) return EXIT.crash;
  return EXIT.crash;
}
