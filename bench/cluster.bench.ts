import { type BenchResult } from './harness';
import { type Checkout, checkoutsToMeasure, runAgainst, speedOver } from './checkouts';

/**
 * Acceleration (simulated time / wall time) of the default network over one simulated hour in
 * fast and real crypto, in both placements; and campaign throughput: swarm seeds of 10 simulated
 * minutes per hour on 1 and 2 workers (as `lockstep fuzz --duration 10m` runs them, fault
 * efficacy measured on every 10th seed). LOCKSTEP_BENCH_QUICK=1 shortens everything (for a smoke
 * of the bench itself); `--baseline DIR` (or LOCKSTEP_BENCH_BEFORE=DIR) also measures another
 * checkout, figure by figure, and prints this one's speed over it (bench/checkouts.ts). Each figure
 * runs in a process of its own (bench/clusterRun.ts).
 *
 * Each acceleration figure is timed after a one-simulated-minute warm-up run in the same crypto
 * mode and placement, so that it measures the steady state: not the worker thread's start (it
 * compiles the sidechain code again, ~1 s) nor the first JIT compilation. The campaign figures
 * include everything a campaign pays: worker start-up and each seed's set-up.
 */
export function clusterBenches(): BenchResult[] {
  const quick = process.env.LOCKSTEP_BENCH_QUICK === '1';
  const hour = quick ? 300_000 : 3_600_000;
  const checkouts = checkoutsToMeasure();
  const out: BenchResult[] = [];

  /** Measure on every checkout (the other one first); the figure is this checkout's. */
  const both = <T extends { wallMs: number; cpuMs: number }>(
    name: string,
    args: string[],
    value: (m: T) => number,
    unit: string,
    note: (m: T) => string,
  ): T | null => {
    const got: Partial<Record<Checkout['label'], T>> = {};
    for (const c of checkouts) {
      process.stderr.write(`cluster: ${name}${checkouts.length > 1 ? `, ${c.label} (${c.root})` : ''}…\n`);
      const m = runAgainst<T>(c.root, 'clusterRun.ts', args);
      if ('error' in m) {
        out.push({
          name: `${name}${checkouts.length > 1 ? `, ${c.label}` : ''}`,
          value: Number.NaN,
          unit: 'failed',
          note: m.error,
        });
        continue;
      }
      got[c.label] = m;
    }
    const a = got.after;
    if (!a) return null;
    const b = got.before;
    out.push({
      name,
      value: value(a),
      unit,
      note:
        note(a) +
        (b ? `; baseline ${value(b).toFixed(value(b) >= 100 ? 0 : 1)} ${unit} (${note(b)}); ${speedOver(a, b)}` : ''),
    });
    return a;
  };

  type Accel = { wallMs: number; cpuMs: number; simulatedMs: number; events: number; peakRssMB: number };
  const accel = (crypto: 'fast' | 'real', placement: 'inline' | 'worker') =>
    both<Accel>(
      `default network, ${hour / 60_000} simulated min, ${crypto} crypto, ${placement}`,
      ['accel', crypto, placement, String(hour)],
      (m) => m.simulatedMs / m.wallMs,
      'x real time',
      (m) =>
        `${(m.wallMs / 1000).toFixed(1)} s wall, ${(m.cpuMs / 1000).toFixed(1)} s cpu, ${m.events.toLocaleString('en-US')} events`,
    );
  const inlineFast = accel('fast', 'inline');
  const workerFast = accel('fast', 'worker');
  if (inlineFast && workerFast)
    out.push({
      name: 'worker placement speed-up over inline (fast crypto)',
      value: inlineFast.wallMs / workerFast.wallMs,
      unit: 'x',
    });
  accel('real', 'inline');

  type Fuzz = { wallMs: number; cpuMs: number; seeds: number };
  const seedsPerHour = (workers: number) => {
    const seeds = quick ? 4 : workers === 1 ? 20 : 40;
    const durationMs = quick ? 120_000 : 600_000;
    return both<Fuzz>(
      `fuzz: ${durationMs / 60_000}-minute swarm seeds, fast crypto, ${workers} worker(s)`,
      ['fuzz', String(workers), String(seeds), String(durationMs), '10'],
      (m) => (m.seeds * 3_600_000) / m.wallMs,
      'seeds/hour',
      (m) =>
        `${m.seeds} seeds in ${(m.wallMs / 1000).toFixed(1)} s wall, ${(m.cpuMs / 1000).toFixed(1)} s cpu, ` +
        `${Math.round((m.seeds * 3_600_000) / m.cpuMs).toLocaleString('en-US')} seeds per CPU-hour`,
    );
  };
  const one = seedsPerHour(1);
  const two = seedsPerHour(2);
  if (one && two)
    out.push({ name: 'fuzz: 2 workers over 1', value: two.seeds / two.wallMs / (one.seeds / one.wallMs), unit: 'x' });
  return out;
}
