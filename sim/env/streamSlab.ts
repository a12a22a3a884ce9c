/**
 * Many seeded streams in one Float64Array: the network keeps one per sender for its links, so a
 * broadcast draws its latencies from adjacent memory instead of from a hundred separate
 * generator objects.
 *
 * Each stream is seedrandom's Alea (the generator Rng uses) started from the state Rng would start
 * from for the same path, and stepped with the same arithmetic, so a stream of the slab yields
 * exactly the numbers the Rng of that path would (a test checks it draw by draw).
 */
import { assert } from '../../src/core/errors';

/** Alea's state: s0, s1, s2, c. */
export interface AleaState {
  s0: number;
  s1: number;
  s2: number;
  c: number;
}

export class StreamSlab {
  private state = new Float64Array(4 * 16);
  private count = 0;

  /** Add a stream starting at `s`; returns its index. */
  add(s: AleaState): number {
    if (4 * (this.count + 1) > this.state.length) {
      const grown = new Float64Array(this.state.length * 2);
      grown.set(this.state);
      this.state = grown;
    }
    const o = 4 * this.count;
    this.state[o] = s.s0;
    this.state[o + 1] = s.s1;
    this.state[o + 2] = s.s2;
    this.state[o + 3] = s.c;
    return this.count++;
  }

  /** Alea's `next()`: a uniform float with 32 bits of randomness. */
  private next(o: number): number {
    const st = this.state;
    const t = 2091639 * st[o]! + st[o + 3]! * 2.3283064365386963e-10; // 2^-32
    st[o] = st[o + 1]!;
    st[o + 1] = st[o + 2]!;
    const c = t | 0;
    st[o + 3] = c;
    const r = t - c;
    st[o + 2] = r;
    return r;
  }

  /** Uniform in [0, 1), 53 bits (Rng.float). */
  float(stream: number): number {
    const o = 4 * stream;
    return this.next(o) + ((this.next(o) * 0x200000) | 0) * 1.1102230246251565e-16; // 2^-53
  }

  /** Uniform integer in [min, max] (Rng.int). */
  int(stream: number, min: number, max: number): number {
    if (!(Number.isSafeInteger(min) && Number.isSafeInteger(max) && min <= max))
      assert(false, 'rng.int bounds', { min, max });
    return min + Math.floor(this.float(stream) * (max - min + 1));
  }

  /** True with `probability` (Rng.bool). */
  bool(stream: number, probability: number): boolean {
    return this.float(stream) < probability;
  }
}
