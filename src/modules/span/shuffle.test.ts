import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { toHex } from '../../core/bytes';
import { InputError } from '../../core/errors';
import { computeUnshuffledIndices, shuffleInPlace, shuffleList } from './shuffle';
import { computeShuffledIndex, shuffleListSimple } from './testing/shuffleReference';

/** A 32-byte seed: the given bytes followed by zeros (heimdall.md §10.4). */
function seedOf(...prefix: number[]): Uint8Array {
  const s = new Uint8Array(32);
  s.set(prefix);
  return s;
}

/** A deterministic 32-byte seed per n, so every list size gets a different one. */
function seedFor(n: number): Uint8Array {
  const s = new Uint8Array(32);
  for (let i = 0; i < 32; i++) s[i] = (n * 131 + i * 29 + ((n >> 3) ^ i)) & 0xff;
  return s;
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe('shuffleList', () => {
  it('heimdall.md §10.4 vectors: [0..9] with seeds {1,128,12,0…} and {2,128,12,0…}', () => {
    expect(shuffleList(range(10), seedOf(1, 128, 12))).toEqual([0, 7, 8, 6, 3, 9, 4, 5, 2, 1]);
    expect(shuffleList(range(10), seedOf(2, 128, 12))).toEqual([0, 5, 2, 1, 6, 8, 7, 3, 4, 9]);
    // The seed may be given as 0x hex.
    expect(shuffleList(range(10), toHex(seedOf(1, 128, 12)))).toEqual([0, 7, 8, 6, 3, 9, 4, 5, 2, 1]);
  });

  it('semantics: out[computeShuffledIndex(i)] = in[i] (plain per-index definition, §10.4 seed)', () => {
    const seed = seedOf(1, 128, 12);
    const input = range(10).map((i) => `v${i}`);
    const out = new Array<string>(10);
    for (const [i, v] of input.entries()) out[computeShuffledIndex(i, 10, seed)] = v;
    expect(shuffleList(input, seed)).toEqual(out);
  });

  it('the optimised loop equals the per-index definition for n = 2..300', () => {
    for (let n = 2; n <= 300; n++) {
      const list = range(n);
      const seed = seedFor(n);
      expect(shuffleList(list, seed), `n=${n}`).toEqual(shuffleListSimple(list, seed));
    }
  });

  it('the optimised loop equals the per-index definition across 256-position hash blocks (n up to 3000)', () => {
    for (const n of [255, 256, 257, 511, 512, 513, 1000, 1024, 1025, 2049, 3000]) {
      const seed = seedFor(n);
      expect(shuffleList(range(n), seed), `n=${n}`).toEqual(shuffleListSimple(range(n), seed));
    }
  });

  it('the cached per-index reference agrees with the plain computeShuffledIndex', () => {
    for (const n of [2, 3, 17, 300, 1000]) {
      const seed = seedFor(n);
      const simple = shuffleListSimple(range(n), seed);
      for (const i of [0, 1, n >> 1, n - 1]) expect(simple[computeShuffledIndex(i, n, seed)], `n=${n} i=${i}`).toBe(i);
    }
  });

  it('is a permutation, and does not mutate its input (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer(), { maxLength: 600 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (list, seed) => {
          const before = list.slice();
          const out = shuffleList(list, seed);
          expect(list).toEqual(before);
          expect(out).not.toBe(list);
          const bySorted = (a: number, b: number): number => a - b;
          expect(out.slice().sort(bySorted)).toEqual(before.slice().sort(bySorted));
          expect(out).toEqual(shuffleListSimple(list, seed));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('lists of length 0 and 1 come back as copies, unchanged', () => {
    const empty: number[] = [];
    const one = [42];
    expect(shuffleList(empty, seedOf(1))).toEqual([]);
    expect(shuffleList(empty, seedOf(1))).not.toBe(empty);
    expect(shuffleList(one, seedOf(1))).toEqual([42]);
    expect(shuffleList(one, seedOf(1))).not.toBe(one);
  });

  it('different seeds give different orders (Heimdall TestShuffleList)', () => {
    expect(shuffleList(range(10), seedOf(1, 128, 12))).not.toEqual(shuffleList(range(10), seedOf(2, 128, 12)));
  });

  it('works in place on typed arrays too', () => {
    const typed = Uint32Array.from(range(10));
    expect(shuffleInPlace(typed, seedOf(2, 128, 12))).toBe(typed);
    expect(Array.from(typed)).toEqual([0, 5, 2, 1, 6, 8, 7, 3, 4, 9]);
  });

  it('rejects a seed that is not exactly 32 bytes, naming `seed`', () => {
    for (const bad of [new Uint8Array(31), new Uint8Array(33), '0x1234', 'zz']) {
      expect(() => shuffleList([1, 2, 3], bad)).toThrow(InputError);
      expect(() => shuffleList([1, 2, 3], bad)).toThrow(/^seed: /);
      expect(() => shuffleList([], bad)).toThrow(/^seed: /);
    }
  });

  it('computeUnshuffledIndices inverts the shuffle: shuffleList(list)[p] = list[unshuffled(p)]', () => {
    for (const n of [1, 2, 3, 10, 255, 256, 257, 1000, 4097]) {
      const seed = seedFor(n);
      const out = shuffleList(range(n), seed);
      const positions = [...new Set([0, 1 % n, 2 % n, 3 % n, n >> 1, n - 1])];
      const inputs = computeUnshuffledIndices(positions, n, seed);
      for (const [k, p] of positions.entries()) expect(inputs[k], `n=${n} p=${p}`).toBe(out[p]);
      for (const p of positions) expect(computeShuffledIndex(inputs[positions.indexOf(p)]!, n, seed)).toBe(p);
    }
    expect(() => computeUnshuffledIndices([3], 3, seedOf(1))).toThrow(/^positions\[0\]: /);
    expect(() => computeUnshuffledIndices([0], 0, seedOf(1))).toThrow(/^n: /);
  });

  it('computeShuffledIndex validates its arguments', () => {
    expect(() => computeShuffledIndex(3, 3, seedOf(1))).toThrow(/^index: /);
    expect(() => computeShuffledIndex(0, 0, seedOf(1))).toThrow(/^n: /);
  });

  it('shuffles 1,000,000 slots (the benchmark size) into a permutation', () => {
    const n = 1_000_000;
    const slots = new Uint32Array(n);
    for (let i = 0; i < n; i++) slots[i] = i;
    shuffleInPlace(slots, seedOf(7));
    const seen = new Uint8Array(n);
    for (let i = 0; i < n; i++) seen[slots[i]!] = 1;
    expect(seen.every((b) => b === 1)).toBe(true);
  });
});
