/**
 * Fuzz campaigns: many seeds of the swarm profile over a piscina pool. Results are stored by seed,
 * so the summary is the same whatever the worker count or finishing order. Failures are grouped
 * by oracle and first violation; a fault-efficacy ledger tells which fault kinds never bit.
 * Ctrl-C stops submitting and keeps what finished.
 */
import { runOnPool } from './pool';
import { type FuzzJob, type FuzzSeedResult } from './fuzzTask';
import { type SwarmProfile } from './swarm';
import { type PlantName } from '../../src/core/plants';
import { type CampaignRules, campaignRules, mergeCampaignRules } from '../rules/coverage';
import { type MessageReach, addReach, emptyReach } from '../run/messageReach';
import { MESSAGE_NAMES } from '../core/messageNames';

export interface CampaignOptions {
  /** Seeds 1..seeds (within the shard); or run until the wall budget ends. */
  seeds?: number;
  wallBudgetMs?: number;
  workers: number;
  shard: { index: number; count: number };
  durationMs: number;
  crypto: 'fast' | 'real';
  /** The swarm profile (default swarm). */
  profile?: SwarmProfile;
  plant?: PlantName;
  /** Measure fault efficacy on every k-th seed (re-runs without each fired fault); 0 = never. */
  efficacyEvery: number;
  onResult?: (r: FuzzSeedResult, done: number) => void;
  shouldStop?: () => boolean;
  /** Wall clock for the budget (the CLI passes Date.now; the campaign never reads a clock itself). */
  now: () => number;
}

export interface FaultLedgerEntry {
  scheduled: number;
  fired: number;
  /** Of the fired faults measured for efficacy, how many changed the outcome. */
  measured: number;
  changed: number;
}

export interface CampaignSummary {
  seeds: number;
  verdicts: Record<string, number>;
  failures: Array<{
    seed: number;
    oracle: string | null;
    verdict: string;
    violation: FuzzSeedResult['violation'];
    repro: string;
  }>;
  groups: Array<{ oracle: string; message: string; seeds: number[] }>;
  faults: Record<string, FaultLedgerEntry>;
  /** The rules of docs/RULES.md the campaign's seeds exercised (with how many seeds did) and the ones none did. */
  rules: CampaignRules;
  /** What the seeds reached of the service's messages and of the Byzantine kinds, summed. */
  reach: MessageReach;
  warnings: string[];
  interrupted: boolean;
}

export function seedsOfShard(total: number, shard: { index: number; count: number }): number[] {
  const out: number[] = [];
  for (let s = 1; s <= total; s++) if ((s - 1) % shard.count === shard.index - 1) out.push(s);
  return out;
}

export async function runCampaign(
  opts: CampaignOptions,
): Promise<{ results: FuzzSeedResult[]; summary: CampaignSummary }> {
  const results = new Map<number, FuzzSeedResult>();
  const start = opts.now();
  const budgetOver = () => opts.wallBudgetMs !== undefined && opts.now() - start >= opts.wallBudgetMs;
  const seedList = opts.seeds !== undefined ? seedsOfShard(opts.seeds, opts.shard) : null;
  let next = 0;
  let interrupted = false;
  const nextSeed = (): number | null => {
    if (opts.shouldStop?.()) {
      interrupted = true;
      return null;
    }
    if (seedList) return next < seedList.length ? seedList[next++]! : null;
    if (budgetOver()) return null;
    // Time mode: walk the shard's seeds without end.
    const s = 1 + next++ * opts.shard.count + (opts.shard.index - 1);
    return s;
  };
  await runOnPool<FuzzJob, FuzzSeedResult>({
    task: 'fuzzTask',
    workers: opts.workers,
    next: () => {
      const seed = nextSeed();
      if (seed === null) return null;
      // Efficacy on every k-th seed of the shard (by position, so every shard gets its share).
      const position = next - 1;
      return {
        seed,
        durationMs: opts.durationMs,
        crypto: opts.crypto,
        efficacy: opts.efficacyEvery > 0 && position % opts.efficacyEvery === 0,
        ...(opts.profile && opts.profile !== 'swarm' ? { profile: opts.profile } : {}),
        ...(opts.plant ? { plant: opts.plant } : {}),
      };
    },
    onResult: (_job, r) => {
      results.set(r.seed, r);
      opts.onResult?.(r, results.size);
    },
  });
  const sorted = [...results.values()].sort((a, b) => a.seed - b.seed);
  return { results: sorted, summary: summarise(sorted, opts, interrupted) };
}

/** Merge the summaries of several shards (CI matrices) into one. */
export function mergeSummaries(parts: CampaignSummary[]): CampaignSummary {
  const verdicts: Record<string, number> = {};
  const faults: Record<string, FaultLedgerEntry> = {};
  const groups = new Map<string, { oracle: string; message: string; seeds: number[] }>();
  for (const p of parts) {
    for (const [k, v] of Object.entries(p.verdicts)) verdicts[k] = (verdicts[k] ?? 0) + v;
    for (const [k, e] of Object.entries(p.faults)) {
      faults[k] ??= { scheduled: 0, fired: 0, measured: 0, changed: 0 };
      const m = faults[k];
      m.scheduled += e.scheduled;
      m.fired += e.fired;
      m.measured += e.measured;
      m.changed += e.changed;
    }
    for (const g of p.groups) {
      const key = `${g.oracle}|${g.message}`;
      const m = groups.get(key) ?? { oracle: g.oracle, message: g.message, seeds: [] };
      m.seeds.push(...g.seeds);
      groups.set(key, m);
    }
  }
  for (const g of groups.values()) g.seeds.sort((a, b) => a - b);
  // A shard written before the reach was counted has none.
  const reach = parts.reduce((r, p) => addReach(r, p.reach ?? emptyReach()), emptyReach());
  const warnings = campaignWarnings(faults, reach);
  return {
    seeds: parts.reduce((n, p) => n + p.seeds, 0),
    verdicts,
    failures: parts.flatMap((p) => p.failures).sort((a, b) => a.seed - b.seed),
    groups: [...groups.values()].sort((a, b) => b.seeds.length - a.seeds.length || (a.oracle < b.oracle ? -1 : 1)),
    faults,
    rules: mergeCampaignRules(parts.map((p) => p.rules)),
    reach,
    warnings,
    interrupted: parts.some((p) => p.interrupted),
  };
}

export function summarise(
  results: FuzzSeedResult[],
  opts: Pick<CampaignOptions, 'durationMs' | 'crypto' | 'plant' | 'profile'>,
  interrupted = false,
): CampaignSummary {
  const verdicts: Record<string, number> = {};
  const failures: CampaignSummary['failures'] = [];
  const groups = new Map<string, { oracle: string; message: string; seeds: number[] }>();
  const faults: Record<string, FaultLedgerEntry> = {};
  for (const r of results) {
    verdicts[r.verdict] = (verdicts[r.verdict] ?? 0) + 1;
    for (const f of r.faults) {
      faults[f.kind] ??= { scheduled: 0, fired: 0, measured: 0, changed: 0 };
      const e = faults[f.kind]!;
      e.scheduled++;
      if (f.fired) e.fired++;
      if (f.changed !== null) {
        e.measured++;
        if (f.changed) e.changed++;
      }
    }
    if (r.verdict === 'pass') continue;
    const plant = opts.plant ? ` --plant ${opts.plant}` : '';
    const profile = opts.profile && opts.profile !== 'swarm' ? ` --profile ${opts.profile}` : '';
    const run = `--fuzz-seed ${r.seed}${profile} --duration ${opts.durationMs / 1000}s --crypto ${opts.crypto}${plant}`;
    failures.push({
      seed: r.seed,
      oracle: r.oracle,
      verdict: r.verdict,
      violation: r.violation,
      repro: `npx lockstep replay ${run}  (shrink: npx lockstep shrink ${run})`,
    });
    // Group by oracle and the message with numbers masked, so the same bug at other heights groups.
    const message = (r.violation?.message ?? r.verdict).replace(/0x[0-9a-f]+/g, '0x…').replace(/\d+/g, 'N');
    const key = `${r.oracle}|${message}`;
    const g = groups.get(key) ?? { oracle: r.oracle ?? r.verdict, message, seeds: [] };
    g.seeds.push(r.seed);
    groups.set(key, g);
  }
  const reach = results.reduce((r, x) => addReach(r, x.reach), emptyReach());
  return {
    seeds: results.length,
    verdicts,
    failures,
    groups: [...groups.values()].sort((a, b) => b.seeds.length - a.seeds.length),
    faults,
    rules: campaignRules(results.map((r) => r.rules ?? [])),
    reach,
    warnings: campaignWarnings(faults, reach),
    interrupted,
  };
}

/**
 * What a campaign should look at: fault kinds that never fired or never changed an outcome,
 * message types no committed block delivered, Byzantine kinds crafted into blocks that never
 * committed them.
 */
function campaignWarnings(faults: Record<string, FaultLedgerEntry>, reach: MessageReach): string[] {
  const warnings: string[] = [];
  for (const [kind, e] of Object.entries(faults)) {
    if (e.fired === 0) warnings.push(`fault kind ${kind} was scheduled ${e.scheduled} times but never fired`);
    else if (e.measured > 0 && e.changed === 0)
      warnings.push(
        `fault kind ${kind} fired ${e.fired} times but never changed an outcome in the ${e.measured} measured`,
      );
  }
  for (const name of MESSAGE_NAMES.values())
    if ((reach.messages[name]?.delivered ?? 0) === 0) warnings.push(`message type ${name} was never delivered`);
  for (const [kind, b] of Object.entries(reach.byzantine))
    if (b.crafted > 0 && b.delivered === 0)
      warnings.push(`Byzantine kind ${kind} was crafted ${b.crafted} times but no committed block delivered it`);
  return warnings;
}
