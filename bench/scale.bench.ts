import { type BenchResult } from './harness';
import { type Checkout, checkoutsToMeasure, runAgainst, speedOver } from './checkouts';
import { parseDurationMs } from '../src/core/duration';

/**
 * How the cost of a run grows with the validator set: 7, 28, 56, 105 and 200 validators on the
 * mainnet-105 network (its parameters, link model and workload, the same stake distribution, no
 * faults), one simulated hour after a warm-up, fast crypto, inline and worker placement; then 105
 * validators with real crypto. Each figure comes from a process of its own (bench/scaleRun.ts), so
 * its peak memory and CPU time are its own. Reported: simulated/wall, events, events per second,
 * peak RSS, and the cost (wall time per simulated second) relative to the 7-validator run of the
 * same placement and checkout in this bench run (CPU time too: the machine may be shared).
 *
 * Knobs (environment): LOCKSTEP_BENCH_SCALE_SIZES=7,105 picks the set sizes;
 * LOCKSTEP_BENCH_SCALE_PLACEMENTS=inline picks the placements (default inline,worker);
 * LOCKSTEP_BENCH_SCALE_DURATION=10m the simulated time per figure (default 1h; `--quick` or
 * LOCKSTEP_BENCH_QUICK=1: 5m); LOCKSTEP_BENCH_SCALE_REAL=0 leaves out the real-crypto figure;
 * `--baseline DIR` (or LOCKSTEP_BENCH_BEFORE=DIR) also measures another checkout, figure by figure,
 * and prints this one's speed over it (bench/checkouts.ts).
 */
export function scaleBenches(): BenchResult[] {
  const quick = process.env.LOCKSTEP_BENCH_QUICK === '1';
  const simulatedMs = process.env.LOCKSTEP_BENCH_SCALE_DURATION
    ? parseDurationMs(process.env.LOCKSTEP_BENCH_SCALE_DURATION, 'LOCKSTEP_BENCH_SCALE_DURATION')
    : quick
      ? 300_000
      : 3_600_000;
  const sizes = (process.env.LOCKSTEP_BENCH_SCALE_SIZES ?? '7,28,56,105,200').split(',').map(Number);
  const placements = (process.env.LOCKSTEP_BENCH_SCALE_PLACEMENTS ?? 'inline,worker')
    .split(',')
    .filter((p): p is 'inline' | 'worker' => p === 'inline' || p === 'worker');
  const runs: Array<{ n: number; placement: 'inline' | 'worker'; crypto: 'fast' | 'real' }> = [];
  for (const n of sizes) for (const placement of placements) runs.push({ n, placement, crypto: 'fast' });
  if (sizes.includes(105) && placements.includes('inline') && process.env.LOCKSTEP_BENCH_SCALE_REAL !== '0')
    runs.push({ n: 105, placement: 'inline', crypto: 'real' });

  const checkouts = checkoutsToMeasure();
  const out: BenchResult[] = [];
  const rows: Measurement[] = [];
  for (const r of runs) {
    const pair: Partial<Record<Checkout['label'], Measurement>> = {};
    for (const c of checkouts) {
      process.stderr.write(
        `scale: ${r.n} validators, ${r.crypto} crypto, ${r.placement}${checkouts.length > 1 ? `, ${c.label} (${c.root})` : ''}: running ${simulatedMs / 60_000} simulated min…\n`,
      );
      const got = runAgainst<Measurement>(c.root, 'scaleRun.ts', [
        String(r.n),
        r.placement,
        r.crypto,
        String(simulatedMs),
      ]);
      if ('error' in got) {
        out.push({
          name: `scale: ${r.n} validators, ${r.crypto}, ${r.placement}${label(c, checkouts)}`,
          value: Number.NaN,
          unit: 'failed',
          note: got.error,
        });
        continue;
      }
      const m: Measurement = { ...got, checkout: c.label };
      const base = rows.find(
        (x) => x.validators === 7 && x.placement === m.placement && x.crypto === 'fast' && x.checkout === c.label,
      );
      m.cost = base ? m.wallMs / m.simulatedMs / (base.wallMs / base.simulatedMs) : Number.NaN;
      m.cpuCost = base ? m.cpuMs / m.simulatedMs / (base.cpuMs / base.simulatedMs) : Number.NaN;
      rows.push(m);
      pair[c.label] = m;
    }
    const m = pair.after;
    if (!m) continue;
    const b = pair.before;
    out.push({
      name: `scale: ${m.validators} validators, ${m.crypto} crypto, ${m.placement}, ${m.simulatedMs / 60_000} simulated min`,
      value: m.simulatedMs / m.wallMs,
      unit: 'x real time',
      note:
        `${(m.wallMs / 1000).toFixed(1)} s wall, ${(m.cpuMs / 1000).toFixed(1)} s cpu, ${m.events.toLocaleString('en-US')} events, ` +
        `${Math.round((m.events * 1000) / m.wallMs).toLocaleString('en-US')} events/s, peak RSS ${Math.round(m.peakRssMB)} MB` +
        (m.verdict === 'pass' ? '' : `, verdict ${m.verdict}: ${m.message}`) +
        (b
          ? `; baseline ${(b.simulatedMs / b.wallMs).toFixed(1)}x real time, ${(b.wallMs / 1000).toFixed(1)} s wall, ${(b.cpuMs / 1000).toFixed(1)} s cpu, ` +
            `peak RSS ${Math.round(b.peakRssMB)} MB; ${speedOver(m, b)}`
          : ''),
    });
    if (m.validators !== 7 && !Number.isNaN(m.cost ?? Number.NaN))
      out.push({
        name: `scale: cost per simulated second, ${m.validators} over 7 validators, ${m.crypto}, ${m.placement}`,
        value: m.cost!,
        unit: 'x',
        note: `cpu time ${m.cpuCost!.toFixed(1)}x${b?.cost !== undefined && !Number.isNaN(b.cost) ? `; baseline ${b.cost.toFixed(1)}x (cpu ${b.cpuCost!.toFixed(1)}x)` : ''}`,
      });
  }
  process.stdout.write(`\n${table(rows, checkouts.length > 1)}\n`);
  return out;
}

function label(c: Checkout, all: Checkout[]): string {
  return all.length > 1 ? `, ${c.label}` : '';
}

interface Measurement {
  checkout: Checkout['label'];
  validators: number;
  placement: 'inline' | 'worker';
  crypto: 'fast' | 'real';
  simulatedMs: number;
  wallMs: number;
  cpuMs: number;
  events: number;
  peakRssMB: number;
  verdict: string;
  message: string;
  cost?: number;
  cpuCost?: number;
}

/** The figures as a Markdown table (for notes and issues). */
function table(rows: Measurement[], both: boolean): string {
  const head =
    `| ${both ? 'checkout | ' : ''}validators | crypto | placement | simulated / wall | wall s | cpu s | events | events/s | peak RSS MB | cost vs 7 (wall) | cost vs 7 (cpu) |\n` +
    `| ${both ? '--- | ' : ''}---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`;
  const fmt = (x: number | undefined, d = 1) => (x === undefined || Number.isNaN(x) ? '' : x.toFixed(d));
  return [
    head,
    ...rows.map(
      (m) =>
        `| ${both ? `${m.checkout} | ` : ''}${m.validators} | ${m.crypto} | ${m.placement} | ${fmt(m.simulatedMs / m.wallMs)}x | ${fmt(m.wallMs / 1000)} | ${fmt(m.cpuMs / 1000)} | ${m.events.toLocaleString('en-US')} | ${Math.round((m.events * 1000) / m.wallMs).toLocaleString('en-US')} | ${Math.round(m.peakRssMB)} | ${fmt(m.cost)}x | ${fmt(m.cpuCost)}x |`,
    ),
  ].join('\n');
}
