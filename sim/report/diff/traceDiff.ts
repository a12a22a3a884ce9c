/**
 * The first record where two traces part, read as streams (a long run's trace never sits in
 * memory whole): its index, time, kind and node on both sides and the fields that differ; then
 * both traces are counted to their ends. A filter (traceFilter.ts) keeps the same records of both
 * traces (by kind, node, time window) and leaves out the fields that differ by construction;
 * indexes are of the records kept.
 */
import { NO_FILTER, type TraceFilter, comparedForm, keepRecord } from './traceFilter';
import { type TraceRecordView, differingFields, sameRecord, viewRecord } from './traceRecord';

export interface TraceDifference {
  /** The first differing record of each side; null where that trace had already ended. */
  a: TraceRecordView | null;
  b: TraceRecordView | null;
  fields: Array<{ path: string; a: string; b: string }>;
}

export interface TraceComparison {
  recordsA: number;
  recordsB: number;
  /** Records the filter kept on each side (what was compared). */
  comparedA: number;
  comparedB: number;
  first: TraceDifference | null;
}

async function* kept(lines: AsyncIterable<string>, f: TraceFilter, count: () => void): AsyncGenerator<string> {
  let i = 0;
  for await (const line of lines) {
    count();
    if (keepRecord(f, viewRecord(i++, line))) yield line;
  }
}

export async function compareTraces(
  a: AsyncIterable<string>,
  b: AsyncIterable<string>,
  filter: TraceFilter = NO_FILTER,
): Promise<TraceComparison> {
  let recordsA = 0;
  let recordsB = 0;
  const ia = kept(a, filter, () => recordsA++)[Symbol.asyncIterator]();
  const ib = kept(b, filter, () => recordsB++)[Symbol.asyncIterator]();
  let index = 0;
  let first: TraceDifference | null = null;
  let comparedA = 0;
  let comparedB = 0;
  for (;;) {
    const [x, y] = await Promise.all([ia.next(), ib.next()]);
    if (!x.done) comparedA++;
    if (!y.done) comparedB++;
    if (x.done && y.done) break;
    if (first !== null) {
      index++;
      continue;
    }
    const lx = x.done ? null : comparedForm(x.value, filter);
    const ly = y.done ? null : comparedForm(y.value, filter);
    if (lx === null || ly === null || !sameRecord(lx, ly)) {
      const va = x.done ? null : viewRecord(index, x.value);
      const vb = y.done ? null : viewRecord(index, y.value);
      first = { a: va, b: vb, fields: lx !== null && ly !== null ? differingFields(lx, ly) : [] };
    }
    index++;
  }
  return { recordsA, recordsB, comparedA, comparedB, first };
}
