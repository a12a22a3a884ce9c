/**
 * `lockstep fuzz`: a campaign of swarm seeds over a worker pool, with a progress bar, results by
 * seed, failures grouped by oracle, a fault-efficacy ledger, shards for CI matrices, and Ctrl-C
 * that keeps what finished.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from '../core/errors';
import { parseDurationMs } from '../core/duration';
import { runCampaign, type CampaignSummary } from '../../sim/campaign/fuzz';
import { swarmScenario } from '../../sim/campaign/swarm';
import { encodeScenario } from '../../sim/scenario/scenario';
import { PLANT_NAMES } from '../../sim/campaign/plants';
import { EXIT } from './exitCodes';

export interface FuzzCliOptions {
  seeds?: number;
  time?: string;
  workers: number;
  shard: string;
  profile: string;
  crypto: string;
  duration: string;
  out?: string;
  json: boolean;
  efficacyEvery: number;
  plant?: string;
}

export function parseShard(value: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(value);
  if (!m) throw new InputError('--shard', `expected I/N such as 2/4, got ${JSON.stringify(value)}`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count)
    throw new InputError('--shard', `I must be between 1 and N, got ${value}`);
  return { index, count };
}

export async function fuzzCommand(o: FuzzCliOptions): Promise<number> {
  if (o.profile !== 'swarm')
    throw new InputError('--profile', `unknown profile ${JSON.stringify(o.profile)}; profiles: swarm`);
  if (o.crypto !== 'fast' && o.crypto !== 'real')
    throw new InputError('--crypto', `expected fast or real, got ${JSON.stringify(o.crypto)}`);
  if (o.seeds === undefined && o.time === undefined)
    throw new InputError('--seeds', 'give --seeds N or --time DURATION');
  if (o.seeds !== undefined && (!Number.isSafeInteger(o.seeds) || o.seeds < 1))
    throw new InputError('--seeds', `expected a positive integer, got ${o.seeds}`);
  if (!Number.isSafeInteger(o.workers) || o.workers < 1 || o.workers > 64)
    throw new InputError('--workers', `expected 1 to 64, got ${o.workers}`);
  if (o.plant !== undefined && !PLANT_NAMES.includes(o.plant))
    throw new InputError('--plant', `unknown planted bug; known: ${PLANT_NAMES.join(', ')}`);
  const shard = parseShard(o.shard);
  const durationMs = parseDurationMs(o.duration, '--duration');
  const wallBudgetMs = o.time === undefined ? undefined : parseDurationMs(o.time, '--time');
  const outDir = resolve(o.out ?? join('reports', 'fuzz', `shard-${shard.index}-of-${shard.count}`));
  mkdirSync(join(outDir, 'failures'), { recursive: true });

  let stop = false;
  const onSigint = () => {
    stop = true;
    process.stderr.write('\nstopping: finishing the seeds under way (Ctrl-C again to abort)\n');
    process.once('SIGINT', () => process.exit(130));
  };
  process.once('SIGINT', onSigint);
  const start = Date.now();
  let failures = 0;
  const total = o.seeds !== undefined ? Math.ceil(o.seeds / shard.count) : null;
  const { summary } = await runCampaign({
    ...(o.seeds !== undefined ? { seeds: o.seeds } : {}),
    ...(wallBudgetMs !== undefined ? { wallBudgetMs } : {}),
    workers: o.workers,
    shard,
    durationMs,
    crypto: o.crypto,
    efficacyEvery: o.efficacyEvery,
    ...(o.plant ? { plant: o.plant } : {}),
    now: Date.now,
    shouldStop: () => stop,
    onResult: (r, done) => {
      if (r.verdict !== 'pass') {
        failures++;
        const s = swarmScenario(r.seed, durationMs);
        const file = {
          ...encodeScenario({
            ...s,
            name: `fuzz-seed-${r.seed}`,
            crypto: o.crypto as 'fast' | 'real',
            expect: { verdict: r.verdict as 'pass', ...(r.oracle ? { oracle: r.oracle } : {}), min: {}, max: {} },
            ...(o.plant ? { plant: o.plant } : {}),
          }),
        };
        writeFileSync(join(outDir, 'failures', `seed-${r.seed}.json`), JSON.stringify(file, null, 2) + '\n');
      }
      if (!o.json && process.stderr.isTTY) {
        const secs = (Date.now() - start) / 1000;
        const bar = total
          ? `[${'='.repeat(Math.floor((done / total) * 30)).padEnd(30)}] ${done}/${total}`
          : `${done} seeds`;
        process.stderr.write(`\r${bar}  ${(done / Math.max(secs, 0.001)).toFixed(1)} seeds/s  ${failures} failing `);
      }
    },
  });
  process.removeListener('SIGINT', onSigint);
  if (!o.json && process.stderr.isTTY) process.stderr.write('\n');
  // The campaign summary holds only numbers and strings (no bigints): plain JSON, stable key order.
  writeFileSync(join(outDir, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
  if (o.json) process.stdout.write(JSON.stringify({ ...summary, out: outDir }) + '\n');
  else process.stdout.write(formatCampaign(summary, outDir));
  if (summary.interrupted) return EXIT.badInput;
  if (summary.failures.some((f) => f.verdict === 'safety')) return EXIT.safety;
  if (summary.failures.some((f) => f.verdict === 'liveness')) return EXIT.liveness;
  if (summary.failures.length) return EXIT.crash;
  return EXIT.pass;
}

export function formatCampaign(s: CampaignSummary, outDir: string): string {
  const lines = [
    `seeds       ${s.seeds}${s.interrupted ? ' (interrupted: partial results)' : ''}`,
    `verdicts    ${Object.entries(s.verdicts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  ];
  if (s.groups.length) {
    lines.push('failures by oracle and first violation:');
    for (const g of s.groups)
      lines.push(
        `  ${g.seeds.length} × ${g.oracle}: ${g.message}  (seeds ${g.seeds.slice(0, 10).join(', ')}${g.seeds.length > 10 ? ', …' : ''})`,
      );
    lines.push(`repro       ${s.failures[0]!.repro}`);
  }
  lines.push('fault efficacy (scheduled / fired / changed the outcome of those measured):');
  for (const [kind, e] of Object.entries(s.faults).sort(([a], [b]) => (a < b ? -1 : 1)))
    lines.push(
      `  ${kind.padEnd(26)} ${String(e.scheduled).padStart(5)} ${String(e.fired).padStart(5)} ${e.measured ? `${e.changed}/${e.measured}` : '-'}`,
    );
  for (const w of s.warnings) lines.push(`warning     ${w}`);
  lines.push(`results     ${outDir}`);
  return lines.join('\n') + '\n';
}
