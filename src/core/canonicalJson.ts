/**
 * Canonical JSON for sign bytes and hashing: keys sorted at every level (by UTF-16 code units,
 * which equals Go's byte order for the ASCII keys we use), no whitespace, integers (numbers and
 * bigints) written as decimal strings, undefined members dropped. Strings are escaped as Go's
 * `encoding/json` does (`<`, `>`, `&`, U+2028, U+2029 as \u escapes), so that sign bytes match the
 * reference's sortJSON output.
 */
import { InvariantError } from './errors';
import { utf8, type Bytes } from './bytes';

export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue | undefined };

export function canonicalJson(value: unknown): string {
  return write(value, '$');
}

export function canonicalJsonBytes(value: unknown): Bytes {
  return utf8(canonicalJson(value));
}

function write(value: unknown, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return `"${value.toString()}"`;
    case 'number':
      if (!Number.isInteger(value)) throw new InvariantError('canonical JSON holds only integers', { path, value });
      return `"${value.toString()}"`;
    case 'string':
      return quote(value);
    case 'object': {
      if (value instanceof Uint8Array) throw new InvariantError('canonical JSON cannot hold raw bytes; hex-encode them', { path });
      if (Array.isArray(value)) return `[${value.map((v, i) => write(v === undefined ? null : v, `${path}[${i}]`)).join(',')}]`;
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).filter((k) => obj[k] !== undefined);
      keys.sort(compareKeys);
      return `{${keys.map((k) => `${quote(k)}:${write(obj[k], `${path}.${k}`)}`).join(',')}}`;
    }
    default:
      throw new InvariantError('value has no canonical JSON form', { path, type: typeof value });
  }
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[<>&\u2028\u2029]/g;

export function quote(s: string): string {
  return JSON.stringify(s).replace(NEEDS_ESCAPE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
