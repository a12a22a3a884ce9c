import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EventQueue } from './eventQueue';

interface Ev {
  timeMs: number;
  seq: number;
}

describe('EventQueue', () => {
  it('pops in (time, seq) order under any interleaving of pushes and pops', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 50 }), fc.constant(-1)), { maxLength: 300 }), (ops) => {
        const q = new EventQueue<Ev>();
        const model: Ev[] = [];
        let seq = 0;
        for (const op of ops) {
          if (op >= 0) {
            const ev = { timeMs: op, seq: seq++ };
            q.push(ev);
            model.push(ev);
          } else {
            model.sort((a, b) => a.timeMs - b.timeMs || a.seq - b.seq);
            expect(q.pop()).toBe(model.shift());
          }
          expect(q.size).toBe(model.length);
        }
        model.sort((a, b) => a.timeMs - b.timeMs || a.seq - b.seq);
        for (const ev of model) expect(q.pop()).toBe(ev);
        expect(q.pop()).toBeUndefined();
      }),
    );
  });
});
