/**
 * The seeded sample of the population, and its shards. The population is put in a canonical order
 * (by identity) and shuffled with seedrandom from the seed, so the same code, seed and size give
 * the same sample on every machine; a shard I/N takes the sampled mutants at positions
 * I-1, I-1+N, … of the sample, so N shards cover the sample exactly once.
 */
import seedrandom from 'seedrandom';
import { type MutantInfo } from './population';
import { InputError } from '../../src/core/errors';

export const DEFAULT_SAMPLE_SIZE = 120;
export const DEFAULT_SAMPLE_SEED = 1;

function byKey(a: MutantInfo, b: MutantInfo): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** `size` mutants drawn without replacement (all of them when size >= the population). */
export function drawSample(population: readonly MutantInfo[], size: number, seed: number): MutantInfo[] {
  const order = [...population].sort(byKey);
  const rng = seedrandom(`lockstep-mutation/${seed}`);
  // Fisher-Yates, stopped after the first `size` places.
  const n = Math.min(size, order.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(rng() * (order.length - i));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order.slice(0, n);
}

export interface Shard {
  index: number;
  count: number;
}

export function parseShard(text: string, field = '--shard'): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) throw new InputError(field, `expected I/N (e.g. 2/4), got ${JSON.stringify(text)}`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count)
    throw new InputError(field, `expected 1 <= I <= N, got ${index}/${count}`);
  return { index, count };
}

/** The sampled mutants of one shard, in sample order. */
export function shardOf<T>(sample: readonly T[], shard: Shard): T[] {
  return sample.filter((_, i) => i % shard.count === shard.index - 1);
}
