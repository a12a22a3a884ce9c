import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CalendarQueue } from './calendarQueue';
import { EventQueue } from './eventQueue';

interface Ev {
  timeMs: number;
  seq: number;
}

describe('CalendarQueue', () => {
  it('pops exactly what the binary heap pops, under any interleaving of pushes (never into the past) and pops', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(4, 8, 64),
        fc.array(
          fc.oneof(
            // A delay from the last event popped: within the ring, at its edge, or far beyond it.
            fc.integer({ min: 0, max: 10 }),
            fc.integer({ min: 0, max: 200 }),
            fc.constant(-1),
            fc.constant(-2),
          ),
          { maxLength: 400 },
        ),
        (span, ops) => {
          const q = new CalendarQueue<Ev>(span);
          const heap = new EventQueue<Ev>();
          let seq = 0;
          let now = 0;
          for (const op of ops) {
            if (op >= 0) {
              const ev = { timeMs: now + op, seq: seq++ };
              q.push(ev);
              heap.push(ev);
            } else if (op === -2) {
              // The run loop's way: peek, then take what was peeked.
              const a = q.peek();
              expect(a).toBe(heap.peek());
              if (a) {
                q.popPeeked(a);
                expect(heap.pop()).toBe(a);
                now = a.timeMs;
              }
            } else {
              const a = q.pop();
              expect(a).toBe(heap.pop());
              if (a) now = a.timeMs;
            }
            expect(q.size).toBe(heap.size);
          }
          for (let ev = heap.pop(); ev !== undefined; ev = heap.pop()) expect(q.pop()).toBe(ev);
          expect(q.pop()).toBeUndefined();
          expect(q.size).toBe(0);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses an event before the last one popped, or out of seq order', () => {
    const q = new CalendarQueue<Ev>(8);
    q.push({ timeMs: 5, seq: 1 });
    q.pop();
    expect(() => q.push({ timeMs: 4, seq: 2 })).toThrow(/never before the last one popped/);
    expect(() => q.push({ timeMs: 9, seq: 1 })).toThrow(/seq order/);
  });
});
