/**
 * The corpus: a run is kept only when it shows a feature no earlier run did; a saved corpus reads
 * back the same (and a bad entry is left out, named); merging corpora keeps one entry per run and
 * every feature any of them showed; culling keeps the cover of every feature.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../env/rng';
import { Corpus, type CorpusEntry, corpusFile, coverOf, entryKey, mergeCorpora, readCorpus } from './corpus';
import { freshScenario } from './explorer';

function entry(i: number, features: string[]): CorpusEntry {
  const scenario = freshScenario(Rng.forSeed(`corpus-test/${i}`));
  return { id: entryKey(scenario, i), scenario, seed: i, features: [...features].sort() };
}

const build = { version: '0.0.0', commit: null };

describe('corpus', () => {
  it('keeps what is new, counts everything', () => {
    const c = new Corpus();
    expect(c.consider(entry(1, ['a', 'b']))).toEqual(['a', 'b']);
    expect(c.consider(entry(2, ['a']))).toEqual([]);
    expect(c.consider(entry(3, ['b', 'c']))).toEqual(['c']);
    expect(c.entries.map((e) => e.seed)).toEqual([1, 3]);
    expect(c.seen.get('a')).toBe(2);
    // The rarer features weigh more.
    expect(c.energy(c.entries[1]!) * Math.sqrt(1)).toBeGreaterThan(0);
  });

  it('reads back what it saved; a bad entry is left out and named', () => {
    const entries = [entry(1, ['a']), entry(2, ['b', 'c'])];
    const file = JSON.parse(JSON.stringify(corpusFile(entries, build)));
    expect(readCorpus('x', file)).toEqual({ entries, dropped: [] });
    file.entries[1].scenario.params.sprint = 'sixteen';
    const back = readCorpus('x', file);
    expect(back.entries).toEqual([entries[0]]);
    expect(back.dropped[0]).toMatch(/^entries\[1\].*params\.sprint/);
    expect(() => readCorpus('x', { kind: 'other' })).toThrow(/not a fuzz corpus/);
  });

  it('merges shards into one entry per run covering every feature; culls to the cover', () => {
    const a = [entry(1, ['a', 'b']), entry(2, ['c'])];
    const b = [entry(1, ['a', 'b']), entry(3, ['b']), entry(4, ['d'])];
    const merged = mergeCorpora([a, b]);
    expect(new Set(merged.flatMap((e) => e.features))).toEqual(new Set(['a', 'b', 'c', 'd']));
    // Run 1 is in both shards: one entry. Every entry kept adds a feature the others lack.
    const seeds = merged.map((e) => e.seed);
    expect(new Set(seeds).size).toBe(seeds.length);
    for (const e of merged) {
      const others = new Set(merged.filter((x) => x !== e).flatMap((x) => x.features));
      expect(e.features.some((f) => !others.has(f)) || coverOf(merged).includes(e)).toBe(true);
    }
    expect(merged.length).toBeLessThanOrEqual(4);
    const c = new Corpus();
    for (const e of [...a, ...b.slice(1)]) c.consider(e);
    c.cull(3);
    expect(new Set(c.entries.flatMap((e) => e.features))).toEqual(new Set(['a', 'b', 'c', 'd']));
  });
});
