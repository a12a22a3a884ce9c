/**
 * Seeded random streams (seedrandom's Alea). Each stream is named by a path derived from the run
 * seed (`lockstep/42`, `lockstep/42/net`, `lockstep/42/node:3`): `fork(name)` depends only on the
 * parent's path, never on how many numbers the parent has drawn, so one extra draw in one
 * subsystem does not reshuffle any other.
 */
import seedrandom from 'seedrandom';
import { assert } from '../../src/core/errors';
import { type AleaState } from './streamSlab';

export class Rng {
  private readonly prng: seedrandom.PRNG;

  constructor(readonly path: string) {
    this.prng = seedrandom.alea(path);
  }

  static forSeed(seed: number | bigint | string): Rng {
    return new Rng(`lockstep/${String(seed)}`);
  }

  fork(name: string): Rng {
    assert(name.length > 0 && !name.includes('/'), 'rng stream names are non-empty and have no "/"', { name });
    return new Rng(`${this.path}/${name}`);
  }

  /** The starting state of the stream `fork(name)` would give (for StreamSlab). */
  forkState(name: string): AleaState {
    assert(name.length > 0 && !name.includes('/'), 'rng stream names are non-empty and have no "/"', { name });
    return seedrandom.alea(`${this.path}/${name}`, { state: true }).state() as AleaState;
  }

  /** Uniform in [0, 1), 53 bits. */
  float(): number {
    return this.prng.double();
  }

  /** Uniform integer in [min, max] (inclusive). */
  int(min: number, max: number): number {
    // Checked before building the assert's context: this runs for every message sent.
    if (!(Number.isSafeInteger(min) && Number.isSafeInteger(max) && min <= max))
      assert(false, 'rng.int bounds', { min, max });
    return min + Math.floor(this.prng.double() * (max - min + 1));
  }

  uint32(): number {
    return this.prng.int32() >>> 0;
  }

  bool(probability = 0.5): boolean {
    return this.prng.double() < probability;
  }

  pick<T>(items: readonly T[]): T {
    assert(items.length > 0, 'rng.pick needs a non-empty list');
    return items[this.int(0, items.length - 1)]!;
  }

  /** A shuffled copy (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      const t = out[i]!;
      out[i] = out[j]!;
      out[j] = t;
    }
    return out;
  }

  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i += 4) {
      let v = this.uint32();
      for (let k = 0; k < 4 && i + k < length; k++) {
        out[i + k] = v & 0xff;
        v >>>= 8;
      }
    }
    return out;
  }
}
