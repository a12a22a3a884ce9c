/**
 * The trace: every delivered event, in delivery order, folded into a rolling keccak hash and
 * optionally written as JSON lines.
 *
 * Each event is a record (t, seq, kind, target, data) whose kind, target and data are strings
 * (data: a deterministic description of the payload, canonical JSON, or none). Records are folded
 * in chunks, compactly: a chunk is a list of numbers, five per record (t, seq and the chunk-local
 * ids of the three strings, -1 for no data), plus the text of each string the first time the
 * chunk uses it (`length:text`, in order of first use; ids count up from 0 in that order). Then
 * `hash = keccak(hash ‖ sha256(count ‖ numbers ‖ texts))`, with the numbers as little-endian
 * float64 (exact for integers up to 2^53). The encoding is one-to-one, and the chunk boundaries
 * depend only on the records, so the hash is a pure function of the record sequence.
 *
 * Why: a run at a hundred validators delivers millions of messages, each a near copy of the
 * previous one (the same vote reaches every peer). Interning the strings per chunk hashes each
 * distinct description once per chunk instead of once per delivery, and a delivery costs five
 * numbers; with the describers caching the description per message object (sim/domain/nodeSlots.ts),
 * no string is built per delivery either. The JSONL sink still gets every line in full.
 */
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { endianness } from 'node:os';
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

/** Chunk generations, unique across the recorders of a thread (a TraceText may meet several). */
let nextGeneration = 0;

/**
 * A string the trace meets again and again (a broadcast's description, one per copy; a receiver's
 * id, kept by its link): it remembers its chunk-local id, so recording it again in the same chunk
 * needs no lookup. It folds exactly as the same text would.
 */
export class TraceText {
  id = -1;
  generation = -1;
  constructor(readonly text: string) {}
}

/** Numbers per chunk (5 per record): 512 KiB of float64. */
const CHUNK_WORDS = 1 << 16;
/** A chunk also ends when the text of its new strings passes this many characters. */
const CHUNK_TEXT_CHARS = 1 << 18;
const LITTLE_ENDIAN = endianness() === 'LE';

export class TraceRecorder {
  private hash: Uint8Array = new Uint8Array(32);
  private readonly words = new Float64Array(CHUNK_WORDS);
  private used = 0;
  /** The chunk's strings, by first use. */
  private ids = new Map<string, number>();
  /**
   * Their texts as they are folded (`length:text` each, UTF-8), written as each string is first
   * used: no list of strings to join at the fold, and the string itself need not outlive its use.
   */
  private textBytes: Buffer = Buffer.allocUnsafe(1 << 20);
  private textLength = 0;
  private textChars = 0;
  /** The id of the last kind recorded in this chunk (runs of one kind are the rule). */
  private lastKind: string | null = null;
  private lastKindId = 0;
  private count = 0;
  private generation = nextGeneration++;
  private readonly sinks: TraceSink[] = [];

  /** Add a JSONL sink (a file writer in the CLI, an array in tests). */
  addSink(sink: TraceSink): void {
    this.sinks.push(sink);
  }

  /** True when a sink wants the lines (describers may skip work otherwise). */
  get hasSinks(): boolean {
    return this.sinks.length > 0;
  }

  get events(): number {
    return this.count;
  }

  record(e: TraceEntry): void {
    this.recordEvent(e.timeMs, e.seq, e.kind, e.target, e.data);
  }

  /** `record` without the entry object (the engine calls this for every event). */
  recordEvent(timeMs: number, seq: number, kind: string, target: string, data: string | undefined): void {
    let i = this.beginRecord(timeMs, seq, kind);
    const w = this.words;
    w[i++] = this.intern(target);
    w[i++] = data === undefined ? -1 : this.intern(data);
    this.used = i;
    if (this.sinks.length) {
      const line =
        data === undefined
          ? `{"t":${timeMs},"seq":${seq},"kind":${JSON.stringify(kind)},"target":${JSON.stringify(target)}}`
          : `{"t":${timeMs},"seq":${seq},"kind":${JSON.stringify(kind)},"target":${JSON.stringify(target)},"data":${data}}`;
      for (const sink of this.sinks) sink(line);
    }
  }

  /** `recordEvent` with target and data as TraceTexts (a message delivery). */
  recordDelivery(timeMs: number, seq: number, kind: string, target: TraceText, data: TraceText): void {
    let i = this.beginRecord(timeMs, seq, kind);
    const w = this.words;
    w[i++] = target.generation === this.generation ? target.id : this.internText(target);
    w[i++] = data.generation === this.generation ? data.id : this.internText(data);
    this.used = i;
    if (this.sinks.length) {
      const line = `{"t":${timeMs},"seq":${seq},"kind":${JSON.stringify(kind)},"target":${JSON.stringify(target.text)},"data":${data.text}}`;
      for (const sink of this.sinks) sink(line);
    }
  }

  /** Count a record, fold a full chunk, write its time, seq and kind; returns where its target goes. */
  private beginRecord(timeMs: number, seq: number, kind: string): number {
    this.count++;
    if (this.used + 5 > CHUNK_WORDS || this.textChars >= CHUNK_TEXT_CHARS) this.fold();
    const w = this.words;
    let i = this.used;
    w[i++] = timeMs;
    w[i++] = seq;
    if (kind !== this.lastKind) {
      this.lastKindId = this.intern(kind);
      this.lastKind = kind;
    }
    w[i++] = this.lastKindId;
    return i;
  }

  private internText(t: TraceText): number {
    t.id = this.intern(t.text);
    t.generation = this.generation;
    return t.id;
  }

  /** Record a non-event fact (an observation, a fault firing) in the same stream, its data already JSON. */
  noteText(timeMs: number, kind: string, target: string, json: string): void {
    this.recordEvent(timeMs, -1, kind, target, json);
  }

  private intern(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(s, id);
      this.appendText(s);
      this.textChars += s.length;
    }
    return id;
  }

  /** Append `length:text` to the chunk's text bytes (UTF-8, as the hash reads them). */
  private appendText(s: string): void {
    const head = `${s.length}:`;
    // UTF-8 takes at most 3 bytes per UTF-16 unit (a surrogate pair: 4 for 2).
    const need = this.textLength + head.length + 3 * s.length;
    if (need > this.textBytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(need, 2 * this.textBytes.length));
      this.textBytes.copy(grown, 0, 0, this.textLength);
      this.textBytes = grown;
    }
    this.textLength += this.textBytes.write(head, this.textLength, 'latin1');
    this.textLength += this.textBytes.write(s, this.textLength, 'utf8');
  }

  private fold(): void {
    if (this.used === 0) return;
    const h = createHash('sha256');
    const head = new Float64Array([this.used]);
    const body = this.words.subarray(0, this.used);
    h.update(bytesLE(head));
    h.update(bytesLE(body));
    h.update(this.textBytes.subarray(0, this.textLength));
    const input = new Uint8Array(64);
    input.set(this.hash, 0);
    input.set(h.digest(), 32);
    this.hash = keccak_256(input);
    this.used = 0;
    this.ids = new Map();
    this.textLength = 0;
    this.textChars = 0;
    this.lastKind = null;
    this.generation = nextGeneration++;
  }

  /** The rolling hash of everything recorded so far. */
  digest(): Hex {
    this.fold();
    return toHex(this.hash);
  }
}

/** The bytes of float64s in little-endian order, whatever the platform's order. */
function bytesLE(a: Float64Array): Uint8Array {
  const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  if (LITTLE_ENDIAN) return bytes;
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i += 8) for (let k = 0; k < 8; k++) out[i + k] = bytes[i + 7 - k]!;
  return out;
}
