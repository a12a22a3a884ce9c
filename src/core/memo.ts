/**
 * The process-wide caches, in one place. Each memoises a pure function of immutable inputs (a
 * verified signature, a block's hash, a parsed validator set), so a hit or a miss never changes a
 * result, only its cost; nodes of one simulation ask the same questions, which is why they pay.
 *
 * Every cache is made here and registered by name: `cacheStats()` shows each one's bound, size and
 * hit rate (`lockstep run --stats`), and `clearCaches()` empties them all (between the runs of a
 * campaign worker and of tests, so no run starts warm from another's work).
 *
 * - `boundedMemo(name, bound)`: keys by value (strings); past `bound` entries the oldest goes.
 * - `weakMemo(name)`: keys by object identity; an entry lives as long as its key object. The key
 *   objects (blocks, votes, headers, store values) are shared between nodes and never mutated
 *   after they are made: that is what makes a cached answer about them stay true.
 *
 * A cached value is shared by every caller: treat it as read-only (values are typed DeepReadonly
 * where they are plain data; a cached Uint8Array is copied before it leaves a cache that hands
 * bytes out).
 */
import { assert } from './errors';

export interface CacheStats {
  readonly name: string;
  readonly kind: 'bounded' | 'weak';
  /** Entries kept at most (null: as long as their key objects live). */
  readonly bound: number | null;
  /** Entries held now (null: a weak cache cannot count them). */
  readonly size: number | null;
  readonly hits: number;
  readonly misses: number;
  readonly evictions: number;
}

interface Registered {
  stats(): CacheStats;
  clear(): void;
}

const caches = new Map<string, Registered>();

function register(name: string, cache: Registered): void {
  assert(!caches.has(name), 'a cache name is registered once', { name });
  caches.set(name, cache);
}

export class BoundedMemo<K, V> {
  private map = new Map<K, V>();
  /** Where eviction stands in `map`'s insertion order (see evictOldest). */
  private oldest: Iterator<K> | null = null;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  constructor(
    readonly name: string,
    readonly bound: number,
  ) {
    assert(Number.isSafeInteger(bound) && bound > 0, 'a cache bound is a positive integer', { name, bound });
    register(name, this);
  }

  /** The cached value, or undefined (counted as a hit or a miss). */
  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v === undefined) this.misses++;
    else this.hits++;
    return v;
  }

  /** Whether `key` is cached (not counted). */
  has(key: K): boolean {
    return this.map.has(key);
  }

  set(key: K, value: V): void {
    if (this.map.size >= this.bound && !this.map.has(key)) this.evictOldest();
    this.map.set(key, value);
  }

  /**
   * A Map keeps insertion order, so its first key is the oldest. A fresh `keys()` iterator per
   * eviction walks over every entry deleted since the table was last compacted (V8 leaves holes
   * at the front until a rehash): at a full cache of 65,536 entries that made each eviction cost
   * tens of thousands of steps. One live iterator, kept between evictions, resumes where the last
   * one stopped; it also meets the keys inserted since, in order.
   */
  private evictOldest(): void {
    for (;;) {
      this.oldest ??= this.map.keys();
      const next = this.oldest.next();
      if (next.done === true) {
        this.oldest = null;
        continue;
      }
      this.map.delete(next.value);
      this.evictions++;
      return;
    }
  }

  getOrCompute(key: K, compute: () => V): V {
    let v = this.get(key);
    if (v === undefined) {
      v = compute();
      this.set(key, v);
    }
    return v;
  }

  get size(): number {
    return this.map.size;
  }

  clear(): void {
    this.map = new Map();
    this.oldest = null;
    this.hits = 0;
    this.misses = 0;
    this.evictions = 0;
  }

  stats(): CacheStats {
    return {
      name: this.name,
      kind: 'bounded',
      bound: this.bound,
      size: this.map.size,
      hits: this.hits,
      misses: this.misses,
      evictions: this.evictions,
    };
  }
}

export class WeakMemo<K extends object, V> {
  private map = new WeakMap<K, V>();
  private hits = 0;
  private misses = 0;

  constructor(readonly name: string) {
    register(name, this);
  }

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v === undefined) this.misses++;
    else this.hits++;
    return v;
  }

  set(key: K, value: V): void {
    this.map.set(key, value);
  }

  getOrCompute(key: K, compute: () => V): V {
    let v = this.get(key);
    if (v === undefined) {
      v = compute();
      this.map.set(key, v);
    }
    return v;
  }

  clear(): void {
    this.map = new WeakMap();
    this.hits = 0;
    this.misses = 0;
  }

  stats(): CacheStats {
    return {
      name: this.name,
      kind: 'weak',
      bound: null,
      size: null,
      hits: this.hits,
      misses: this.misses,
      evictions: 0,
    };
  }
}

export function boundedMemo<K, V>(name: string, bound: number): BoundedMemo<K, V> {
  return new BoundedMemo<K, V>(name, bound);
}

export function weakMemo<K extends object, V>(name: string): WeakMemo<K, V> {
  return new WeakMemo<K, V>(name);
}

/** Every registered cache's numbers, by name. */
export function cacheStats(): CacheStats[] {
  return [...caches.values()].map((c) => c.stats()).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Empty every registered cache and zero its counters (between runs; never changes a result). */
export function clearCaches(): void {
  for (const c of caches.values()) c.clear();
}

/** A cache's hit rate in [0, 1], or null before its first lookup. */
export function hitRate(s: CacheStats): number | null {
  const n = s.hits + s.misses;
  return n === 0 ? null : s.hits / n;
}
