/**
 * Errors of the client commands. Each is reported as one `lockstep: …` line on stderr with exit
 * code 1; a UsageError also points at --help.
 */

import { InputError } from '../core/errors';

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

/**
 * The node could not be reached (connection refused, DNS), or it did not answer (the connection
 * closed, a timeout). `sent` tells them apart: a request that may have reached the node (a
 * transaction it may have journaled) is not one to send again blindly.
 */
export class NodeUnreachableError extends Error {
  constructor(
    readonly node: string,
    readonly detail: string,
    readonly sent = false,
  ) {
    super(
      sent
        ? `the service REST API at ${node} did not answer (${detail})`
        : `cannot reach the service REST API at ${node}: is \`lockstep node start\` running? (${detail})`,
    );
    this.name = 'NodeUnreachableError';
  }
}

/**
 * A transaction was sent, but whether the node took it is not known (the connection closed, the
 * node restarted, the answer timed out). The node journals a tx before it answers, so it may well
 * be applied (also after a restart): the message says how to look it up, and never to send it
 * again, which would pay twice.
 */
export class TxOutcomeUnknownError extends Error {
  constructor(
    readonly txhash: string,
    detail: string,
    readonly checkCommand: string,
  ) {
    super(
      `transaction ${txhash} was sent, but its outcome is unknown: ${detail}.\n` +
        '  The node journals a transaction before it answers: if it did, the transaction is applied (also after a restart).\n' +
        '  Do not send it again (a second one would pay twice). Look it up, waiting for the outcome:\n' +
        `  ${checkCommand}`,
    );
    this.name = 'TxOutcomeUnknownError';
  }
}

/** The node answered with an error status or a body the client cannot read. */
export class NodeReplyError extends Error {
  constructor(
    readonly status: number,
    readonly url: string,
    readonly detail: string,
  ) {
    super(`${url} answered ${status === 0 ? 'with an unreadable body' : `HTTP ${status}`}: ${detail}`);
    this.name = 'NodeReplyError';
  }
}

export function isClientError(
  e: unknown,
): e is UsageError | NodeUnreachableError | NodeReplyError | TxOutcomeUnknownError {
  return (
    e instanceof UsageError ||
    e instanceof NodeUnreachableError ||
    e instanceof NodeReplyError ||
    e instanceof TxOutcomeUnknownError
  );
}
