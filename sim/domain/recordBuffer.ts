/**
 * A domain's records (observations) and trace lines, kept as they are made and handed over window
 * by window: each window result carries exactly the records and lines made since the last one, in
 * the order they were made (the run merges the two domains' in sim/recordRelease.ts).
 */
import { type TraceRecorder } from '../trace/traceRecorder';
import { observationJson } from '../trace/observationJson';
import { FactTable } from '../trace/factTable';
import { type RunObservation, type RunRecord } from './observation';

export class RecordBuffer {
  /** Every record of the domain so far, in the order made (virtual time never goes back). */
  readonly all: RunRecord[] = [];
  private shipped = 0;
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
    this.all.push({ t, node, obs });
    this.trace.noteText(t, obs.kind, node, observationJson(obs, this.facts));
  }

  /** The records and trace lines made since the last call (lines null without `traceLines`). */
  takeWindow(): { records: RunRecord[]; traceLines: string[] | null } {
    const records = this.all.slice(this.shipped);
    this.shipped = this.all.length;
    return { records, traceLines: this.lines !== null ? this.lines.splice(0) : null };
  }
}
