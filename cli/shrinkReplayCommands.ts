/**
 * `lockstep shrink` reduces a failing run to a minimal scenario in scenarios/regressions/;
 * `lockstep replay` re-runs a scenario + seed and prints one line per event around the first
 * violation (or between two times). Both accept a scenario and seed, a fuzz seed, or a report folder.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from '../src/core/errors';
import { parseDurationMs } from '../src/core/duration';
import { loadScenario, SCENARIOS_DIR } from '../sim/scenario/load';
import { type Scenario } from '../sim/scenario/scenario';
import { encodeScenario } from '../sim/scenario/encodeScenario';
import { SWARM_PROFILES, type SwarmProfile, swarmScenario } from '../sim/campaign/swarm';
import { shrinkScenario } from '../sim/campaign/shrink';
import { parsePlant } from '../src/core/plants';
import { runScenario, type RunResult } from '../sim/run/run';
import { runOutcome } from '../sim/report/outcome';
import { EXIT } from '../src/core/exitCodes';
import { exitCodeOf } from './verdictCodes';

export interface RunTarget {
  scenario?: string;
  seed?: number;
  fuzzSeed?: number;
  duration?: string;
  /** The swarm profile of a fuzz seed (default swarm). */
  profile?: string;
  report?: string;
  crypto?: string;
  plant?: string;
}

export interface ResolvedTarget {
  scenario: Scenario;
  seed: number;
  label: string;
  /** How far the original run went (a report of a run shortened with --until); default the scenario's end. */
  untilMs?: number;
}

/** The swarm profile starts its faults 20-21 s in: a shorter run would hold faults after its end. */
const MIN_FUZZ_DURATION_MS = 30_000;

export function fuzzDurationMs(value: string | undefined, field: string): number {
  const ms = value === undefined ? 2 * 3_600_000 : parseDurationMs(value, field);
  if (ms < MIN_FUZZ_DURATION_MS)
    throw new InputError(
      field,
      `must be at least 30s (the swarm profile's first faults start 20-21 s in), got ${value}`,
    );
  return ms;
}

/** What a report folder of `lockstep run` says about its run (summary.json and scenario.json). */
function targetOfReport(dirArg: string): ResolvedTarget {
  const dir = resolve(dirArg);
  const summaryFile = join(dir, 'summary.json');
  if (!existsSync(summaryFile))
    throw new InputError('--report', `no summary.json in ${dirArg} (a report folder of \`lockstep run\` has one)`);
  let summary: Record<string, unknown>;
  try {
    summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    throw new InputError('--report', `${summaryFile} is not valid JSON: ${(e as Error).message}`);
  }
  if (summary.kind === 'lockstep-fuzz-shard' || summary.kind === 'lockstep-fuzz-merged' || 'failures' in summary)
    throw new InputError(
      '--report',
      `${dirArg} holds fuzz results, not a run: replay a failing seed with --fuzz-seed N (see the repro line of its summary)`,
    );
  const seed = Number(summary.seed);
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw new InputError('--report', `${summaryFile} names no seed; is ${dirArg} a report folder of \`lockstep run\`?`);
  const scenarioFile = join(dir, 'scenario.json');
  let scenario: Scenario;
  if (existsSync(scenarioFile)) scenario = loadScenario(scenarioFile, '--report').scenario;
  else if (typeof summary.scenario === 'string') {
    // A report written before report folders kept their scenario file: only the name is known.
    try {
      scenario = loadScenario(summary.scenario, '--report').scenario;
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      throw new InputError(
        '--report',
        `${dirArg} has no scenario.json (an older report) and its scenario ${JSON.stringify(summary.scenario)} is not under scenarios/: run it with --scenario FILE --seed ${seed}`,
      );
    }
  } else throw new InputError('--report', `${dirArg} has no scenario.json`);
  if (summary.crypto === 'fast' || summary.crypto === 'real') scenario = { ...scenario, crypto: summary.crypto };
  const untilMs =
    typeof summary.untilMs === 'number' && summary.untilMs < scenario.durationMs ? summary.untilMs : undefined;
  return {
    scenario,
    seed,
    label: `${scenario.name} seed ${seed} (from ${dirArg})`,
    ...(untilMs !== undefined ? { untilMs } : {}),
  };
}

/** A `--profile` value: one of the swarm profiles (default swarm). */
export function swarmProfileOf(value: string | undefined, field = '--profile'): SwarmProfile {
  if (value === undefined) return 'swarm';
  if (!(SWARM_PROFILES as readonly string[]).includes(value))
    throw new InputError(field, `unknown profile ${JSON.stringify(value)}; profiles: ${SWARM_PROFILES.join(', ')}`);
  return value as SwarmProfile;
}

/** Which run: a scenario file/name with a seed, a fuzz seed of a swarm profile, or a report folder. */
export function resolveTarget(t: RunTarget): ResolvedTarget {
  const plant = t.plant === undefined ? undefined : parsePlant(t.plant, '--plant');
  if (t.profile !== undefined && t.fuzzSeed === undefined)
    throw new InputError('--profile', 'goes with --fuzz-seed (the profile a fuzz seed was drawn from)');
  let target: ResolvedTarget;
  if (t.fuzzSeed !== undefined) {
    if (!Number.isSafeInteger(t.fuzzSeed) || t.fuzzSeed < 1)
      throw new InputError('--fuzz-seed', `expected a positive integer, got ${t.fuzzSeed}`);
    const profile = swarmProfileOf(t.profile);
    const named = profile === 'swarm' ? `fuzz-seed-${t.fuzzSeed}` : `fuzz-${profile}-seed-${t.fuzzSeed}`;
    const drawn = swarmScenario(t.fuzzSeed, fuzzDurationMs(t.duration, '--duration'), profile);
    // Under its own name, on the streams the campaign ran it on (the profile's name).
    target = {
      scenario: { ...drawn, name: named, streams: drawn.streams ?? drawn.name },
      seed: t.fuzzSeed,
      label: `fuzz seed ${t.fuzzSeed}${profile === 'swarm' ? '' : ` (${profile} profile)`}`,
    };
  } else if (t.report !== undefined) {
    target = targetOfReport(t.report);
    if (t.seed !== undefined) target = { ...target, seed: t.seed, label: `${target.scenario.name} seed ${t.seed}` };
  } else {
    if (t.scenario === undefined)
      throw new InputError('--scenario', 'give --scenario NAME|FILE (with --seed), --fuzz-seed N or --report DIR');
    const scenario = loadScenario(t.scenario).scenario;
    const seed = t.seed ?? scenario.seed ?? 1;
    target = { scenario, seed, label: `${scenario.name} seed ${seed}` };
  }
  if (t.seed !== undefined && (!Number.isSafeInteger(t.seed) || t.seed < 0))
    throw new InputError('--seed', `expected a non-negative integer, got ${t.seed}`);
  let scenario = target.scenario;
  if (t.crypto !== undefined) {
    if (t.crypto !== 'fast' && t.crypto !== 'real')
      throw new InputError('--crypto', `expected fast or real, got ${JSON.stringify(t.crypto)}`);
    scenario = { ...scenario, crypto: t.crypto };
  }
  if (plant !== undefined) scenario = { ...scenario, plant };
  return { ...target, scenario };
}

export async function shrinkCommand(t: RunTarget & { out?: string; name?: string; json: boolean }): Promise<number> {
  const target = resolveTarget(t);
  const { seed, label } = target;
  // A run shortened with --until is shrunk from what ran: the scenario cut there, with its faults.
  const scenario: Scenario =
    target.untilMs === undefined
      ? target.scenario
      : {
          ...target.scenario,
          durationMs: target.untilMs,
          faults: target.scenario.faults.filter((f) => f.atMs === undefined || f.atMs < target.untilMs!),
        };
  {
    const first = runScenario(scenario, { seed });
    if (!first.violation) throw new InputError('run', `${label} passes (${first.verdict}); there is nothing to shrink`);
    const oracle = first.violation.oracle;
    process.stderr.write(
      `${label} fails ${oracle}: ${first.violation.message}\nshrinking (each step re-runs the scenario)...\n`,
    );
    const { scenario: small, stats } = shrinkScenario(
      scenario,
      oracle,
      (s) => runScenario(s, { seed }).violation?.oracle ?? null,
      (what, s) => process.stderr.write(`  after ${what}: ${s.faults.length} faults, ${s.durationMs / 1000} s\n`),
    );
    const last = runScenario(small, { seed });
    const name = t.name ?? `regression-${oracle}-${scenario.name}-${seed}`;
    const regression: Scenario = {
      ...small,
      name,
      // Renamed, it keeps the streams it failed on.
      streams: small.streams ?? small.name,
      description: `Shrunk from ${label}: fails ${oracle} (${last.violation?.message ?? ''}).`,
      expect: { verdict: last.verdict, oracle, min: {}, max: {} },
      seed,
    };
    const dir = resolve(t.out ?? join(SCENARIOS_DIR, 'regressions'));
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(encodeScenario(regression), null, 2) + '\n');
    const out = {
      file,
      oracle,
      runs: stats.runs,
      faults: `${stats.faultsBefore} -> ${stats.faultsAfter}`,
      duration: `${stats.durationBeforeMs / 1000}s -> ${stats.durationAfterMs / 1000}s`,
      seed,
    };
    process.stdout.write(
      t.json
        ? JSON.stringify(out) + '\n'
        : `wrote ${file}\n  oracle ${oracle}\n  faults ${out.faults}, duration ${out.duration}, ${stats.runs} runs\n  run it: npx lockstep run --scenario ${file} --seed ${seed}\n`,
    );
    return EXIT.pass;
  }
}

export interface ReplayOptions extends RunTarget {
  from?: string;
  to?: string;
  window: string;
  kinds?: string;
}

export const REPLAY_COLUMNS =
  'columns: virtual time (ms since start) | seq (schedule order; - for a recorded fact) | kind | target node | data';

export async function replayCommand(o: ReplayOptions): Promise<number> {
  const { scenario, seed, label, untilMs } = resolveTarget(o);
  const windowMs = parseDurationMs(o.window, '--window');
  const kinds = o.kinds ? new Set(o.kinds.split(',').map((k) => k.trim())) : null;
  const lines: string[] = [];
  const r: RunResult = runScenario(scenario, {
    seed,
    ...(untilMs !== undefined ? { untilMs } : {}),
    traceSink: (line) => void lines.push(line),
  });
  const outcome = runOutcome(scenario, r, untilMs !== undefined ? { untilMs } : {});
  let fromMs: number;
  let toMs: number;
  if (o.from !== undefined || o.to !== undefined) {
    fromMs = o.from ? parseDurationMs(o.from, '--from') : 0;
    toMs = o.to ? parseDurationMs(o.to, '--to') : r.simulatedMs;
  } else if (r.violation) {
    fromMs = Math.max(0, r.violation.atMs - windowMs);
    toMs = r.violation.atMs + windowMs;
  } else {
    fromMs = Math.max(0, r.simulatedMs - windowMs);
    toMs = r.simulatedMs;
  }
  process.stdout.write(
    `# ${label}: ${outcome.verdict}${outcome.verdict === 'expectations' ? ` (${outcome.message})` : ''}${r.violation ? ` — first violation ${r.violation.oracle} at ${r.violation.atMs} ms on ${r.violation.node || 'the network'}: ${r.violation.message}` : ''}\n`,
  );
  process.stdout.write(`# events from ${fromMs} to ${toMs} ms; ${REPLAY_COLUMNS}\n`);
  for (const line of lines) {
    const e = JSON.parse(line) as { t: number; seq: number; kind: string; target: string; data?: unknown };
    if (e.t < fromMs || e.t > toMs) continue;
    if (kinds && !kinds.has(e.kind)) continue;
    process.stdout.write(
      `${String(e.t).padStart(9)} ${e.seq < 0 ? '        -' : String(e.seq).padStart(9)} ${e.kind.padEnd(22)} ${e.target.padEnd(7)} ${e.data === undefined ? '' : JSON.stringify(e.data)}\n`,
    );
  }
  process.stdout.write(`# trace ${r.traceHash}\n`);
  return exitCodeOf(outcome.verdict);
}
