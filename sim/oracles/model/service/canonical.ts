/**
 * The model's canonical JSON, written from the reference's sign-bytes rules (heimdall.md §6.1):
 * keys sorted at every level, no whitespace, integers as decimal strings (amino writes uint64 as
 * strings), strings escaped as Go's encoding/json does (`<`, `>`, `&`, U+2028 and U+2029 as \u
 * escapes). It is the model's own writer: the sign bytes it checks signatures against are built
 * here, not by the code under test.
 */

const GO_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

function quote(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c]!);
}

export function canonical(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'bigint':
      return `"${value}"`;
    case 'number':
      if (!Number.isInteger(value)) throw new Error(`canonical JSON holds only integers: ${value}`);
      return `"${value}"`;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return quote(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
      const o = value as Record<string, unknown>;
      const keys = Object.keys(o)
        .filter((k) => o[k] !== undefined)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${keys.map((k) => `${quote(k)}:${canonical(o[k])}`).join(',')}}`;
    }
    default:
      throw new Error(`no canonical JSON for a ${typeof value}`);
  }
}
