import { describe, expect, it } from 'vitest';
import { type MutantInfo, mutantKey } from './population';
import { drawSample, parseShard, shardOf } from './sample';

function mutant(i: number): MutantInfo {
  const base = {
    file: `src/modules/m${i % 7}.ts`,
    start: { line: i, column: 2 },
    end: { line: i, column: 9 },
    mutator: 'EqualityOperator',
    replacement: `a <= ${i}`,
  };
  return { ...base, key: mutantKey(base), folder: 'src/modules', original: `a < ${i}` };
}

const population = Array.from({ length: 500 }, (_, i) => mutant(i));

describe('the seeded sample', () => {
  it('is the same for the same seed, whatever order the population comes in', () => {
    const a = drawSample(population, 40, 3).map((m) => m.key);
    const b = drawSample([...population].reverse(), 40, 3).map((m) => m.key);
    expect(b).toEqual(a);
    expect(new Set(a).size).toBe(40);
  });

  it('differs with the seed, and takes everything when the size exceeds the population', () => {
    expect(drawSample(population, 40, 4).map((m) => m.key)).not.toEqual(
      drawSample(population, 40, 3).map((m) => m.key),
    );
    expect(drawSample(population, 9_999, 1)).toHaveLength(500);
  });

  it('splits into shards that cover it exactly once', () => {
    const sample = drawSample(population, 37, 1);
    const shards = [1, 2, 3, 4].map((index) => shardOf(sample, { index, count: 4 }));
    expect(
      shards
        .flat()
        .map((m) => m.key)
        .sort(),
    ).toEqual(sample.map((m) => m.key).sort());
    expect(shards.map((s) => s.length)).toEqual([10, 9, 9, 9]);
  });

  it('refuses a malformed shard, naming the flag', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(() => parseShard('5/4')).toThrow('--shard: expected 1 <= I <= N, got 5/4');
    expect(() => parseShard('two')).toThrow('--shard: expected I/N');
  });
});
