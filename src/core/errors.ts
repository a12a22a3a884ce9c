/**
 * Typed result codes for domain rejections, and `assert` for broken invariants.
 *
 * A domain rejection (a bad transaction, a bad query) is a value: `{ codespace, code, message }`,
 * as in the reference's ABCI log. A broken invariant is a bug in Lockstep itself and throws.
 */

export interface ResultError {
  readonly codespace: string;
  readonly code: number;
  readonly message: string;
}

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ResultError };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(error: ResultError): Result<T> {
  return { ok: false, error };
}

/** The ABCI log string of a failed tx or query: Go `encoding/json` field order, no HTML escaping. */
export function abciLog(e: ResultError): string {
  return `{"codespace":${JSON.stringify(e.codespace)},"code":${e.code},"message":${JSON.stringify(e.message)}}`;
}

/** Build an error with the code's standard text, or a custom text (the reference often formats one). */
export function err(spec: ResultError, message?: string): ResultError {
  return message === undefined ? spec : { codespace: spec.codespace, code: spec.code, message };
}

/** A registered error code: its name in the table that defined it, for messages about it. */
export interface RegisteredError extends ResultError {
  readonly name: string;
}

/**
 * The error codes of a process by (codespace, code). A code is registered once: a second
 * registration of the same pair is refused, so two tables can never give one code two meanings
 * without anyone noticing. A code the reference uses with several texts (Heimdall's 1505, the
 * bank's 102) is registered once and the other texts are `err(code, text)` variants of it.
 */
export class ErrorCodes {
  private readonly byCode = new Map<string, RegisteredError>();

  define<const T extends Readonly<Record<string, readonly [number, string]>>>(
    codespace: string,
    table: T,
  ): { readonly [K in keyof T]: ResultError } {
    const out: Record<string, ResultError> = {};
    for (const [name, [code, message]] of Object.entries(table)) {
      const key = `${codespace}/${code}`;
      const existing = this.byCode.get(key);
      assert(existing === undefined, 'an error code is registered once', {
        codespace,
        code,
        name,
        registeredAs: existing?.name,
      });
      this.byCode.set(key, { codespace, code, message, name });
      out[name] = { codespace, code, message };
    }
    return out as { readonly [K in keyof T]: ResultError };
  }

  /** Every registered code, in registration order. */
  list(): readonly RegisteredError[] {
    return [...this.byCode.values()];
  }
}

/** The process-wide registry the modules' error tables register into when they load. */
export const ERROR_CODES = new ErrorCodes();

/** Register a table of `name: [code, standard text]` in `codespace`; refuses a code already registered. */
export function defineErrors<const T extends Readonly<Record<string, readonly [number, string]>>>(
  codespace: string,
  table: T,
): { readonly [K in keyof T]: ResultError } {
  return ERROR_CODES.define(codespace, table);
}

/** Thrown by `assert`: an invariant of Lockstep itself is broken. Carries context for the repro. */
export class InvariantError extends Error {
  constructor(
    message: string,
    readonly context: Readonly<Record<string, unknown>> = {},
  ) {
    super(Object.keys(context).length ? `${message} (${describeContext(context)})` : message);
    this.name = 'InvariantError';
  }
}

function describeContext(context: Readonly<Record<string, unknown>>): string {
  return Object.entries(context)
    .map(([k, v]) => `${k}=${typeof v === 'bigint' ? v.toString() : JSON.stringify(v)}`)
    .join(', ');
}

export function assert(
  condition: unknown,
  message: string,
  context?: Readonly<Record<string, unknown>>,
): asserts condition {
  if (!condition) throw new InvariantError(message, context);
}

/** Bad input from a user (a file, a flag, a library argument): the message names the bad field. */
export class InputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'InputError';
  }
}
