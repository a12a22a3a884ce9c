/**
 * The trace hash is a pure function of the record sequence, with the encoding traceRecorder.ts
 * describes. A plain reference of that encoding (each chunk's numbers, then its strings' texts
 * joined and hashed as one UTF-8 string) must give the same digest as the recorder, whatever the
 * strings (any Unicode, lone surrogates, long ones that end a chunk by their text) and however
 * deliveries reuse their texts, across chunk boundaries of both kinds.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keccak256Raw } from '../../src/core/hash';
import { toHex } from '../../src/core/bytes';
import { TraceRecorder, TraceText } from './traceRecorder';

const CHUNK_WORDS = 1 << 16;
const CHUNK_TEXT_CHARS = 1 << 18;

/** The encoding, written plainly. */
class Reference {
  private hash: Uint8Array = new Uint8Array(32);
  private words: number[] = [];
  private ids = new Map<string, number>();
  private texts: string[] = [];
  private chars = 0;

  record(t: number, seq: number, kind: string, target: string, data: string | undefined): void {
    if (this.words.length + 5 > CHUNK_WORDS || this.chars >= CHUNK_TEXT_CHARS) this.fold();
    this.words.push(t, seq, this.intern(kind), this.intern(target), data === undefined ? -1 : this.intern(data));
  }

  private intern(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(s, id);
      this.texts.push(`${s.length}:${s}`);
      this.chars += s.length;
    }
    return id;
  }

  private fold(): void {
    if (this.words.length === 0) return;
    const h = createHash('sha256');
    h.update(new Uint8Array(new Float64Array([this.words.length]).buffer));
    h.update(new Uint8Array(new Float64Array(this.words).buffer));
    h.update(this.texts.join(''), 'utf8');
    const input = new Uint8Array(64);
    input.set(this.hash, 0);
    input.set(h.digest(), 32);
    this.hash = keccak256Raw(input);
    this.words = [];
    this.ids = new Map();
    this.texts = [];
    this.chars = 0;
  }

  digest(): string {
    this.fold();
    return toHex(this.hash);
  }
}

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('\ud800', '\udc00x', 'a\ud83d', '\ud83d\ude00', '"\\', ''),
);

type Step =
  | { op: 'event'; kind: string; target: string; data: string | undefined }
  | { op: 'delivery'; target: number; data: number }
  | { op: 'long'; size: number }
  | { op: 'many'; count: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant('event' as const),
      kind: text,
      target: text,
      data: fc.option(text, { nil: undefined }),
    }),
  },
  { weight: 6, arbitrary: fc.record({ op: fc.constant('delivery' as const), target: fc.nat(3), data: fc.nat(5) }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('long' as const), size: fc.integer({ min: 1000, max: 120_000 }) }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('many' as const), count: fc.integer({ min: 1, max: 9000 }) }) },
);

describe('trace recorder', () => {
  it('folds exactly the reference encoding, across chunk boundaries', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), fc.array(text, { minLength: 6, maxLength: 6 }), (steps, pool) => {
        const rec = new TraceRecorder();
        const ref = new Reference();
        const targets = [0, 1, 2, 3].map((i) => new TraceText(`node-${i}${pool[i]}`));
        // Each delivery's data: a TraceText reused across records (a broadcast's copies), or a fresh one.
        const data = pool.map((p, i) => new TraceText(`{"m":${JSON.stringify(p)},"i":${i}}`));
        let t = 0;
        let seq = 0;
        for (const s of steps) {
          if (s.op === 'event') {
            rec.recordEvent(t, seq, s.kind, s.target, s.data);
            ref.record(t, seq, s.kind, s.target, s.data);
          } else if (s.op === 'delivery') {
            const d = s.data < 3 ? data[s.data]! : new TraceText(data[s.data]!.text);
            rec.recordDelivery(t, seq, 'net.deliver', targets[s.target]!, d);
            ref.record(t, seq, 'net.deliver', targets[s.target]!.text, d.text);
          } else if (s.op === 'long') {
            const long = `${'é\ud800'.repeat(s.size / 2)}`;
            rec.noteText(t, 'long', 'x', long);
            ref.record(t, -1, 'long', 'x', long);
          } else
            for (let i = 0; i < s.count; i++) {
              rec.recordDelivery(t, seq + i, 'net.deliver', targets[i % 4]!, data[i % 3]!);
              ref.record(t, seq + i, 'net.deliver', targets[i % 4]!.text, data[i % 3]!.text);
            }
          t += 1;
          seq += 10_000;
        }
        expect(rec.digest()).toBe(ref.digest());
      }),
      { numRuns: 60 },
    );
  });
});
