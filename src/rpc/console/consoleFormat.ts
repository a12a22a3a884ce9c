/**
 * How the operator console shows values, and the line protocol between console server and client.
 *
 * The printed form follows what geth's JavaScript console prints, so an operator guide's
 * transcripts read the same: numbers bare (`42`, `NaN`), strings double-quoted, `true` / `false` /
 * `null`, arrays inline (`[1, 2]`), objects one key per line with keys sorted and two-space
 * indentation, and objects or arrays deeper than three levels abbreviated (`{...}`, `[...]`).
 *
 * The protocol: the client sends one expression per line; the server answers each line with one
 * JSON line, `{"ok":true,"value":<JSON>,"display":"<printed form>"}` or
 * `{"ok":false,"error":"<message>"}`. `value` is the plain JSON (bigints as numbers, NaN as null);
 * `display` carries what JSON cannot (NaN), so the client prints it as is.
 */
import { compareStrings } from '../../core/order';
import { encodeJson } from '../jsonrpc/jsonText';

/** Longest expression line the server reads, in bytes (without the newline). */
export const MAX_CONSOLE_LINE_BYTES = 64 * 1024;

export type ConsoleAnswer = { ok: true; value: unknown; display: string } | { ok: false; error: string };

/** Beyond this depth objects print as `{...}`, as in geth's console. */
const MAX_PRINT_LEVEL = 3;
const INDENT = '  ';

function printValue(v: unknown, level: number, inArray: boolean): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'undefined':
      return 'undefined';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      return String(v);
    case 'bigint':
      return v.toString(10);
    case 'string':
      return JSON.stringify(v);
    case 'function':
      return 'function()';
    case 'symbol':
      return v.toString();
    default:
      break;
  }
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    if (level > MAX_PRINT_LEVEL) return '[...]';
    return `[${v.map((item) => printValue(item, level + 1, true)).join(', ')}]`;
  }
  const o = v as Record<string, unknown>;
  // Keys starting with "_" are internal in web3's objects, and the console hides them.
  const keys = Object.keys(o)
    .filter((k) => !k.startsWith('_'))
    .sort(compareStrings);
  if (keys.length === 0) return '{}';
  if (level > MAX_PRINT_LEVEL) return '{...}';
  const lines = keys.map(
    (k, i) => `${INDENT.repeat(level + 1)}${k}: ${printValue(o[k], level + 1, false)}${i < keys.length - 1 ? ',' : ''}`,
  );
  // Inside an array the closing brace sits one level out, as geth prints it.
  const closeLevel = inArray ? level - 1 : level;
  return `{\n${lines.join('\n')}\n${INDENT.repeat(Math.max(0, closeLevel))}}`;
}

/** A value as the console prints it. */
export function formatConsoleValue(value: unknown): string {
  return printValue(value, 0, false);
}

/** An error as the console prints it: `Error: …` unless the message already names its kind. */
export function formatConsoleError(message: string): string {
  return /^[A-Za-z]*Error: /.test(message) ? message : `Error: ${message}`;
}

/** The server's answer line (without the newline). */
export function encodeConsoleAnswer(a: ConsoleAnswer): string {
  if (!a.ok) return encodeJson({ ok: false, error: a.error });
  return encodeJson({ ok: true, value: a.value, display: a.display });
}

/** The client's reading of an answer line; a line that is not an answer is an error. */
export function decodeConsoleAnswer(line: string): ConsoleAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return { ok: false, error: `malformed answer from the console server: ${line.slice(0, 200)}` };
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    const o = parsed as Record<string, unknown>;
    if (o.ok === true)
      return {
        ok: true,
        value: o.value,
        display: typeof o.display === 'string' ? o.display : formatConsoleValue(o.value),
      };
    if (o.ok === false && typeof o.error === 'string') return { ok: false, error: o.error };
  }
  return { ok: false, error: `malformed answer from the console server: ${line.slice(0, 200)}` };
}
