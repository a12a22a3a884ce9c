import { describe, expect, it } from 'vitest';
import { TraceRecorder } from '../trace/traceRecorder';
import { type RunObservation } from '../core/record';
import { RecordBuffer } from './recordBuffer';

const obs = (detail: string) =>
  ({ kind: 'fault.start', index: 0, fault: 'crash', detail, permanent: true, atHeight: null }) as RunObservation;

describe('RecordBuffer', () => {
  it('hands over each record once, in the order made, window by window', () => {
    const b = new RecordBuffer(new TraceRecorder(), false);
    b.add(1, 'svc-1', obs('a'));
    b.add(1, 'svc-2', obs('b'));
    b.add(4, 'svc-1', obs('c'));
    const w1 = b.takeWindow();
    expect(w1.records.map((r) => [r.t, r.node, r.obs.kind === 'fault.start' && r.obs.detail])).toEqual([
      [1, 'svc-1', 'a'],
      [1, 'svc-2', 'b'],
      [4, 'svc-1', 'c'],
    ]);
    expect(w1.traceLines).toBeNull();
    expect(b.takeWindow().records).toEqual([]);
    b.add(9, '', obs('d'));
    expect(b.takeWindow().records.map((r) => r.t)).toEqual([9]);
    // `kept` keeps every record a run keeps, shipped or not.
    expect(b.kept.map((r) => r.t)).toEqual([1, 1, 4, 9]);
  });

  it('ships the per-message consensus records in their window but does not keep them after', () => {
    const b = new RecordBuffer(new TraceRecorder(), false);
    const round = { kind: 'consensus.round', height: 3n, round: 1 } as RunObservation;
    b.add(1, 'svc-1', obs('a'));
    b.add(2, 'svc-1', round);
    b.add(3, 'svc-2', obs('b'));
    expect(b.takeWindow().records.map((r) => r.obs.kind)).toEqual(['fault.start', 'consensus.round', 'fault.start']);
    expect(b.kept.map((r) => r.obs.kind)).toEqual(['fault.start', 'fault.start']);
  });

  it('folds every record into the trace, and with traceLines hands the lines over with the window', () => {
    const withLines = new TraceRecorder();
    const without = new TraceRecorder();
    const b = new RecordBuffer(withLines, true);
    const c = new RecordBuffer(without, false);
    for (const x of [b, c]) {
      x.add(2, 'sc-1', obs('a'));
      x.add(3, 'sc-2', obs('b'));
    }
    // Buffering lines does not change what the trace hashes.
    expect(withLines.digest()).toBe(without.digest());
    const lines = b.takeWindow().traceLines!;
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('"a"');
    expect(lines[1]).toContain('"b"');
    expect(b.takeWindow().traceLines).toEqual([]);
  });
});
