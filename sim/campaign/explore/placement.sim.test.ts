/**
 * The explorer's runs are the same run in both placements (the sidechain domain inline or in a
 * worker thread): fresh draws, and the same draws with BUGGIFY's late timers and restarts on every
 * node (the restarts' requests across the domains are promised to the window scheduler), give one
 * trace hash inline, inline again and in a worker; BUGGIFY off and on give different runs.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../env/rng';
import { runScenario, runScenarioAsync } from '../../run/run';
import { type Scenario } from '../../scenario/scenario';
import { freshScenario } from './explorer';

const short = (s: Scenario): Scenario => ({
  ...s,
  durationMs: 150_000,
  crypto: 'fast',
  faults: s.faults.filter((f) => f.atMs === undefined || f.atMs < 150_000),
});

describe('explorer runs in both placements', () => {
  it('one trace hash inline, again, and in a worker; with BUGGIFY too', async () => {
    for (const i of [1, 2, 3]) {
      const plain = short(freshScenario(Rng.forSeed(`placement-test/${i}`)));
      const { buggify: _, ...without } = plain;
      const buggified: Scenario = {
        ...without,
        buggify: {
          lateTimers: { probability: 0.1, maxMs: 2000 },
          restarts: { probability: 0.01, downMs: 1000, nodes: 'all' },
        },
      };
      const hashes: string[] = [];
      for (const s of [without, buggified]) {
        const a = runScenario(s, { seed: i });
        const b = runScenario(s, { seed: i });
        const w = await runScenarioAsync(s, { seed: i, placement: 'worker' });
        expect(a.engine.runaway, `${i}: ${a.message}`).toBe(false);
        expect(a.verdict === 'crash' ? a.message : 'no crash', `run ${i}`).toBe('no crash');
        expect(b.traceHash).toBe(a.traceHash);
        expect(w.traceHash, `run ${i}${s === buggified ? ' with BUGGIFY' : ''}: worker vs inline`).toBe(a.traceHash);
        hashes.push(a.traceHash);
      }
      expect(hashes[1]).not.toBe(hashes[0]);
    }
  }, 240_000);
});
