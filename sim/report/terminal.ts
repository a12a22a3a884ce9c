/** The readable terminal summary with asciichart plots. */
import * as asciichart from 'asciichart';
import { type RunResult } from '../run';
import { type Scenario } from '../scenario/scenario';
import { checkExpectations } from './summary';

const WIDTH = 72;

function downsample(xs: number[], n = WIDTH): number[] {
  if (xs.length <= n) return xs;
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(xs[Math.floor((i * (xs.length - 1)) / (n - 1))]!);
  return out;
}

function plot(title: string, series: number[][], height = 8): string {
  const clean = series.map((s) => downsample(s)).filter((s) => s.length > 0);
  if (clean.length === 0 || clean.every((s) => s.every((v) => v === 0))) return `${title}\n  (nothing to plot)\n`;
  return `${title}\n${asciichart.plot(clean, { height, format: (x: number) => x.toFixed(0).padStart(6) })}\n`;
}

export function terminalSummary(s: Scenario, r: RunResult, wallMs: number): string {
  const simS = r.simulatedMs / 1000;
  const c = r.counts;
  const out: string[] = [];
  out.push(`scenario    ${r.scenario} — ${s.description.split('.')[0]}`);
  out.push(`seed        ${r.seed}   crypto ${r.crypto}`);
  out.push(
    `simulated   ${simS.toFixed(0)} s in ${(wallMs / 1000).toFixed(1)} s of wall time (${(simS / Math.max(0.001, wallMs / 1000)).toFixed(0)}x)`,
  );
  out.push(`events      ${r.events}`);
  out.push(`service     ${c.serviceBlocks} blocks`);
  out.push(
    `sidechain   ${c.sidechainBlocks} blocks, ${r.backupBlocks} by backups, ${c.reorgs} reorgs (deepest ${r.maxReorgDepth})`,
  );
  out.push(`spans       ${c.spans} committed beyond the genesis span`);
  out.push(
    `checkpoints ${c.checkpointsAcked} acked, ${c.noAcks} no-acks${r.checkpointLatencyMs.length ? `, latency ${(Math.min(...r.checkpointLatencyMs) / 1000).toFixed(0)}-${(Math.max(...r.checkpointLatencyMs) / 1000).toFixed(0)} s` : ''}`,
  );
  out.push(
    `faults      ${r.faultsFired.length ? r.faultsFired.map((f) => `${f.kind}@${(f.atMs / 1000).toFixed(0)}s(${f.detail})`).join(', ') : 'none'}`,
  );
  out.push(`trace       ${r.traceHash}`);
  out.push('');
  out.push(plot('sidechain height per node', Object.values(r.samples.sidechainHeight)));
  const reorgSeries = r.samples.timeMs.map((t, i) => {
    const prev = i === 0 ? -1 : r.samples.timeMs[i - 1]!;
    let d = 0;
    // Reorgs are stamped with the node's clock (epoch-based); samples use engine time.
    const epoch = s.epochMs;
    for (const x of r.reorgs) if (x.atMs - epoch > prev && x.atMs - epoch <= t) d = Math.max(d, x.depth);
    return d;
  });
  out.push(plot('reorg depth over time (deepest per interval)', [reorgSeries], 4));
  out.push(
    plot(
      'checkpoint latency, buffered to acked (s), per checkpoint',
      [r.checkpointLatencyMs.map((ms) => ms / 1000)],
      5,
    ),
  );
  const checks = checkExpectations(s, r);
  out.push('expectations');
  for (const ch of checks)
    out.push(`  ${ch.ok ? 'ok  ' : 'FAIL'} ${ch.what.padEnd(18)} expected ${ch.expected.padEnd(10)} got ${ch.actual}`);
  out.push('');
  out.push(`verdict     ${r.verdict.toUpperCase()}${r.message !== 'completed' ? ` (${r.message})` : ''}`);
  return out.join('\n') + '\n';
}
