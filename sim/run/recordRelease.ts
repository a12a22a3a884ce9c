/**
 * Record release: the two domains' records and trace lines, merged in canonical order (by time,
 * the main domain first on ties) and passed on once both domains have run past their time: to the
 * oracles, to the caller's onRecord and to its trace sink.
 */
import { type RunRecord } from '../core/record';
import { type WindowResult } from '../domain/windowProtocol';
import { TimeMerge, traceLineTimeMs } from '../domain/timeMerge';
import { type OracleSuite } from '../oracles/suite';
import { keptAfterRun } from '../core/keptRecords';
import { type TraceSink } from '../trace/traceRecorder';

export class RecordRelease {
  private readonly records = new TimeMerge<RunRecord>((r) => r.t);
  private readonly lines = new TimeMerge<string>(traceLineTimeMs);
  /** The records of the sidechain domain a run keeps (domain/keptRecords.ts), in the order its windows made them. */
  readonly sidechainRecords: RunRecord[] = [];

  constructor(
    private readonly oracles: OracleSuite,
    private readonly onRecord: ((record: RunRecord) => void) | undefined,
    private readonly traceSink: TraceSink | undefined,
  ) {}

  /** Take in one window's records and trace lines from each domain. */
  push(main: WindowResult, sidechain: WindowResult): void {
    for (const r of sidechain.records) if (keptAfterRun(r.obs)) this.sidechainRecords.push(r);
    this.records.push(0, main.records);
    this.records.push(1, sidechain.records);
    if (this.traceSink) {
      this.lines.push(0, main.traceLines ?? []);
      this.lines.push(1, sidechain.traceLines ?? []);
    }
  }

  /** Pass on what both domains have run past `upToMs` (Infinity: everything). */
  release(upToMs: number): void {
    const records = this.records.release(upToMs);
    for (const r of records) this.oracles.observe(r);
    if (this.onRecord) for (const r of records) this.onRecord(r);
    if (this.traceSink) for (const l of this.lines.release(upToMs)) this.traceSink(l);
  }
}
