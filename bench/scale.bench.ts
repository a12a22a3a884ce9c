import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchResult } from './harness';

/**
 * How the cost of a run grows with the validator set: 7, 28, 56, 105 and 200 validators on the
 * mainnet-105 network (its parameters, link model and workload, the same stake distribution, no
 * faults), one simulated hour after a warm-up, fast crypto, inline and worker placement; then 105
 * validators with real crypto. Each figure comes from a process of its own (bench/scaleRun.ts), so
 * its peak memory and CPU time are its own. Reported: simulated/wall, events, events per second,
 * peak RSS, and the cost (wall time per simulated second) relative to the 7-validator run of the
 * same placement in this bench run (CPU time too: the machine may be shared).
 *
 * The full group takes a while (one simulated hour per figure): `npm run bench -- scale --quick`
 * (or LOCKSTEP_BENCH_QUICK=1) runs five simulated minutes per figure instead;
 * LOCKSTEP_BENCH_SCALE_SIZES=7,105 picks the set sizes.
 */
export function scaleBenches(): BenchResult[] {
  const quick = process.env.LOCKSTEP_BENCH_QUICK === '1';
  const simulatedMs = quick ? 300_000 : 3_600_000;
  const sizes = (process.env.LOCKSTEP_BENCH_SCALE_SIZES ?? '7,28,56,105,200').split(',').map(Number);
  const runs: Array<{ n: number; placement: 'inline' | 'worker'; crypto: 'fast' | 'real' }> = [];
  for (const n of sizes)
    for (const placement of ['inline', 'worker'] as const) runs.push({ n, placement, crypto: 'fast' });
  if (sizes.includes(105)) runs.push({ n: 105, placement: 'inline', crypto: 'real' });

  const script = join(dirname(fileURLToPath(import.meta.url)), 'scaleRun.ts');
  const out: BenchResult[] = [];
  const rows: Measurement[] = [];
  for (const r of runs) {
    process.stderr.write(
      `scale: ${r.n} validators, ${r.crypto} crypto, ${r.placement}: running ${simulatedMs / 60_000} simulated min…\n`,
    );
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', script, String(r.n), r.placement, r.crypto, String(simulatedMs)],
      { encoding: 'utf8', maxBuffer: 1 << 20, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const line = child.stdout.trim().split('\n').pop() ?? '';
    if (child.status !== 0 || !line.startsWith('{')) {
      out.push({
        name: `scale: ${r.n} validators, ${r.crypto}, ${r.placement}`,
        value: Number.NaN,
        unit: 'failed',
        note: `exit ${child.status}`,
      });
      continue;
    }
    const m = JSON.parse(line) as Measurement;
    rows.push(m);
    const base = rows.find((x) => x.validators === 7 && x.placement === m.placement && x.crypto === 'fast');
    const cost = base ? m.wallMs / m.simulatedMs / (base.wallMs / base.simulatedMs) : Number.NaN;
    const cpuCost = base ? m.cpuMs / m.simulatedMs / (base.cpuMs / base.simulatedMs) : Number.NaN;
    m.cost = cost;
    m.cpuCost = cpuCost;
    out.push({
      name: `scale: ${m.validators} validators, ${m.crypto} crypto, ${m.placement}, ${m.simulatedMs / 60_000} simulated min`,
      value: m.simulatedMs / m.wallMs,
      unit: 'x real time',
      note:
        `${(m.wallMs / 1000).toFixed(1)} s wall, ${(m.cpuMs / 1000).toFixed(1)} s cpu, ${m.events.toLocaleString('en-US')} events, ` +
        `${Math.round((m.events * 1000) / m.wallMs).toLocaleString('en-US')} events/s, peak RSS ${Math.round(m.peakRssMB)} MB` +
        (m.verdict === 'pass' ? '' : `, verdict ${m.verdict}: ${m.message}`),
    });
    if (base && m !== base)
      out.push({
        name: `scale: cost per simulated second, ${m.validators} over 7 validators, ${m.crypto}, ${m.placement}`,
        value: cost,
        unit: 'x',
        note: `cpu time ${cpuCost.toFixed(1)}x`,
      });
  }
  process.stdout.write(`\n${table(rows)}\n`);
  return out;
}

interface Measurement {
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
function table(rows: Measurement[]): string {
  const head =
    '| validators | crypto | placement | simulated / wall | wall s | cpu s | events | events/s | peak RSS MB | cost vs 7 (wall) | cost vs 7 (cpu) |\n' +
    '| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |';
  const fmt = (x: number | undefined, d = 1) => (x === undefined || Number.isNaN(x) ? '' : x.toFixed(d));
  return [
    head,
    ...rows.map(
      (m) =>
        `| ${m.validators} | ${m.crypto} | ${m.placement} | ${fmt(m.simulatedMs / m.wallMs)}x | ${fmt(m.wallMs / 1000)} | ${fmt(m.cpuMs / 1000)} | ${m.events.toLocaleString('en-US')} | ${Math.round((m.events * 1000) / m.wallMs).toLocaleString('en-US')} | ${Math.round(m.peakRssMB)} | ${fmt(m.cost)}x | ${fmt(m.cpuCost)}x |`,
    ),
  ].join('\n');
}
