import { type BenchResult } from './harness';
import { loadScenario } from '../sim/scenario/load';
import { runScenarioAsync } from '../sim/run';
import { runCampaign } from '../sim/campaign/fuzz';

/**
 * Acceleration (simulated time / wall time) of the default network over one simulated hour in
 * fast and real crypto, in both placements; fuzz throughput (2-hour swarm runs, fast) on 1 and 2
 * workers. LOCKSTEP_BENCH_QUICK=1 shortens everything (for a smoke of the bench itself).
 *
 * Each acceleration figure is timed after a one-simulated-minute warm-up run in the same crypto
 * mode and placement, so that it measures the steady state: not the worker thread's start (it
 * compiles the sidechain code again, ~1 s) nor the first JIT compilation.
 */
export async function clusterBenches(): Promise<BenchResult[]> {
  const quick = process.env.LOCKSTEP_BENCH_QUICK === '1';
  const hour = quick ? 300_000 : 3_600_000;
  const { scenario } = loadScenario('default');
  const out: BenchResult[] = [];
  const accel = async (crypto: 'fast' | 'real', placement: 'inline' | 'worker') => {
    await runScenarioAsync({ ...scenario, crypto, faults: [] }, { seed: 1, untilMs: 60_000, placement });
    const t0 = performance.now();
    await runScenarioAsync({ ...scenario, crypto, faults: [] }, { seed: 1, untilMs: hour, placement });
    const wall = performance.now() - t0;
    out.push({
      name: `default network, ${hour / 60_000} simulated min, ${crypto} crypto, ${placement}`,
      value: hour / wall,
      unit: 'x real time',
      note: `${(wall / 1000).toFixed(1)} s wall`,
    });
    return wall;
  };
  const inlineFast = await accel('fast', 'inline');
  const workerFast = await accel('fast', 'worker');
  out.push({ name: 'worker placement speed-up over inline (fast crypto)', value: inlineFast / workerFast, unit: 'x' });
  await accel('real', 'inline');
  const seedsPerMinute = async (workers: number) => {
    const seeds = quick ? 4 : 12;
    const durationMs = quick ? 300_000 : 7_200_000;
    const t0 = performance.now();
    await runCampaign({
      seeds,
      workers,
      shard: { index: 1, count: 1 },
      durationMs,
      crypto: 'fast',
      efficacyEvery: 0,
      now: () => 0,
    });
    const min = (performance.now() - t0) / 60_000;
    out.push({
      name: `fuzz: ${durationMs / 60_000}-minute swarm runs, fast crypto, ${workers} worker(s)`,
      value: seeds / min,
      unit: 'seeds/min',
    });
    return seeds / min;
  };
  const one = await seedsPerMinute(1);
  const two = await seedsPerMinute(2);
  out.push({ name: 'fuzz: 2 workers over 1', value: two / one, unit: 'x' });
  return out;
}
