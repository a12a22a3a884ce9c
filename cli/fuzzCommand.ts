/**
 * `lockstep fuzz`: a campaign of swarm seeds over a worker pool, with progress (a bar on a
 * terminal, a status line every 10 s in a CI log, a line per failing seed as it is found),
 * results by seed, failures grouped by oracle, a fault-efficacy ledger, shards for CI matrices,
 * and Ctrl-C that keeps what finished. The results folder is written under a temporary name and
 * renamed into place when the campaign ends; an interrupted one goes to `<dir>.interrupted/`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from '../src/core/errors';
import { formatDurationMs, parseDurationMs } from '../src/core/duration';
import { runCampaign, seedsOfShard, type CampaignSummary } from '../sim/campaign/fuzz';
import { swarmScenario } from '../sim/campaign/swarm';
import { encodeScenario } from '../sim/scenario/encodeScenario';
import { BYZANTINE_TXS } from '../sim/faults/byzantineTxs';
import { reachTable } from '../sim/run/messageReach';
import { parsePlant } from '../src/core/plants';
import { campaignMarkdown, type MergedFile, SHARD_KIND, type ShardFile, seedRangeOf } from '../sim/campaign/shardFile';
import { type RunVerdict } from '../sim/report/outcome';
import { EXIT } from '../src/core/exitCodes';
import { exitCodeOf, worstExitCode } from './verdictCodes';
import { Progress, progressIntervalMs } from './progress';
import { watchInterrupts } from './interrupts';
import { ReportFolder } from './reportFolder';
import { gitCommit, lockstepVersion } from './provenance';
import { fuzzDurationMs, swarmProfileOf } from './shrinkReplayCommands';
import { campaignRulesLines } from '../sim/rules/coverage';
import { guidedFuzz } from './guidedFuzz';

export interface FuzzCliOptions {
  seeds?: number;
  time?: string;
  workers: number;
  shard: string;
  /** The swarm's: its profile, crypto and simulated time per seed (defaults swarm, fast, 2h). */
  profile?: string;
  crypto?: string;
  duration?: string;
  out?: string;
  json: boolean;
  /** The swarm's: measure fault efficacy on every k-th seed (default 10). */
  efficacyEvery?: number;
  plant?: string;
  progressInterval?: string;
  /** `guided` (the default: cli/guidedFuzz.ts) or `swarm`. */
  strategy?: string;
  campaignSeed?: number;
  corpusIn?: string;
  corpusOut?: string;
  resume?: boolean;
}

export const STRATEGIES = ['swarm', 'guided'] as const;

export function parseShard(value: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(value);
  if (!m) throw new InputError('--shard', `expected I/N such as 2/4, got ${JSON.stringify(value)}`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count)
    throw new InputError('--shard', `I must be between 1 and N, got ${value}`);
  return { index, count };
}

/** The exit code of a campaign: the worst verdict among its failures; interrupted beats all. */
export function campaignExitCode(s: CampaignSummary): number {
  return worstExitCode([
    ...(s.interrupted ? [EXIT.interrupted] : []),
    ...s.failures.map((f) => exitCodeOf(f.verdict as RunVerdict)),
  ]);
}

/** The guided explorer, unless --strategy swarm (it wins the hunt bench: docs/HUNT.md). */
export const DEFAULT_STRATEGY = 'guided';

export async function fuzzCommand(o: FuzzCliOptions): Promise<number> {
  const strategy = o.strategy ?? DEFAULT_STRATEGY;
  if (!(STRATEGIES as readonly string[]).includes(strategy))
    throw new InputError('--strategy', `expected ${STRATEGIES.join(' or ')}, got ${JSON.stringify(strategy)}`);
  if (strategy === 'guided')
    for (const [flag, given] of [
      ['--profile', o.profile],
      ['--crypto', o.crypto],
      ['--duration', o.duration],
      ['--efficacy-every', o.efficacyEvery],
    ] as const)
      if (given !== undefined)
        throw new InputError(
          flag,
          "is for --strategy swarm (the guided explorer draws each run's length, crypto and faults itself)",
        );
  const profile = swarmProfileOf(o.profile ?? 'swarm');
  const crypto = o.crypto ?? 'fast';
  if (crypto !== 'fast' && crypto !== 'real')
    throw new InputError('--crypto', `expected fast or real, got ${JSON.stringify(crypto)}`);
  const efficacyEvery = o.efficacyEvery ?? 10;
  if (o.seeds === undefined && o.time === undefined)
    throw new InputError('--seeds', 'give --seeds N or --time DURATION');
  if (o.seeds !== undefined && (!Number.isSafeInteger(o.seeds) || o.seeds < 1))
    throw new InputError('--seeds', `expected a positive integer, got ${o.seeds}`);
  if (!Number.isSafeInteger(o.workers) || o.workers < 1 || o.workers > 64)
    throw new InputError('--workers', `expected 1 to 64, got ${o.workers}`);
  if (!Number.isSafeInteger(efficacyEvery) || efficacyEvery < 0)
    throw new InputError('--efficacy-every', `expected a non-negative integer, got ${efficacyEvery}`);
  const plant = o.plant === undefined ? undefined : parsePlant(o.plant, '--plant');
  const shard = parseShard(o.shard);
  const durationMs = fuzzDurationMs(o.duration, '--duration');
  const wallBudgetMs = o.time === undefined ? undefined : parseDurationMs(o.time, '--time');
  if (wallBudgetMs !== undefined && wallBudgetMs <= 0) throw new InputError('--time', 'must be positive');
  const intervalMs = progressIntervalMs(o.progressInterval);
  const outDir = resolve(o.out ?? join('reports', 'fuzz', `shard-${shard.index}-of-${shard.count}`));
  if (strategy === 'guided') {
    const campaignSeed = o.campaignSeed ?? 1;
    if (!Number.isSafeInteger(campaignSeed) || campaignSeed < 0)
      throw new InputError('--campaign-seed', `expected a whole number, got ${campaignSeed}`);
    const { file } = await guidedFuzz(
      {
        ...(o.seeds !== undefined ? { runs: o.seeds } : {}),
        ...(wallBudgetMs !== undefined ? { wallBudgetMs } : {}),
        workers: o.workers,
        shard,
        campaignSeed,
        ...(plant ? { plant } : {}),
        outDir,
        ...(o.corpusIn !== undefined ? { corpusIn: o.corpusIn } : {}),
        ...(o.corpusOut !== undefined ? { corpusOut: o.corpusOut } : {}),
        resume: o.resume === true,
        json: o.json,
        intervalMs,
      },
      formatCampaign,
    );
    return campaignExitCode(file);
  }
  for (const [flag, given] of [
    ['--corpus-in', o.corpusIn],
    ['--corpus-out', o.corpusOut],
    ['--campaign-seed', o.campaignSeed],
    ['--resume', o.resume || undefined],
  ] as const)
    if (given !== undefined) throw new InputError(flag, 'is for --strategy guided (the swarm has no corpus to keep)');
  const folder = new ReportFolder(outDir);
  // The failures folder is made when the first one is found.
  const failuresDir = folder.file('failures');

  const progress = new Progress('seeds', { enabled: !o.json, intervalMs });
  const interrupts = watchInterrupts({
    onFirst: (signal) =>
      progress.line(`${signal}: stopping: finishing the seeds under way (send it again to abort at once)`),
    onAbort: () => {
      progress.stop();
      process.stderr.write('aborted: the seeds found so far are in the failures folder\n');
      try {
        process.stderr.write(`partial results: ${folder.keepInterrupted()}\n`);
      } finally {
        process.exit(EXIT.interrupted);
      }
    },
  });
  const total = o.seeds !== undefined ? seedsOfShard(o.seeds, shard).length : null;
  let failures = 0;
  const show = (done: number) => {
    const secs = Math.max(0.001, progress.elapsedMs() / 1000);
    const rate = done / secs;
    const etaMs =
      total !== null
        ? done > 0
          ? ((total - done) / rate) * 1000
          : null
        : Math.max(0, (wallBudgetMs ?? 0) - progress.elapsedMs());
    progress.update({ done, total, detail: `${failures} failing, ${rate.toFixed(2)} seeds/s`, etaMs });
  };
  show(0);
  const started = Date.now();
  let summary: CampaignSummary;
  let seedsRun: number[];
  try {
    let results: Array<{ seed: number }>;
    ({ summary, results } = await runCampaign({
      ...(o.seeds !== undefined ? { seeds: o.seeds } : {}),
      ...(wallBudgetMs !== undefined ? { wallBudgetMs } : {}),
      workers: o.workers,
      shard,
      durationMs,
      crypto,
      profile,
      efficacyEvery,
      ...(plant ? { plant } : {}),
      now: Date.now,
      shouldStop: () => interrupts.requested,
      onResult: (r, done) => {
        if (r.verdict !== 'pass') {
          failures++;
          const s = swarmScenario(r.seed, durationMs, profile);
          const file = encodeScenario({
            ...s,
            name: `fuzz-seed-${r.seed}`,
            // The campaign ran it under the profile's name: the same streams replay the same run.
            streams: s.streams ?? s.name,
            crypto,
            expect: { verdict: r.verdict as 'pass', ...(r.oracle ? { oracle: r.oracle } : {}), min: {}, max: {} },
            ...(plant ? { plant } : {}),
            seed: r.seed,
          });
          mkdirSync(failuresDir, { recursive: true });
          writeFileSync(join(failuresDir, `seed-${r.seed}.json`), `${JSON.stringify(file, null, 2)}\n`);
          const withPlant = plant ? ` --plant ${plant}` : '';
          const prof = profile === 'swarm' ? '' : ` --profile ${profile}`;
          progress.line(
            `FAIL seed ${r.seed}: ${r.verdict}${r.violation ? ` (${r.oracle}: ${r.violation.message})` : ''}  repro: npx lockstep replay --fuzz-seed ${r.seed}${prof} --duration ${formatDurationMs(durationMs)} --crypto ${crypto}${withPlant}`,
          );
        }
        show(done);
      },
    }));
    seedsRun = results.map((r) => r.seed);
  } catch (e) {
    progress.stop();
    interrupts.dispose();
    folder.discard();
    throw e;
  }
  const wallMs = Date.now() - started;
  progress.stop();
  const file: ShardFile = {
    kind: SHARD_KIND,
    version: lockstepVersion(),
    commit: gitCommit(),
    params: {
      profile,
      durationMs,
      crypto,
      efficacyEvery,
      plant: o.plant ?? null,
      seeds: o.seeds ?? null,
      timeBudgetMs: wallBudgetMs ?? null,
    },
    shard,
    seedRange: seedRangeOf(seedsRun, shard.count),
    wallMs,
    ...summary,
  };
  folder.write('summary.json', `${JSON.stringify(file, null, 2)}\n`);
  folder.write('summary.md', campaignMarkdown(file));
  const dir = summary.interrupted ? folder.keepInterrupted() : folder.commit();
  interrupts.dispose();
  if (o.json) process.stdout.write(`${JSON.stringify({ ...file, out: dir })}\n`);
  else process.stdout.write(formatCampaign(file, dir));
  return campaignExitCode(summary);
}

export function formatCampaign(s: ShardFile | MergedFile, outDir: string): string {
  const lines = [
    `seeds       ${s.seeds}${s.interrupted ? ' (interrupted: partial results)' : ''}`,
    `verdicts    ${Object.entries(s.verdicts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  ];
  if (s.kind === SHARD_KIND)
    lines.push(
      `shard       ${s.shard.index}/${s.shard.count}, seeds ${s.seedRange.first ?? '-'}..${s.seedRange.last ?? '-'} step ${s.seedRange.step}, ${(s.wallMs / 1000).toFixed(1)} s of wall time`,
    );
  else
    lines.push(
      `shards      ${s.shards.map((x) => `${x.index}/${s.shardCount}`).join(', ')}${s.missingShards.length ? ` (missing: ${s.missingShards.map((i) => `${i}/${s.shardCount}`).join(', ')})` : ''}`,
    );
  if (s.groups.length) {
    lines.push('failures by oracle and first violation:');
    for (const g of s.groups)
      lines.push(
        `  ${g.seeds.length} × ${g.oracle}: ${g.message}  (seeds ${g.seeds.slice(0, 10).join(', ')}${g.seeds.length > 10 ? ', …' : ''})`,
      );
    lines.push(`repro       ${s.failures[0]!.repro}`);
  }
  lines.push('messages reached (by committed blocks):', ...reachTable(s.reach));
  const kinds = BYZANTINE_TXS.filter((k) => (s.reach.byzantine[k]?.crafted ?? 0) > 0);
  if (kinds.length) {
    const refused = kinds.filter((k) => (s.reach.byzantine[k]?.asExpected ?? 0) > 0).length;
    const missing = BYZANTINE_TXS.filter((k) => (s.reach.byzantine[k]?.asExpected ?? 0) === 0);
    lines.push(
      `byzantine   ${refused} of ${BYZANTINE_TXS.length} kinds delivered by the sender's own blocks and refused with the reference code${missing.length ? `; not yet: ${missing.join(', ')}` : ''} (per kind: summary.md)`,
    );
  }
  lines.push('fault efficacy (scheduled / fired / changed the outcome of those measured):');
  for (const [kind, e] of Object.entries(s.faults).sort(([a], [b]) => (a < b ? -1 : 1)))
    lines.push(
      `  ${kind.padEnd(26)} ${String(e.scheduled).padStart(5)} ${String(e.fired).padStart(5)} ${e.measured ? `${e.changed}/${e.measured}` : '-'}`,
    );
  lines.push(...campaignRulesLines(s.rules, 'seed'));
  for (const w of s.warnings) lines.push(`warning     ${w}`);
  lines.push(`results     ${outDir}`);
  return `${lines.join('\n')}\n`;
}
