/**
 * The trace: every delivered event, in delivery order, folded into a rolling keccak hash and
 * optionally written as JSON lines.
 *
 * Each event is folded as a compact record `t|seq|kind|target|data\n` (the JSONL sink gets the
 * same fields as a JSON object). Records are buffered and folded in fixed-size chunks:
 * `hash = keccak(hash ‖ sha256(chunk))`. The chunking depends only on the records, so the hash is
 * a pure function of the event sequence; hashing per chunk rather than per event, and each chunk
 * with Node's native SHA-256 (a run's trace is tens of MB: keccak in JavaScript would take a
 * second per simulated hour), keeps tracing cheap.
 */
import { createHash } from 'node:crypto';
import { keccak256Raw as keccak_256 } from '../../src/core/hash';
import { toHex, type Hex } from '../../src/core/bytes';

export interface TraceEntry {
  readonly timeMs: number;
  readonly seq: number;
  readonly kind: string;
  readonly target: string;
  /** A deterministic description of the payload (already canonical), or undefined. */
  readonly data?: string;
}

export type TraceSink = (line: string) => void;

const CHUNK_CHARS = 1 << 16;

export class TraceRecorder {
  private hash: Uint8Array = new Uint8Array(32);
  private buffer = '';
  private count = 0;
  private readonly sinks: TraceSink[] = [];

  /** Add a JSONL sink (a file writer in the CLI, an array in tests). */
  addSink(sink: TraceSink): void {
    this.sinks.push(sink);
  }

  get events(): number {
    return this.count;
  }

  record(e: TraceEntry): void {
    this.count++;
    this.buffer += `${e.timeMs}|${e.seq}|${e.kind}|${e.target}|${e.data ?? ''}\n`;
    if (this.buffer.length >= CHUNK_CHARS) this.fold();
    if (this.sinks.length) {
      const line =
        e.data === undefined
          ? `{"t":${e.timeMs},"seq":${e.seq},"kind":${JSON.stringify(e.kind)},"target":${JSON.stringify(e.target)}}`
          : `{"t":${e.timeMs},"seq":${e.seq},"kind":${JSON.stringify(e.kind)},"target":${JSON.stringify(e.target)},"data":${e.data}}`;
      for (const sink of this.sinks) sink(line);
    }
  }

  /** Record a non-event fact (an observation, a fault firing) in the same stream, its data already JSON. */
  noteText(timeMs: number, kind: string, target: string, json: string): void {
    this.record({ timeMs, seq: -1, kind, target, data: json });
  }

  private fold(): void {
    if (this.buffer.length === 0) return;
    const input = new Uint8Array(64);
    input.set(this.hash, 0);
    input.set(createHash('sha256').update(this.buffer, 'utf8').digest(), 32);
    this.hash = keccak_256(input);
    this.buffer = '';
  }

  /** The rolling hash of everything recorded so far. */
  digest(): Hex {
    this.fold();
    return toHex(this.hash);
  }
}
