/**
 * Canonical JSON for sign bytes and hashing: keys sorted at every level (by UTF-16 code units,
 * which equals Go's byte order for the ASCII keys we use), no whitespace, integers (numbers and
 * bigints) written as decimal strings, undefined members dropped. Strings are escaped as Go's
 * `encoding/json` does (`<`, `>`, `&`, U+2028, U+2029 as \u escapes), so that sign bytes match the
 * reference's sortJSON output.
 */
import { InvariantError } from './errors';
import { utf8, type Bytes } from './bytes';

export type JsonValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | JsonValue[]
  | { [key: string]: JsonValue | undefined };

export function canonicalJson(value: unknown): string {
  try {
    return write(value);
  } catch (e) {
    // The fast path carries no paths; find the offending value's path for the error.
    if (e instanceof Unwritable) throw new InvariantError(e.message, { path: pathOf(value, '$') ?? '$', ...e.details });
    throw e;
  }
}

export function canonicalJsonBytes(value: unknown): Bytes {
  return utf8(canonicalJson(value));
}

/** A value with no canonical form (the path is added by `canonicalJson`). */
class Unwritable extends Error {
  constructor(
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** Why `value` itself has no canonical form, or null. */
function unwritable(value: unknown): Unwritable | null {
  switch (typeof value) {
    case 'number':
      return Number.isInteger(value) ? null : new Unwritable('canonical JSON holds only integers', { value });
    case 'object':
      return value instanceof Uint8Array
        ? new Unwritable('canonical JSON cannot hold raw bytes; hex-encode them', {})
        : null;
    case 'boolean':
    case 'bigint':
    case 'string':
      return null;
    default:
      return new Unwritable('value has no canonical JSON form', { type: typeof value });
  }
}

function write(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return `"${value.toString()}"`;
    case 'number':
      if (!Number.isInteger(value)) throw unwritable(value)!;
      return `"${value.toString()}"`;
    case 'string':
      return quote(value);
    case 'object': {
      if (value instanceof Uint8Array) throw unwritable(value)!;
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ',';
          const v = value[i];
          out += write(v === undefined ? null : v);
        }
        return out + ']';
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).filter((k) => obj[k] !== undefined);
      keys.sort(compareKeys);
      let out = '{';
      for (let i = 0; i < keys.length; i++) {
        if (i > 0) out += ',';
        const k = keys[i]!;
        out += `${quote(k)}:${write(obj[k])}`;
      }
      return out + '}';
    }
    default:
      throw unwritable(value)!;
  }
}

/** The path of the first value (in writing order) that has no canonical form. */
function pathOf(value: unknown, path: string): string | null {
  if (value === null) return null;
  if (unwritable(value)) return path;
  if (typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = pathOf(value[i] ?? null, `${path}[${i}]`);
      if (p) return p;
    }
    return null;
  }
  const obj = value as Record<string, unknown>;
  for (const k of Object.keys(obj)
    .filter((key) => obj[key] !== undefined)
    .sort(compareKeys)) {
    const p = pathOf(obj[k], `${path}.${k}`);
    if (p) return p;
  }
  return null;
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[<>&\u2028\u2029]/g;

/**
 * Characters JSON.stringify writes other than as themselves (a quote, a backslash, the controls,
 * surrogates: a lone one is escaped) or that quote escapes as well: a string with none of them
 * (hex, addresses, chain ids: almost every string a simulation quotes) is itself in quotes.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what JSON escapes, so what this looks for
const NOT_PLAIN = /["\\\u0000-\u001f<>&\u2028\u2029\ud800-\udfff]/;

export function quote(s: string): string {
  if (!NOT_PLAIN.test(s)) return `"${s}"`;
  return JSON.stringify(s).replace(NEEDS_ESCAPE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
