/**
 * The one error type the REST handlers throw: an HTTP status and the message that goes into the
 * reference's error body `{"error":"<msg>"}` (heimdall.md §6.4). The server's error handler turns
 * it, and every other failure, into that body, so handlers never write error replies themselves.
 */
import { InputError } from '../../core/errors';

export class RestError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'RestError';
  }
}

/** The reference's text for a body that does not decode; the InputError's message names the field. */
export function decodeError(detail: string): RestError {
  return new RestError(400, `failed to decode JSON payload: ${detail}`);
}

/**
 * Run a decoder and turn its InputError (bad field) into a 400 decode error. Anything else is a
 * bug and propagates, so it becomes a 500 rather than a misleading 400.
 */
export function decodeOrThrow<T>(decode: () => T): T {
  try {
    return decode();
  } catch (e) {
    if (e instanceof InputError) throw decodeError(e.message);
    throw e;
  }
}

/** The body every error reply carries. */
export function errorBody(message: string): { error: string } {
  return { error: message };
}
