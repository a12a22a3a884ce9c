import { describe, expect, it } from 'vitest';
import { BoundedMemo, cacheStats, clearCaches, hitRate, WeakMemo } from './memo';

describe('bounded memo', () => {
  it('keeps the latest `bound` entries, counts hits, misses and evictions', () => {
    const m = new BoundedMemo<string, number>('test.bounded', 2);
    expect(m.get('a')).toBeUndefined();
    m.set('a', 1);
    m.set('b', 2);
    expect(m.get('a')).toBe(1);
    m.set('c', 3); // evicts the oldest (a)
    expect(m.has('a')).toBe(false);
    expect(m.get('b')).toBe(2);
    m.set('b', 20); // overwriting evicts nothing
    expect(m.size).toBe(2);
    let computed = 0;
    expect(m.getOrCompute('d', () => ++computed)).toBe(1);
    expect(m.getOrCompute('d', () => ++computed)).toBe(1);
    expect(computed).toBe(1);
    expect(m.stats()).toEqual({
      name: 'test.bounded',
      kind: 'bounded',
      bound: 2,
      size: 2,
      hits: 3,
      misses: 2,
      evictions: 2,
    });
    expect(hitRate(m.stats())).toBeCloseTo(3 / 5);
  });

  it('caches null and false as answers (only undefined is a miss)', () => {
    const m = new BoundedMemo<string, boolean | null>('test.falsy', 4);
    let calls = 0;
    const answer = (v: boolean | null) => () => {
      calls++;
      return v;
    };
    m.getOrCompute('x', answer(null));
    m.getOrCompute('x', answer(null));
    m.getOrCompute('y', answer(false));
    m.getOrCompute('y', answer(false));
    expect(calls).toBe(2);
  });

  it('refuses a bound that is not a positive integer and a name registered twice', () => {
    expect(() => new BoundedMemo('test.zero', 0)).toThrow(/a cache bound is a positive integer/);
    new BoundedMemo('test.twice', 1);
    expect(() => new WeakMemo('test.twice')).toThrow(/a cache name is registered once/);
  });
});

describe('weak memo', () => {
  it('by object identity, counted', () => {
    const m = new WeakMemo<object, string>('test.weak');
    const k = {};
    expect(m.getOrCompute(k, () => 'v')).toBe('v');
    expect(m.getOrCompute(k, () => 'w')).toBe('v');
    expect(m.get({})).toBeUndefined();
    expect(m.stats()).toMatchObject({ kind: 'weak', bound: null, size: null, hits: 1, misses: 2 });
  });
});

describe('the registry', () => {
  it('lists every cache by name and clears them all, counters included', () => {
    const b = new BoundedMemo<string, number>('test.registry.b', 8);
    const w = new WeakMemo<object, number>('test.registry.w');
    const key = {};
    b.set('k', 1);
    b.get('k');
    w.set(key, 1);
    const names = cacheStats().map((s) => s.name);
    expect(names).toContain('test.registry.b');
    expect(names).toContain('test.registry.w');
    expect([...names].sort()).toEqual(names);
    clearCaches();
    expect(b.size).toBe(0);
    expect(b.stats()).toMatchObject({ hits: 0, misses: 0, evictions: 0 });
    expect(w.get(key)).toBeUndefined();
  });
});
