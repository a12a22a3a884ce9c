/**
 * A trace record read generically: any JSON line, whatever its shape (the record format changes
 * between versions: compact commit records, new fields), with its time, kind and node taken from
 * the fields records commonly carry. Two records are the same when their lines are, or when they
 * hold the same values in another key order.
 */
export interface TraceRecordView {
  /** 0-based position in the trace. */
  index: number;
  timeMs: number | null;
  kind: string | null;
  node: string | null;
  line: string;
}

const TIME_FIELDS = ['t', 'timeMs', 'time', 'atMs'];
const KIND_FIELDS = ['kind', 'k', 'type'];
const NODE_FIELDS = ['target', 'node', 'n', 'to'];

function parse(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

const first = <T>(o: Record<string, unknown>, keys: string[], ok: (v: unknown) => v is T): T | null => {
  for (const k of keys) if (ok(o[k])) return o[k] as T;
  return null;
};

export function viewRecord(index: number, line: string): TraceRecordView {
  const v = parse(line);
  const o = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  return {
    index,
    timeMs: first(o, TIME_FIELDS, (x): x is number => typeof x === 'number'),
    kind: first(o, KIND_FIELDS, (x): x is string => typeof x === 'string'),
    node: first(o, NODE_FIELDS, (x): x is string => typeof x === 'string'),
    line,
  };
}

/** JSON with sorted keys (null when the line is not JSON). */
function sortedForm(line: string): string | null {
  const v = parse(line);
  if (v === undefined) return null;
  return JSON.stringify(v, (_k, x: unknown) =>
    x !== null && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(
          Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : x,
  );
}

export function sameRecord(a: string, b: string): boolean {
  if (a === b) return true;
  const fa = sortedForm(a);
  return fa !== null && fa === sortedForm(b);
}

/** The field paths whose values differ between two records (`data.height`), at most `limit`. */
export function differingFields(a: string, b: string, limit = 8): Array<{ path: string; a: string; b: string }> {
  const out: Array<{ path: string; a: string; b: string }> = [];
  const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));
  const walk = (x: unknown, y: unknown, path: string): void => {
    if (out.length >= limit) return;
    const bothObjects =
      x !== null &&
      y !== null &&
      typeof x === 'object' &&
      typeof y === 'object' &&
      Array.isArray(x) === Array.isArray(y);
    if (!bothObjects) {
      if (JSON.stringify(x) !== JSON.stringify(y)) out.push({ path: path || '(record)', a: show(x), b: show(y) });
      return;
    }
    const xo = x as Record<string, unknown>;
    const yo = y as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(xo), ...Object.keys(yo)])];
    for (const k of keys) walk(xo[k], yo[k], Array.isArray(x) ? `${path}[${k}]` : path ? `${path}.${k}` : k);
  };
  walk(parse(a), parse(b), '');
  return out;
}
