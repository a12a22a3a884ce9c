/**
 * The explorer's corpus: the runs that reached something new (a feature no earlier run showed,
 * features.ts), kept to be mutated, as coverage-guided fuzzers keep their inputs. Each entry is a
 * scenario and its seed, with the features it showed; a run's chance to be picked as a parent grows
 * with the rarity of its features (each counts 1 / the runs that showed it, as AFLFast and
 * libFuzzer's entropic schedule weigh rare edges) and shrinks with its cost (simulated minutes
 * times the square of the set's size: what a run costs, as far as the simulation can tell without
 * a clock, so the choice is the same on every machine).
 *
 * A corpus is saved as one JSON file (`corpus.json`: scenario files as `lockstep run` reads them,
 * seeds and features) and reloaded by a later campaign, which runs every entry again first: its
 * features are recomputed on the code of the day, and an entry that fails now is a failure found.
 * Corpora of several shards merge into one (the union, then the smallest set of entries, cheapest
 * first, that shows every feature any of them showed).
 */
import { createHash } from 'node:crypto';
import { InputError } from '../../../src/core/errors';
import { type Rng } from '../../env/rng';
import { type Scenario } from '../../scenario/scenario';
import { decodeScenario } from '../../scenario/decodeScenario';
import { encodeScenario } from '../../scenario/encodeScenario';

export const CORPUS_KIND = 'lockstep-fuzz-corpus';
export const CORPUS_FILE = 'corpus.json';
/** A corpus holds at most this many entries; beyond, the least useful go (cull). */
export const MAX_CORPUS_ENTRIES = 400;

export interface CorpusEntry {
  /** Where it came from: `run-<id>` of the campaign that kept it, or the loaded entry's own id. */
  id: string;
  scenario: Scenario;
  seed: number;
  /** The features it showed (sorted). */
  features: string[];
}

export interface CorpusFile {
  kind: typeof CORPUS_KIND;
  version: string;
  commit: string | null;
  entries: Array<{ id: string; seed: number; features: string[]; scenario: Record<string, unknown> }>;
}

/** What a run costs, in units of a 10-minute run of a small set (no clock: the same everywhere). */
export function costUnits(s: Scenario): number {
  const n = s.validators.length;
  return (((s.durationMs / 600_000) * Math.max(16, n * n)) / 25) * (s.crypto === 'real' ? 3 : 1);
}

/** A run's identity: its scenario file and seed (two entries with the same are one). */
export function entryKey(scenario: Scenario, seed: number): string {
  return createHash('sha256')
    .update(JSON.stringify(encodeScenario({ ...scenario, name: 'explore', description: '' })))
    .update(`\n${seed}`)
    .digest('hex')
    .slice(0, 16);
}

export class Corpus {
  readonly entries: CorpusEntry[] = [];
  /** Feature → how many runs showed it (every run ingested, kept or not). */
  readonly seen = new Map<string, number>();
  private readonly keys = new Set<string>();

  /**
   * Count a run's features; keep it when it showed one no earlier run did. Returns the new
   * features (empty: not kept).
   */
  consider(entry: CorpusEntry): string[] {
    const fresh = entry.features.filter((f) => !this.seen.has(f));
    for (const f of entry.features) this.seen.set(f, (this.seen.get(f) ?? 0) + 1);
    const key = entryKey(entry.scenario, entry.seed);
    if (fresh.length === 0 || this.keys.has(key)) return [];
    this.keys.add(key);
    this.entries.push(entry);
    if (this.entries.length > MAX_CORPUS_ENTRIES) this.cull(MAX_CORPUS_ENTRIES);
    return fresh;
  }

  /** Put back a saved state: its entries and feature counts (a resumed campaign). */
  restore(entries: readonly CorpusEntry[], seen: Iterable<[string, number]>): void {
    this.entries.splice(0, this.entries.length, ...entries);
    this.keys.clear();
    for (const e of entries) this.keys.add(entryKey(e.scenario, e.seed));
    this.seen.clear();
    for (const [f, n] of seen) this.seen.set(f, n);
  }

  /** An entry's weight as a parent: the rarity of its features over the square root of its cost. */
  energy(e: CorpusEntry): number {
    let rarity = 0;
    for (const f of e.features) rarity += 1 / (this.seen.get(f) ?? 1);
    return rarity / Math.sqrt(costUnits(e.scenario));
  }

  /** A parent, by energy (null when the corpus is empty). */
  pick(rng: Rng): CorpusEntry | null {
    if (!this.entries.length) return null;
    const weights = this.entries.map((e) => this.energy(e));
    const total = weights.reduce((a, b) => a + b, 0);
    let u = rng.float() * total;
    for (let i = 0; i < weights.length; i++) {
      u -= weights[i]!;
      if (u < 0) return this.entries[i]!;
    }
    return this.entries[this.entries.length - 1]!;
  }

  /**
   * Keep at most `max` entries: first a small cover of every feature (greedy: the entry adding the
   * most uncovered features per unit of cost, ties by id), then the others by energy while there
   * is room.
   */
  cull(max: number): void {
    const cover = coverOf(this.entries).slice(0, max);
    const inCover = new Set(cover.map((e) => e.id));
    const rest = this.entries
      .filter((e) => !inCover.has(e.id))
      .map((e) => ({ e, w: this.energy(e) }))
      .sort((a, b) => b.w - a.w || (a.e.id < b.e.id ? -1 : 1))
      .map((x) => x.e);
    const kept = [...cover, ...rest].slice(0, max);
    const ids = new Set(kept.map((e) => e.id));
    const out = this.entries.filter((e) => ids.has(e.id));
    this.entries.splice(0, this.entries.length, ...out);
    this.keys.clear();
    for (const e of out) this.keys.add(entryKey(e.scenario, e.seed));
  }
}

/** The greedy cover of every feature the entries show, in the order chosen. */
export function coverOf(entries: readonly CorpusEntry[]): CorpusEntry[] {
  const uncovered = new Set(entries.flatMap((e) => e.features));
  const left = [...entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const out: CorpusEntry[] = [];
  while (uncovered.size && left.length) {
    let best = -1;
    let bestScore = 0;
    for (let i = 0; i < left.length; i++) {
      const gain = left[i]!.features.reduce((n, f) => n + (uncovered.has(f) ? 1 : 0), 0);
      const score = gain / costUnits(left[i]!.scenario);
      if (gain > 0 && score > bestScore) {
        best = i;
        bestScore = score;
      }
    }
    if (best < 0) break;
    const [e] = left.splice(best, 1);
    for (const f of e!.features) uncovered.delete(f);
    out.push(e!);
  }
  return out;
}

export function corpusFile(
  entries: readonly CorpusEntry[],
  build: { version: string; commit: string | null },
): CorpusFile {
  return {
    kind: CORPUS_KIND,
    version: build.version,
    commit: build.commit,
    entries: entries.map((e) => ({
      id: e.id,
      seed: e.seed,
      features: e.features,
      scenario: encodeScenario(e.scenario),
    })),
  };
}

/**
 * A saved corpus, read: entries whose scenario no longer decodes (a file written by another
 * version of the format) are left out and counted, not fatal: a CI cache may hold an old corpus.
 */
export function readCorpus(where: string, value: unknown): { entries: CorpusEntry[]; dropped: string[] } {
  const o = value as Partial<CorpusFile> | null;
  if (o === null || typeof o !== 'object' || o.kind !== CORPUS_KIND || !Array.isArray(o.entries))
    throw new InputError(where, `not a fuzz corpus (no "kind": "${CORPUS_KIND}")`);
  const entries: CorpusEntry[] = [];
  const dropped: string[] = [];
  for (const [i, e] of o.entries.entries()) {
    try {
      if (!Number.isSafeInteger(e.seed) || !Array.isArray(e.features)) throw new Error('seed or features missing');
      entries.push({
        id: String(e.id ?? `entry-${i}`),
        seed: e.seed,
        features: [...e.features].sort(),
        scenario: decodeScenario(e.scenario),
      });
    } catch (err) {
      dropped.push(`entries[${i}] (${String(e?.id)}): ${(err as Error).message}`);
    }
  }
  return { entries, dropped };
}

/** Several corpora as one: the union (one entry per run), then the cover of every feature. */
export function mergeCorpora(parts: ReadonlyArray<readonly CorpusEntry[]>, max = MAX_CORPUS_ENTRIES): CorpusEntry[] {
  const byKey = new Map<string, CorpusEntry>();
  for (const part of parts)
    for (const e of part) {
      const k = entryKey(e.scenario, e.seed);
      if (!byKey.has(k)) byKey.set(k, e);
    }
  return coverOf([...byKey.values()]).slice(0, max);
}
