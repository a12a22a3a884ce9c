/**
 * `npm run bench -- hunt reach`: which feedback pays, measured without any bug. Every logic mutant
 * of the target folders is put in the code behind its switch (switched off), and each campaign
 * variant runs on the unmodified code for a CPU budget; a run's coverage is the set of mutant
 * switches its code passed (Stryker's counters), i.e. the places of the code it executed where a
 * logic slip could be. The yardstick is that union over the campaign against the CPU-seconds spent:
 * code reached per CPU-second, the same for every variant and blind to any sample of mutants.
 *
 * Variants: the swarm (its default length, and 10 minutes), the explorer's space alone (fresh
 * draws, no corpus), and the guided explorer with all its feature families or with one family
 * left out or on its own.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { instrument, targetFiles } from '../mutation/population';
import { removeEmptyTmp, removeTree, runTmpDir, writeInstrumentedTree } from '../mutation/instrumentedTree';
import { newPool, runOn } from '../mutation/oracleStage';
import { type OracleRunResult } from '../mutation/oracleTask';
import { type GuidedVariant, type RunSource, guidedSource, swarmSource } from './strategies';
import { FEATURE_FAMILIES } from '../../sim/campaign/explore/features';

export interface ReachVariant {
  name: string;
  make(campaignSeed: number): RunSource;
}

function explorerVariant(name: string, opts: GuidedVariant): ReachVariant {
  return { name, make: (campaignSeed) => guidedSource(campaignSeed, opts) };
}

function swarmVariant(name: string, durationMs: number): ReachVariant {
  return { name, make: () => swarmSource(durationMs) };
}

export function reachVariants(): ReachVariant[] {
  return [
    swarmVariant('swarm (2h seeds)', 7_200_000),
    swarmVariant('swarm (10m seeds)', 600_000),
    explorerVariant('space alone (fresh draws)', { fresh: true }),
    explorerVariant('guided: all features', {}),
    ...FEATURE_FAMILIES.map((f) =>
      explorerVariant(`guided: without ${f}`, { families: FEATURE_FAMILIES.filter((x) => x !== f) }),
    ),
    explorerVariant('guided: rules only', { families: ['rule'] }),
  ];
}

export interface ReachPoint {
  cpuS: number;
  runs: number;
  reached: number;
}

export interface ReachCurve {
  variant: string;
  campaignSeed: number;
  points: ReachPoint[];
  failures: number;
}

/** Every variant for `budgetS` CPU-seconds per campaign seed, `workers` campaigns at a time. */
export async function measureReach(o: {
  root: string;
  budgetS: number;
  seeds: number[];
  workers: number;
  variants: ReachVariant[];
  onCurve?: (c: ReachCurve, total: number) => void;
}): Promise<{ curves: ReachCurve[]; mutants: number }> {
  const instrumented = await instrument(o.root, targetFiles(o.root));
  const tmp = join(o.root, runTmpDir());
  mkdirSync(tmp, { recursive: true });
  const tree = mkdtempSync(join(tmp, 'reach-'));
  writeInstrumentedTree(o.root, tree, instrumented.files);
  const pool = newPool(tree, o.workers);
  const tasks = o.variants.flatMap((v) => o.seeds.map((s) => ({ v, s })));
  const curves: ReachCurve[] = [];
  let next = 0;
  try {
    const loop = async (): Promise<void> => {
      for (let i = next++; i < tasks.length; i = next++) {
        const { v, s } = tasks[i]!;
        const source = v.make(s);
        const covered = new Set<string>();
        const points: ReachPoint[] = [];
        let cpuMs = 0;
        let failures = 0;
        while (cpuMs < o.budgetS * 1000) {
          const job = source.next();
          const r: OracleRunResult = await runOn(
            pool,
            {
              kind: 'run',
              run: { kind: 'value', ...job },
              mutantId: null,
              hitLimit: null,
              features: true,
              checkInvariants: false,
            },
            30 * 60_000,
          );
          cpuMs += r.cpuMs ?? r.wallMs;
          for (const id of Object.keys(r.coverage)) covered.add(id);
          const failed = r.outcome !== 'pass';
          if (failed) failures++;
          source.taken({ failed, features: r.features ?? [] });
          points.push({ cpuS: cpuMs / 1000, runs: points.length + 1, reached: covered.size });
        }
        const c = { variant: v.name, campaignSeed: s, points, failures };
        curves.push(c);
        o.onCurve?.(c, tasks.length);
      }
    };
    await Promise.all(Array.from({ length: o.workers }, () => loop()));
  } finally {
    await pool.destroy();
    removeTree(tree);
    removeEmptyTmp(o.root);
  }
  return { curves, mutants: instrumented.mutants.length };
}

/** The switches reached by `cpuS` CPU-seconds into a campaign (the last point at or before it). */
export function reachedBy(c: ReachCurve, cpuS: number): number {
  let best = 0;
  for (const p of c.points) if (p.cpuS <= cpuS) best = p.reached;
  return best;
}
