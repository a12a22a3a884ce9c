/**
 * `lockstep shrink` reduces a failing run to a minimal scenario in scenarios/regressions/;
 * `lockstep replay` re-runs a scenario + seed and prints one line per event around the first
 * violation (or between two times). Both accept a scenario and seed, a fuzz seed, or a report folder.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from '../core/errors';
import { parseDurationMs } from '../core/duration';
import { loadScenario, SCENARIOS_DIR } from '../../sim/scenario/load';
import { encodeScenario, type Scenario } from '../../sim/scenario/scenario';
import { swarmScenario } from '../../sim/campaign/swarm';
import { shrinkScenario } from '../../sim/campaign/shrink';
import { installPlant, PLANT_NAMES } from '../../sim/campaign/plants';
import { runScenario, type RunResult } from '../../sim/run';
import { EXIT } from './exitCodes';
import { VERDICT_EXIT } from './runCommand';

export interface RunTarget {
  scenario?: string;
  seed?: number;
  fuzzSeed?: number;
  duration?: string;
  report?: string;
  crypto?: string;
  plant?: string;
}

/** Which run: a scenario file/name with a seed, a fuzz seed of the swarm profile, or a report folder. */
export function resolveTarget(t: RunTarget): { scenario: Scenario; seed: number; label: string } {
  if (t.plant !== undefined && !PLANT_NAMES.includes(t.plant))
    throw new InputError('--plant', `unknown planted bug; known: ${PLANT_NAMES.join(', ')}`);
  let scenario: Scenario;
  let seed: number;
  let label: string;
  if (t.fuzzSeed !== undefined) {
    if (!Number.isSafeInteger(t.fuzzSeed) || t.fuzzSeed < 1)
      throw new InputError('--fuzz-seed', `expected a positive integer, got ${t.fuzzSeed}`);
    scenario = {
      ...swarmScenario(t.fuzzSeed, t.duration ? parseDurationMs(t.duration, '--duration') : 2 * 3_600_000),
      name: `fuzz-seed-${t.fuzzSeed}`,
    };
    seed = t.fuzzSeed;
    label = `fuzz seed ${seed}`;
  } else if (t.report !== undefined) {
    const file = join(resolve(t.report), 'summary.json');
    if (!existsSync(file)) throw new InputError('--report', `no summary.json in ${t.report}`);
    const summary = JSON.parse(readFileSync(file, 'utf8')) as { scenario: string; seed: string | number };
    scenario = loadScenario(summary.scenario).scenario;
    seed = Number(summary.seed);
    label = `${summary.scenario} seed ${seed} (from ${t.report})`;
  } else {
    if (t.scenario === undefined)
      throw new InputError('--scenario', 'give --scenario NAME|FILE (with --seed), --fuzz-seed N or --report DIR');
    scenario = loadScenario(t.scenario).scenario;
    seed = t.seed ?? 1;
    label = `${scenario.name} seed ${seed}`;
  }
  if (t.crypto !== undefined) {
    if (t.crypto !== 'fast' && t.crypto !== 'real')
      throw new InputError('--crypto', `expected fast or real, got ${JSON.stringify(t.crypto)}`);
    scenario = { ...scenario, crypto: t.crypto };
  }
  if (t.plant !== undefined) scenario = { ...scenario, plant: t.plant };
  return { scenario, seed, label };
}

export async function shrinkCommand(t: RunTarget & { out?: string; name?: string; json: boolean }): Promise<number> {
  const { scenario, seed, label } = resolveTarget(t);
  const undo = installPlant(scenario.plant);
  try {
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
  } finally {
    undo();
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
  const { scenario, seed, label } = resolveTarget(o);
  const windowMs = parseDurationMs(o.window, '--window');
  const kinds = o.kinds ? new Set(o.kinds.split(',').map((k) => k.trim())) : null;
  const lines: string[] = [];
  const undo = installPlant(scenario.plant);
  let r: RunResult;
  try {
    r = runScenario(scenario, { seed, traceSink: (line) => void lines.push(line) });
  } finally {
    undo();
  }
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
    `# ${label}: ${r.verdict}${r.violation ? ` — first violation ${r.violation.oracle} at ${r.violation.atMs} ms on ${r.violation.node || 'the network'}: ${r.violation.message}` : ''}\n`,
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
  return VERDICT_EXIT[r.verdict] ?? EXIT.crash;
}
