/**
 * Errors of the client commands. Each is reported as one `lockstep: …` line on stderr with exit
 * code 1; a UsageError also points at --help.
 */

import { InputError } from '../../core/errors';

/**
 * A flag or argument the user got wrong; the message starts with the flag's name. An InputError,
 * so a yargs `.check` that throws it ends as exit code 1 (bad input) in `lockstep`'s main.
 */
export class UsageError extends InputError {
  constructor(
    readonly flag: string,
    message: string,
  ) {
    super(flag, message);
    this.name = 'UsageError';
  }
}

/**
 * A usage failure yargs reported (unknown flag, missing argument, bad choice). Thrown from the
 * client commands' `.fail` handler so the command's handler never runs after a failed validation.
 */
export class ParseUsageError extends InputError {
  constructor(message: string) {
    super('usage', message);
    this.name = 'UsageError';
    this.message = `${message}\nRun with --help for usage.`;
  }
}

/** The node could not be reached (connection refused, DNS, timeout). */
export class NodeUnreachableError extends Error {
  constructor(
    readonly node: string,
    detail: string,
  ) {
    super(`cannot reach the service REST API at ${node}: is \`lockstep node start\` running? (${detail})`);
    this.name = 'NodeUnreachableError';
  }
}

/** The node answered with an error status or a body the client cannot read. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly url: string,
    readonly detail: string,
  ) {
    super(`${url} answered ${status === 0 ? 'with an unreadable body' : `HTTP ${status}`}: ${detail}`);
    this.name = 'RestError';
  }
}

export function isClientError(e: unknown): e is UsageError | NodeUnreachableError | RestError {
  return e instanceof UsageError || e instanceof NodeUnreachableError || e instanceof RestError;
}
