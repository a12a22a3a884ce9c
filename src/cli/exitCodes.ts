import { InputError, InvariantError } from '../core/errors';

export const EXIT = { pass: 0, badInput: 1, safety: 2, liveness: 3, crash: 4 } as const;

export function exitCodeForError(e: unknown): number {
  if (e instanceof InputError) return EXIT.badInput;
  if (e instanceof InvariantError) return EXIT.crash;
  return EXIT.crash;
}
