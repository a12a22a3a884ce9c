/**
 * The hunt bench's population: every planted bug (src/core/plants.ts), and a seeded sample of the
 * mutation bench's Stryker logic mutants restricted to those the unit tests detect (killed or timed
 * out by Stryker's run of the unit project: unitStage.ts). The mutants are taken in the order of
 * the mutation bench's own shuffle for the seed (sample.ts: its sample of K is the first K here),
 * and examined a chunk at a time until `sample` unit-detected ones are found, so the population
 * depends on the code and the seed only.
 *
 * Stryker's unit run costs seconds per mutant; its verdicts are cached (unitCache.ts) by the
 * mutant's identity, the content of its file and the content of the unit tests, and a later hunt
 * on unchanged code reuses them.
 */
import { type PlantName, PLANTS, PLANT_NAMES, plantGuards } from '../../src/core/plants';
import { type MutantInfo, instrument, targetFiles } from '../mutation/population';
import { drawSample } from '../mutation/sample';
import { populationHash } from '../mutation/results';
import { type UnitResult, runUnitStage } from '../mutation/unitStage';
import { UnitCache } from './unitCache';

export type Bug =
  | { type: 'plant'; key: string; plant: PlantName; rule: string; guards: readonly string[] }
  | { type: 'mutant'; key: string; mutant: MutantInfo; unit: UnitResult };

export interface PopulationInfo {
  populationSize: number;
  populationHash: string;
  /** Mutants looked at in the shuffle's order to find the sample, and how many the unit stage ran now. */
  examined: number;
  unitRan: number;
  unitCached: number;
}

export function plantBugs(names: readonly PlantName[] = PLANT_NAMES): Bug[] {
  return names.map((plant) => ({
    type: 'plant',
    key: `plant:${plant}`,
    plant,
    rule: PLANTS[plant].rule,
    guards: plantGuards(plant),
  }));
}

const detected = (u: UnitResult | undefined) => u?.status === 'killed' || u?.status === 'timeout';

export interface DrawOptions {
  root: string;
  seed: number;
  /** Unit-detected mutants wanted. */
  sample: number;
  workers: number;
  cacheFile: string;
  tty: boolean;
  say: (line: string) => void;
  /** Ignore the cache (every verdict measured again). */
  fresh?: boolean;
}

export async function unitDetectedSample(o: DrawOptions): Promise<{ mutants: Bug[]; info: PopulationInfo }> {
  const population = (await instrument(o.root, targetFiles(o.root))).mutants.map(({ strykerId: _, ...m }) => m);
  const order = drawSample(population, population.length, o.seed);
  const cache = new UnitCache(o.root, o.cacheFile, o.fresh === true);
  const out: Bug[] = [];
  let examined = 0;
  let unitRan = 0;
  let unitCached = 0;
  while (out.length < o.sample && examined < order.length) {
    // Most sampled mutants are unit-detected (about 70%): ask for a little more than is missing.
    const want = o.sample - out.length;
    const chunk = order.slice(examined, examined + Math.max(8, Math.ceil(want * 1.6)));
    const missing = chunk.filter((m) => cache.get(m) === undefined);
    unitCached += chunk.length - missing.length;
    if (missing.length) {
      o.say(`hunt: unit stage: Stryker on ${missing.length} mutants (${chunk.length - missing.length} cached)…`);
      const results = await runUnitStage(missing, { root: o.root, workers: o.workers, tty: o.tty });
      for (const m of missing) cache.set(m, results.get(m.key)!);
      cache.save();
      unitRan += missing.length;
    }
    for (const m of chunk) {
      examined++;
      const u = cache.get(m);
      if (detected(u)) out.push({ type: 'mutant', key: m.key, mutant: m, unit: u! });
      if (out.length === o.sample) break;
    }
  }
  return {
    mutants: out,
    info: {
      populationSize: population.length,
      populationHash: populationHash(population),
      examined,
      unitRan,
      unitCached,
    },
  };
}
