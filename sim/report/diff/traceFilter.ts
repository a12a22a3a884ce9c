/**
 * What `report diff` compares of two traces: the records a filter keeps (by kind, node and time
 * window, the same on both sides), with the fields that differ between any two runs by
 * construction left out, so the first difference it names is one that matters:
 *
 *  - `seq`, the engine's internal sequence counter: one more internal event anywhere (another
 *    commit) shifts it in every later record, with nothing else changed;
 *  - with different seeds, everything drawn from the seed: the validators' keys, so every
 *    address, signature and hash, from the genesis record #0 on. Two seeds are compared by when,
 *    what and where (`t`, `kind`, `target`) only: the first record where the runs behave
 *    differently.
 *
 * `--all-fields` compares everything; `--ignore-field` names more fields (a top-level name such
 * as `seq`, or a path into the record such as `data.timeMs`).
 */
import { type TraceRecordView } from './traceRecord';

export interface TraceFilter {
  /** Record kinds to keep: `consensus.vote`, or a prefix with `*` (`consensus.*`); empty: all. */
  kinds: string[];
  /** Nodes (the record's target) to keep; empty: all. */
  nodes: string[];
  fromMs: number | null;
  toMs: number | null;
  /** Fields left out of the comparison (top-level names or dotted paths). */
  ignoreFields: string[];
  /** Compare only these top-level fields (null: all but the ignored ones). */
  onlyFields: string[] | null;
}

/** Fields every run's records differ in by construction. */
export const BY_CONSTRUCTION_FIELDS = ['seq'];

/** What two seeds' records are compared by: everything else is drawn from the seed. */
export const ACROSS_SEEDS_FIELDS = ['t', 'kind', 'target'];

export const NO_FILTER: TraceFilter = {
  kinds: [],
  nodes: [],
  fromMs: null,
  toMs: null,
  ignoreFields: [],
  onlyFields: null,
};

const matches = (pattern: string, kind: string) =>
  pattern.endsWith('*') ? kind.startsWith(pattern.slice(0, -1)) : kind === pattern;

export function keepRecord(f: TraceFilter, v: TraceRecordView): boolean {
  if (f.kinds.length && !(v.kind !== null && f.kinds.some((k) => matches(k, v.kind!)))) return false;
  if (f.nodes.length && !(v.node !== null && f.nodes.includes(v.node))) return false;
  if (f.fromMs !== null && (v.timeMs === null || v.timeMs < f.fromMs)) return false;
  return !(f.toMs !== null && (v.timeMs === null || v.timeMs > f.toMs));
}

/** The record's line as the filter compares it: only `onlyFields`, or without the ignored fields. */
export function comparedForm(line: string, f: Pick<TraceFilter, 'ignoreFields' | 'onlyFields'>): string {
  const fields = f.ignoreFields;
  if (!fields.length && f.onlyFields === null) return line;
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return line;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return line;
  if (f.onlyFields !== null) {
    const o = v as Record<string, unknown>;
    return JSON.stringify(Object.fromEntries(f.onlyFields.filter((k) => k in o).map((k) => [k, o[k]])));
  }
  let changed = false;
  for (const path of fields) {
    const parts = path.split('.');
    let o = v as Record<string, unknown>;
    for (const p of parts.slice(0, -1)) {
      const next = o[p];
      if (next === null || typeof next !== 'object' || Array.isArray(next)) {
        o = {};
        break;
      }
      o = next as Record<string, unknown>;
    }
    const last = parts.at(-1)!;
    if (last in o) {
      delete o[last];
      changed = true;
    }
  }
  return changed ? JSON.stringify(v) : line;
}

/** The filter in words, for the output ("" when it keeps and compares everything). */
export function describeFilter(f: TraceFilter): string {
  const parts: string[] = [];
  if (f.kinds.length) parts.push(`kind ${f.kinds.join(', ')}`);
  if (f.nodes.length) parts.push(`node ${f.nodes.join(', ')}`);
  if (f.fromMs !== null || f.toMs !== null) parts.push(`time ${f.fromMs ?? 0}..${f.toMs ?? '∞'} ms`);
  if (f.onlyFields !== null) parts.push(`comparing only ${f.onlyFields.join(', ')}`);
  else if (f.ignoreFields.length)
    parts.push(`ignoring field${f.ignoreFields.length === 1 ? '' : 's'} ${f.ignoreFields.join(', ')}`);
  return parts.join('; ');
}
