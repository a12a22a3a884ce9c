import { describe, expect, it } from 'vitest';
import { Rng } from './rng';

describe('Rng streams', () => {
  it('same path, same numbers', () => {
    const a = Rng.forSeed(42).fork('net');
    const b = Rng.forSeed(42).fork('net');
    expect(Array.from({ length: 10 }, () => a.float())).toEqual(Array.from({ length: 10 }, () => b.float()));
  });
  it('a fork does not depend on the parent having drawn', () => {
    const a = Rng.forSeed(1);
    const b = Rng.forSeed(1);
    b.float();
    b.float();
    expect(a.fork('node:3').uint32()).toBe(b.fork('node:3').uint32());
  });
  it('different names and seeds give different streams', () => {
    expect(Rng.forSeed(1).fork('a').uint32()).not.toBe(Rng.forSeed(1).fork('b').uint32());
    expect(Rng.forSeed(1).fork('a').uint32()).not.toBe(Rng.forSeed(2).fork('a').uint32());
  });
  it('int is inclusive and in range; shuffle is a permutation', () => {
    const r = Rng.forSeed(9);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const v = r.int(3, 6);
      expect(v >= 3 && v <= 6).toBe(true);
      seen.add(v);
    }
    expect(seen.size).toBe(4);
    const s = r.shuffle([1, 2, 3, 4, 5, 6]);
    expect([...s].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6]);
  });
  it('names with a slash are refused', () => {
    expect(() => Rng.forSeed(1).fork('a/b')).toThrow();
  });
});
