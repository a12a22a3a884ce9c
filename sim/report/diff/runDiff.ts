/**
 * Where two runs part: what identifies them (scenario, seed, crypto, build), the first differing
 * trace record, then the differences in counts, metrics, expectations and verdict. The sides are
 * plain data (a report folder's summary.json and metrics.json, or a run just made), read
 * generically so a report of another version compares too: a field one side lacks is a difference.
 */
import { type TraceComparison } from './traceDiff';

/** One side: a `lockstep run` summary (summary.json's object) and the run's metrics. */
export interface RunSide {
  label: string;
  summary: Record<string, unknown>;
  /** null: not recorded (a report folder written before metrics.json existed). */
  metrics: Record<string, number | null> | null;
}

export interface ValueDifference {
  what: string;
  a: unknown;
  b: unknown;
}

export interface RunDiff {
  identical: boolean;
  identity: ValueDifference[];
  /** null: a side has no trace lines (compared by trace hash only). */
  trace: TraceComparison | null;
  traceHashes: { a: unknown; b: unknown };
  counts: ValueDifference[];
  metrics: ValueDifference[] | null;
  expectations: ValueDifference[];
  verdict: ValueDifference[];
}

const IDENTITY = ['scenario', 'scenarioSha256', 'seed', 'crypto', 'durationMs', 'untilMs', 'version', 'commit'];
const VERDICT = ['verdict', 'oracleVerdict', 'message', 'violation', 'shortened', 'interrupted'];

const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);

function differences(
  keys: Iterable<string>,
  a: (k: string) => unknown,
  b: (k: string) => unknown,
  prefix = '',
): ValueDifference[] {
  const out: ValueDifference[] = [];
  for (const k of keys) if (!same(a(k), b(k))) out.push({ what: `${prefix}${k}`, a: a(k), b: b(k) });
  return out;
}

const obj = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

function countsOf(s: Record<string, unknown>): Record<string, unknown> {
  return {
    ...obj(s.counts),
    maxReorgDepth: s.maxReorgDepth,
    backupBlocks: s.backupBlocks,
    events: s.events,
    simulatedMs: s.simulatedMs,
  };
}

function expectationsOf(s: Record<string, unknown>): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const e of Array.isArray(s.expectations) ? s.expectations : []) {
    const x = obj(e);
    out.set(`${String(x.what)} ${String(x.op ?? '')}`.trim(), x);
  }
  return out;
}

const union = (...lists: Iterable<string>[]) => [...new Set(lists.flatMap((l) => [...l]))];

export function diffRuns(a: RunSide, b: RunSide, trace: TraceComparison | null): RunDiff {
  const sa = a.summary;
  const sb = b.summary;
  const identity = differences(
    IDENTITY,
    (k) => sa[k],
    (k) => sb[k],
  );
  const ca = countsOf(sa);
  const cb = countsOf(sb);
  const counts = differences(
    union(Object.keys(ca), Object.keys(cb)),
    (k) => ca[k],
    (k) => cb[k],
  );
  const metrics =
    a.metrics && b.metrics
      ? differences(
          union(Object.keys(a.metrics), Object.keys(b.metrics)),
          (k) => a.metrics![k],
          (k) => b.metrics![k],
        )
      : null;
  const ea = expectationsOf(sa);
  const eb = expectationsOf(sb);
  const expectations = differences(
    union(ea.keys(), eb.keys()),
    (k) =>
      ea.has(k) ? { actual: ea.get(k)!.actual, status: ea.get(k)!.status, expected: ea.get(k)!.expected } : undefined,
    (k) =>
      eb.has(k) ? { actual: eb.get(k)!.actual, status: eb.get(k)!.status, expected: eb.get(k)!.expected } : undefined,
  );
  const verdict = differences(
    VERDICT,
    (k) => sa[k],
    (k) => sb[k],
  );
  const traceHashes = { a: sa.traceHash, b: sb.traceHash };
  const traceSame = trace ? trace.first === null : same(traceHashes.a, traceHashes.b);
  const identical =
    traceSame &&
    same(traceHashes.a, traceHashes.b) &&
    counts.length === 0 &&
    (metrics?.length ?? 0) === 0 &&
    expectations.length === 0 &&
    verdict.length === 0 &&
    !identity.some((d) => d.what !== 'commit' && d.what !== 'version');
  return { identical, identity, trace, traceHashes, counts, metrics, expectations, verdict };
}

const show = (v: unknown): string => (v === undefined ? '(absent)' : typeof v === 'string' ? v : JSON.stringify(v));

function record(
  r: { index: number; timeMs: number | null; kind: string | null; node: string | null; line: string } | null,
): string {
  if (r === null) return '(no record: this trace had ended)';
  const line = r.line.length > 240 ? `${r.line.slice(0, 237)}...` : r.line;
  return `t=${r.timeMs ?? '?'} ms  kind ${r.kind ?? '?'}  node ${r.node ?? '?'}\n      ${line}`;
}

export function formatRunDiff(d: RunDiff, a: RunSide, b: RunSide, o: { filter?: string } = {}): string {
  const out = [`A  ${a.label}`, `B  ${b.label}`];
  if (o.filter) out.push(`trace records compared: ${o.filter}`);
  const table = (title: string, list: ValueDifference[]) => {
    if (!list.length) return;
    out.push(`${title}:`);
    const w = Math.max(...list.map((x) => x.what.length));
    for (const x of list) out.push(`  ${x.what.padEnd(w)}  A ${show(x.a)}   B ${show(x.b)}`);
  };
  if (d.identical) {
    const commits = d.identity.find((x) => x.what === 'commit');
    out.push(
      `identical: the same trace${d.trace ? ` (${d.trace.recordsA} records)` : ''} and trace hash ${show(d.traceHashes.a)}, counts, metrics${d.metrics === null ? ' (not recorded on both sides)' : ''}, expectations and verdict${commits ? ` (built from different commits: ${show(commits.a)} and ${show(commits.b)})` : ''}`,
    );
    return `${out.join('\n')}\n`;
  }
  table('run', d.identity);
  if (d.trace === null)
    out.push(
      `trace: ${same(d.traceHashes.a, d.traceHashes.b) ? 'the same trace hash' : `trace hashes differ (A ${show(d.traceHashes.a)}, B ${show(d.traceHashes.b)})`}; no trace.jsonl on both sides to name the first differing record`,
    );
  else if (d.trace.first === null)
    out.push(
      d.trace.comparedA === d.trace.recordsA
        ? `trace: the same ${d.trace.recordsA} records`
        : `trace: the same ${d.trace.comparedA} records compared (of ${d.trace.recordsA} in A and ${d.trace.recordsB} in B)`,
    );
  else {
    const f = d.trace.first;
    const ref = f.a ?? f.b!;
    const filtered = d.trace.comparedA !== d.trace.recordsA || d.trace.comparedB !== d.trace.recordsB;
    out.push(
      filtered
        ? `first differing trace record: #${ref.index} of the records compared (0-based; ${d.trace.comparedA} of ${d.trace.recordsA} in A, ${d.trace.comparedB} of ${d.trace.recordsB} in B)`
        : `first differing trace record: #${ref.index} (0-based, of ${d.trace.recordsA} in A and ${d.trace.recordsB} in B)`,
    );
    out.push(`  A: ${record(f.a)}`, `  B: ${record(f.b)}`);
    if (f.fields.length) {
      out.push('  fields that differ:');
      for (const x of f.fields) out.push(`    ${x.path}: A ${x.a}  B ${x.b}`);
    }
  }
  table('counts', d.counts);
  if (d.metrics === null) out.push('metrics: not recorded on both sides (a report folder without metrics.json)');
  else table('metrics', d.metrics);
  table('expectations', d.expectations);
  table('verdict', d.verdict);
  if (!d.counts.length && d.metrics?.length === 0 && !d.expectations.length && !d.verdict.length)
    out.push('counts, metrics, expectations and verdict: the same');
  return `${out.join('\n')}\n`;
}
