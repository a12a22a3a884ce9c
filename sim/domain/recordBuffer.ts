/**
 * A domain's records (observations) and trace lines, kept as they are made and handed over window
 * by window: each window result carries exactly the records and lines made since the last one, in
 * the order they were made (the run merges the two domains' in sim/run/recordRelease.ts).
 */
import { type TraceRecorder } from '../trace/traceRecorder';
import { observationJson } from '../trace/observationJson';
import { FactTable } from '../trace/factTable';
import { type RunObservation, type RunRecord } from '../core/record';
import { keptAfterRun } from '../core/keptRecords';

export class RecordBuffer {
  /** The records of the domain the run keeps (keptRecords.ts), in the order made (virtual time never goes back). */
  readonly kept: RunRecord[] = [];
  /** Every record made since the last window was taken. */
  private window: RunRecord[] = [];
  private readonly lines: string[] | null;
  /** The block facts this domain's trace has written (written once, then referred to). */
  private readonly facts = new FactTable();

  /** With `traceLines`, every line the trace writes is buffered too and handed over with the records. */
  constructor(
    private readonly trace: TraceRecorder,
    traceLines: boolean,
  ) {
    if (traceLines) {
      const buf: string[] = [];
      this.lines = buf;
      trace.addSink((line) => void buf.push(line));
    } else this.lines = null;
  }

  /** Keep a record made at virtual time `t`, and fold it into the trace. */
  add(t: number, node: string, obs: RunObservation): void {
    const r = { t, node, obs };
    this.window.push(r);
    if (keptAfterRun(obs)) this.kept.push(r);
    this.trace.noteText(t, obs.kind, node, observationJson(obs, this.facts));
  }

  /** The records and trace lines made since the last call (lines null without `traceLines`). */
  takeWindow(): { records: RunRecord[]; traceLines: string[] | null } {
    const records = this.window;
    this.window = [];
    return { records, traceLines: this.lines !== null ? this.lines.splice(0) : null };
  }
}
