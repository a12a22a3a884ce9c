import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type HeadRef, compareHeads, preferredHead } from './forkChoice';
import { type Hex } from '../core/bytes';

// Small domains so that ties on TD, on number and on both are common.
const head: fc.Arbitrary<HeadRef> = fc.record({
  td: fc.bigInt({ min: 0n, max: 4n }),
  number: fc.bigInt({ min: 0n, max: 4n }),
  hash: fc.constantFrom('00', '01', '7f', '80', 'ff').map((b) => `0x${b.repeat(32)}` as Hex),
});
const same = (a: HeadRef, b: HeadRef) => a.td === b.td && a.number === b.number && a.hash === b.hash;

describe('compareHeads is a strict total order consistent with TD', () => {
  it('antisymmetric, and 0 only for the same head', () => {
    fc.assert(
      fc.property(head, head, (a, b) => {
        expect(compareHeads(a, b)).toBe(-compareHeads(b, a) || 0);
        expect(compareHeads(a, b) === 0).toBe(same(a, b));
      }),
      { numRuns: 500 },
    );
  });
  it('transitive', () => {
    fc.assert(
      fc.property(head, head, head, (a, b, c) => {
        if (compareHeads(a, b) > 0 && compareHeads(b, c) > 0) expect(compareHeads(a, c)).toBe(1);
        if (compareHeads(a, b) >= 0 && compareHeads(b, c) >= 0) expect(compareHeads(a, c)).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 1000 },
    );
  });
  it('consistent with TD: the heavier head always wins', () => {
    fc.assert(
      fc.property(head, head, (a, b) => {
        if (a.td > b.td) expect(compareHeads(a, b)).toBe(1);
      }),
      { numRuns: 500 },
    );
  });
  it('every node picks the same best head, whatever order it saw them in', () => {
    fc.assert(
      fc.property(fc.array(head, { minLength: 1, maxLength: 8 }), fc.nat(), (heads, rot) => {
        const best = heads.reduce((x, y) => preferredHead(x, y));
        const k = rot % heads.length;
        const rotated = [...heads.slice(k), ...heads.slice(0, k)].reverse();
        expect(
          same(
            rotated.reduce((x, y) => preferredHead(x, y)),
            best,
          ),
        ).toBe(true);
      }),
    );
  });
});
