/**
 * The engine's queue: the same (timeMs, seq) order as EventQueue, in O(1) for the events that
 * make up most of a run (messages and timers due within a few seconds).
 *
 * Times are integer milliseconds and `seq` grows with every push, so the events of one millisecond
 * arrive already in seq order: a ring of per-millisecond lists covering [cursor, cursor + span)
 * holds them, where cursor is the time of the last event popped (nothing earlier may be pushed;
 * the engine never schedules into the past). Later events wait in a binary heap; `pop` takes the
 * smaller of the ring's first event and the heap's top, so an event that was far off when it was
 * pushed keeps its place among those pushed later for the same time.
 */
import { assert } from '../../src/core/errors';
import { EventQueue, type QueuedEvent } from './eventQueue';

export class CalendarQueue<E extends QueuedEvent> {
  private readonly span: number;
  private readonly mask: number;
  private readonly slots: E[][];
  /** Slot i holds `slots[i][heads[i] .. tails[i])`; its array keeps its capacity when it empties. */
  private readonly heads: Int32Array;
  private readonly tails: Int32Array;
  private readonly far = new EventQueue<E>();
  /** Time of the last event popped: every queued event is at or after it. */
  private cursor = 0;
  /** No ring event is earlier than this (where the search for the next one starts); never before cursor. */
  private scan = 0;
  private inRing = 0;
  private lastSeq = -Infinity;

  /** `spanMs`: how far ahead the ring reaches (a power of two). */
  constructor(spanMs = 4096) {
    assert(Number.isSafeInteger(spanMs) && spanMs > 0 && (spanMs & (spanMs - 1)) === 0, 'span is a power of two', {
      spanMs,
    });
    this.span = spanMs;
    this.mask = spanMs - 1;
    this.slots = Array.from({ length: spanMs }, () => []);
    this.heads = new Int32Array(spanMs);
    this.tails = new Int32Array(spanMs);
  }

  get size(): number {
    return this.inRing + this.far.size;
  }

  push(ev: E): void {
    const t = ev.timeMs;
    if (!(t >= this.cursor && ev.seq > this.lastSeq))
      assert(false, 'events are pushed in seq order, never before the last one popped', {
        timeMs: t,
        seq: ev.seq,
        cursor: this.cursor,
        lastSeq: this.lastSeq,
      });
    this.lastSeq = ev.seq;
    if (t - this.cursor >= this.span) {
      this.far.push(ev);
      return;
    }
    const i = t & this.mask;
    this.slots[i]![this.tails[i]!++] = ev;
    this.inRing++;
    if (t < this.scan) this.scan = t;
  }

  /** The ring's first event (and the search moves up to it), or undefined when the ring is empty. */
  private ringFirst(): E | undefined {
    if (this.inRing === 0) return undefined;
    for (let t = this.scan; ; t++) {
      const i = t & this.mask;
      if (this.heads[i]! < this.tails[i]!) {
        this.scan = t;
        return this.slots[i]![this.heads[i]!];
      }
    }
  }

  /** True when the ring's first event `a` comes before the heap's top `b`. */
  private static ringFirstWins<E extends QueuedEvent>(a: E, b: E | undefined): boolean {
    return b === undefined || a.timeMs < b.timeMs || (a.timeMs === b.timeMs && a.seq < b.seq);
  }

  peek(): E | undefined {
    const a = this.ringFirst();
    const b = this.far.peek();
    return a !== undefined && CalendarQueue.ringFirstWins(a, b) ? a : b;
  }

  pop(): E | undefined {
    const a = this.ringFirst();
    const b = this.far.peek();
    if (a !== undefined && CalendarQueue.ringFirstWins(a, b)) {
      this.takeRingFirst(a);
      return a;
    }
    const ev = this.far.pop();
    if (ev !== undefined) this.advance(ev.timeMs);
    return ev;
  }

  /**
   * Remove `ev`, which the last `peek()` returned, with nothing pushed or popped since: the run
   * loop peeks at every event before it takes it, and need not search twice.
   */
  popPeeked(ev: E): void {
    const i = ev.timeMs & this.mask;
    if (this.heads[i]! < this.tails[i]! && this.slots[i]![this.heads[i]!] === ev) this.takeRingFirst(ev);
    else {
      const top = this.far.pop();
      assert(top === ev, 'popPeeked takes the event the last peek returned', { timeMs: ev.timeMs, seq: ev.seq });
      this.advance(ev.timeMs);
    }
  }

  private takeRingFirst(a: E): void {
    const i = a.timeMs & this.mask;
    const h = this.heads[i]!;
    this.slots[i]![h] = undefined as unknown as E;
    if (h + 1 === this.tails[i]) {
      this.heads[i] = 0;
      this.tails[i] = 0;
    } else this.heads[i] = h + 1;
    this.inRing--;
    this.advance(a.timeMs);
  }

  private advance(timeMs: number): void {
    this.cursor = timeMs;
    // Slots before the cursor may hold events a whole span later: never search from there.
    if (this.scan < timeMs) this.scan = timeMs;
  }

  clear(): void {
    for (const s of this.slots) s.length = 0;
    this.heads.fill(0);
    this.tails.fill(0);
    this.far.clear();
    this.inRing = 0;
    this.scan = this.cursor;
  }
}
