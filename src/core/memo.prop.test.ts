import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BoundedMemo } from './memo';

let instances = 0;

/** The rule a bounded memo keeps: past its bound, the key inserted longest ago (and still held) goes first. */
class FifoModel {
  readonly keys: number[] = [];
  readonly values = new Map<number, number>();
  constructor(readonly bound: number) {}
  set(k: number, v: number): void {
    if (!this.values.has(k)) {
      if (this.keys.length >= this.bound) this.values.delete(this.keys.shift()!);
      this.keys.push(k);
    }
    this.values.set(k, v);
  }
}

describe('bounded memo against a FIFO model', () => {
  it('holds exactly the model’s entries after any sequence of sets, clears and reads', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant('set' as const), k: fc.integer({ min: 0, max: 20 }), v: fc.integer() }),
            fc.record({ op: fc.constant('clear' as const) }),
          ),
          { maxLength: 200 },
        ),
        (bound, ops) => {
          const memo = new BoundedMemo<number, number>(`test.fifo.${instances++}`, bound);
          let model = new FifoModel(bound);
          for (const o of ops) {
            if (o.op === 'set') {
              memo.set(o.k, o.v);
              model.set(o.k, o.v);
            } else {
              memo.clear();
              model = new FifoModel(bound);
            }
            expect(memo.size).toBe(model.values.size);
          }
          for (let k = 0; k <= 20; k++) expect(memo.has(k)).toBe(model.values.has(k));
          for (const [k, v] of model.values) expect(memo.get(k)).toBe(v);
        },
      ),
      { numRuns: 300 },
    );
  });
});
