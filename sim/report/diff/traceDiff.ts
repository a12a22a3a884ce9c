/**
 * The first record where two traces part, read as streams (a long run's trace never sits in
 * memory whole): its index, time, kind and node on both sides and the fields that differ; then
 * both traces are counted to their ends.
 */
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
  first: TraceDifference | null;
}

export async function compareTraces(a: AsyncIterable<string>, b: AsyncIterable<string>): Promise<TraceComparison> {
  const ia = a[Symbol.asyncIterator]();
  const ib = b[Symbol.asyncIterator]();
  let index = 0;
  let first: TraceDifference | null = null;
  let recordsA = 0;
  let recordsB = 0;
  for (;;) {
    const [x, y] = await Promise.all([ia.next(), ib.next()]);
    if (!x.done) recordsA++;
    if (!y.done) recordsB++;
    if (x.done && y.done) break;
    if (first === null && (x.done || y.done || !sameRecord(x.value, y.value))) {
      const va = x.done ? null : viewRecord(index, x.value);
      const vb = y.done ? null : viewRecord(index, y.value);
      first = { a: va, b: vb, fields: va && vb ? differingFields(va.line, vb.line) : [] };
    }
    index++;
  }
  return { recordsA, recordsB, first };
}
