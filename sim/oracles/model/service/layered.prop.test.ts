/**
 * The model's layered table: `findFirst` answers what a walk of `entries()` in key order finds,
 * whatever the layers wrote, deleted, shadowed or committed.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Layered } from './layered';

type Op =
  | { op: 'set'; key: string; value: number }
  | { op: 'delete'; key: string }
  | { op: 'branch' }
  | { op: 'commit' }
  | { op: 'drop' };

const key = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', '10', '2', '');
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('set' as const), key, value: fc.nat(5) }),
  fc.record({ op: fc.constant('delete' as const), key }),
  fc.record({ op: fc.constant('branch' as const) }),
  fc.record({ op: fc.constant('commit' as const) }),
  fc.record({ op: fc.constant('drop' as const) }),
);

describe('Layered', () => {
  it('findFirst is the first live entry in key order that the predicate accepts', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.nat(5), (ops, wanted) => {
        const stack: Array<Layered<{ n: number }>> = [new Layered<{ n: number }>()];
        for (const o of ops) {
          const top = stack[stack.length - 1]!;
          // A fresh object per write: the answer must be the very entry, not an equal value.
          if (o.op === 'set') top.set(o.key, { n: o.value });
          else if (o.op === 'delete') top.delete(o.key);
          else if (o.op === 'branch') stack.push(top.branch());
          else if (stack.length > 1) {
            if (o.op === 'commit') top.commit();
            stack.pop();
          }
          const t = stack[stack.length - 1]!;
          const pred = (v: { n: number }) => v.n === wanted;
          expect(t.findFirst(pred)).toBe(t.entries().find(([, v]) => pred(v))?.[1]);
          expect(t.findFirst(() => true)).toBe(t.entries()[0]?.[1]);
        }
      }),
      { numRuns: 500 },
    );
  });
});
