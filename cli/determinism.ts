/**
 * `lockstep run --check-determinism`: run a scenario + seed twice inline and once with the worker
 * placement, compare the trace hashes, and on a mismatch name the first trace record (index,
 * time, kind, node) where two runs part.
 *
 * Each run's trace lines are folded into one SHA-256 digest per block of lines as they stream
 * out, so memory stays small whatever the run's length. The first run's block digests are kept;
 * a later run is compared block by block while it runs, and keeps the lines of the first block
 * that differs. The first run is then repeated to recover its lines of that block (only on a
 * mismatch), and the two blocks are compared line by line.
 */
import { createHash } from 'node:crypto';
import { type Placement, type RunOptions, type RunResult } from '../sim/run/run';
import { type Scenario } from '../sim/scenario/scenario';
import { TraceRecorder, type TraceText } from '../sim/trace/traceRecorder';
import { driveRun, type DriveOptions } from './runLoop';

const BLOCK_LINES = 4096;

/**
 * Test-only hook (reachable from the CLI only through a hidden flag): a main-domain trace
 * recorder that records one extra event right after its `afterEvent`-th, so a run diverges there.
 */
export class DivergingTraceRecorder extends TraceRecorder {
  constructor(private readonly afterEvent: number) {
    super();
  }
  // Every record reaches one of these two (record and noteText go through recordEvent).
  override recordEvent(timeMs: number, seq: number, kind: string, target: string, data: string | undefined): void {
    super.recordEvent(timeMs, seq, kind, target, data);
    this.divergeAt(timeMs, target);
  }
  override recordDelivery(timeMs: number, seq: number, kind: string, target: TraceText, data: TraceText): void {
    super.recordDelivery(timeMs, seq, kind, target, data);
    this.divergeAt(timeMs, target.text);
  }
  private divergeAt(timeMs: number, target: string): void {
    if (this.events === this.afterEvent)
      super.recordEvent(timeMs, -1, 'test.diverge', target, JSON.stringify({ afterEvent: this.afterEvent }));
  }
}

/** A trace record as the report names it. */
export interface TraceRecordRef {
  index: number;
  timeMs: number;
  kind: string;
  node: string;
  line: string;
}

export interface DeterminismRun {
  label: string;
  placement: Placement;
  traceHash: string;
  records: number;
}

export interface DeterminismResult {
  ok: boolean;
  runs: DeterminismRun[];
  /** Why a placement was left out (none is: a planted bug runs in both placements too). */
  skipped: string | null;
  /** On a mismatch: which run differs from the first, and the first differing record of each (null: it had ended). */
  difference: {
    run: number;
    first: TraceRecordRef | null;
    other: TraceRecordRef | null;
  } | null;
}

function recordRef(index: number, line: string | undefined): TraceRecordRef | null {
  if (line === undefined) return null;
  const e = JSON.parse(line) as { t: number; kind: string; target: string };
  return { index, timeMs: e.t, kind: e.kind, node: e.target, line };
}

/** Streams a run's trace lines into block digests; optionally compares with a reference as it goes. */
class BlockFolder {
  readonly digests: string[] = [];
  private block: string[] = [];
  count = 0;
  /** The first block (index and lines) whose digest differs from the reference's. */
  mismatch: { block: number; lines: string[] } | null = null;

  constructor(private readonly reference: string[] | null) {}

  push(line: string): void {
    this.count++;
    this.block.push(line);
    if (this.block.length === BLOCK_LINES) this.close();
  }

  close(): void {
    if (this.block.length === 0) return;
    const digest = createHash('sha256').update(this.block.join('\n')).digest('hex');
    const i = this.digests.length;
    this.digests.push(digest);
    if (this.reference && this.mismatch === null && this.reference[i] !== digest)
      this.mismatch = { block: i, lines: this.block };
    this.block = [];
  }
}

export interface DeterminismOptions {
  seed: number;
  untilMs: number;
  /** Test-only: the second run diverges after this main-domain event. */
  divergeAfterEvent?: number;
  drive: (label: string) => DriveOptions;
  /** Each run's result as it ends (1-based run number). */
  onResult?: (r: RunResult, run: number) => void;
}

export async function checkDeterminism(scenario: Scenario, o: DeterminismOptions): Promise<DeterminismResult> {
  const plan: Array<{ label: string; placement: Placement; diverge: boolean }> = [
    { label: 'run 1 (inline)', placement: 'inline', diverge: false },
    { label: 'run 2 (inline)', placement: 'inline', diverge: o.divergeAfterEvent !== undefined },
  ];
  plan.push({ label: 'run 3 (worker)', placement: 'worker', diverge: false });
  const runs: DeterminismRun[] = [];
  let reference: BlockFolder | null = null;
  let difference: DeterminismResult['difference'] = null;
  for (const [i, p] of plan.entries()) {
    const folder = new BlockFolder(reference?.digests ?? null);
    const opts: RunOptions & { placement: Placement } = {
      seed: o.seed,
      untilMs: o.untilMs,
      placement: p.placement,
      traceSink: (line) => folder.push(line),
      ...(p.diverge ? { trace: new DivergingTraceRecorder(o.divergeAfterEvent!) } : {}),
    };
    const r = await driveRun(scenario, opts, o.drive(p.label));
    folder.close();
    if (r.interrupted) throw new Interrupted();
    o.onResult?.(r, i + 1);
    runs.push({ label: p.label, placement: p.placement, traceHash: r.traceHash, records: folder.count });
    if (reference === null) {
      reference = folder;
      continue;
    }
    const lengthDiffers = folder.digests.length !== reference.digests.length;
    if (difference === null && (r.traceHash !== runs[0]!.traceHash || folder.mismatch || lengthDiffers)) {
      // The first differing block (or the shorter run's end), then its lines in the first run.
      const block = folder.mismatch?.block ?? Math.min(folder.digests.length, reference.digests.length);
      const mine = folder.mismatch?.lines ?? [];
      const theirs = await linesOfBlock(scenario, o, block);
      let k = 0;
      while (k < Math.max(mine.length, theirs.length) && mine[k] === theirs[k]) k++;
      const index = block * BLOCK_LINES + k;
      difference = { run: i + 1, first: recordRef(index, theirs[k]), other: recordRef(index, mine[k]) };
    }
  }
  return {
    ok: difference === null && runs.every((r) => r.traceHash === runs[0]!.traceHash),
    runs,
    skipped: null,
    difference,
  };
}

/** The lines of one block of the first run, by running it again. */
async function linesOfBlock(scenario: Scenario, o: DeterminismOptions, block: number): Promise<string[]> {
  const from = block * BLOCK_LINES;
  const lines: string[] = [];
  let n = 0;
  const r = await driveRun(
    scenario,
    {
      seed: o.seed,
      untilMs: o.untilMs,
      placement: 'inline',
      traceSink: (line) => {
        if (n >= from && n < from + BLOCK_LINES) lines.push(line);
        n++;
      },
    },
    o.drive('run 1 again (to show its records)'),
  );
  if (r.interrupted) throw new Interrupted();
  return lines;
}

/** The check was interrupted (Ctrl-C): no verdict on determinism. */
export class Interrupted extends Error {
  constructor() {
    super('interrupted');
  }
}

export function formatRecord(r: TraceRecordRef | null): string {
  if (r === null) return '(no record: the run had ended)';
  return `t=${r.timeMs} ms  kind ${r.kind}  node ${r.node}\n      ${r.line.length > 300 ? `${r.line.slice(0, 297)}...` : r.line}`;
}

export function formatDeterminism(d: DeterminismResult): string {
  const out: string[] = [];
  for (const r of d.runs) out.push(`  ${r.label.padEnd(16)} trace ${r.traceHash}  ${r.records} records`);
  if (d.skipped) out.push(`  skipped ${d.skipped}`);
  if (d.ok) out.push(`determinism OK: ${d.runs.length} runs, one trace hash`);
  else if (d.difference && d.difference.first === null && d.difference.other === null)
    out.push(
      `determinism MISMATCH: ${d.runs[d.difference.run - 1]!.label} has another trace hash than ${d.runs[0]!.label}, but the same trace records`,
    );
  else if (d.difference) {
    const diff = d.difference;
    const ref = diff.first ?? diff.other!;
    out.push(`determinism MISMATCH: ${d.runs[diff.run - 1]!.label} differs from ${d.runs[0]!.label}`);
    out.push(`  first differing trace record: #${ref.index} (0-based, in trace.jsonl order)`);
    out.push(`    ${d.runs[0]!.label}: ${formatRecord(diff.first)}`);
    out.push(`    ${d.runs[diff.run - 1]!.label}: ${formatRecord(diff.other)}`);
  } else out.push('determinism MISMATCH: the trace hashes differ');
  return `${out.join('\n')}\n`;
}
