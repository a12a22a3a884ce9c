/**
 * One run of the oracle stage, in a worker that loaded an instrumented tree (instrumentedTree.ts):
 * a scenario file on its own seed, or a swarm seed, with one mutant switched on (or none: the
 * baseline). Stryker's mutant schemata read the active mutant from `globalThis.__stryker__` at
 * every switch, so one worker runs many mutants one after the other; caches are emptied before
 * each run so no run reuses what another computed with another mutant.
 *
 * The verdict follows `lockstep test` (scenarios) and `lockstep fuzz` (swarm seeds): a run that is
 * not a pass kills the mutant, and how it failed is kept apart: an oracle (safety or liveness,
 * named), a crash (a broken assert or invariant, or a thrown error), a failed expectation, or a
 * hang (the run's event or time bound, or Stryker's hit limit on the mutant's switch).
 */
import { performance } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clearCaches } from '../../src/core/memo';
import { loadScenario } from '../../sim/scenario/load';
import { type Scenario } from '../../sim/scenario/scenario';
import { decodeScenario } from '../../sim/scenario/decodeScenario';
import { FeatureCollector } from '../../sim/campaign/explore/features';
import { threadCpuMs } from './cpuTime';
import { runScenario } from '../../sim/run/run';
import { swarmScenario } from '../../sim/campaign/swarm';
import { checkExpectations } from '../../sim/report/outcome';

/** Stryker's run-time namespace (the instrumenter's header reads and writes it). */
interface StrykerNamespace {
  activeMutant?: string;
  currentTestId?: string;
  mutantCoverage?: { static: Record<string, number>; perTest: Record<string, Record<string, number>> };
  hitCount?: number;
  hitLimit?: number;
}

const g = globalThis as { __stryker__?: StrykerNamespace };
g.__stryker__ ??= {};
const ns: StrykerNamespace = g.__stryker__;

/**
 * The mutants whose switches ran while the modules loaded (module-level code): switching one of
 * them on between runs would change nothing, so each runs in a fresh worker of its own.
 */
const STATIC_AT_LOAD = Object.keys(ns.mutantCoverage?.static ?? {}).sort();
/** The mutant this worker was started with (a static mutant), if any. */
const STARTED_WITH = ns.activeMutant ?? null;

const TREE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export type OracleRun =
  | { kind: 'scenario'; file: string; fastCrypto: boolean }
  | { kind: 'swarm'; seed: number; durationMs: number }
  /** A scenario as its file holds it (encodeScenario) and a seed: a fuzz campaign's run (the hunt bench). */
  | { kind: 'value'; scenario: Record<string, unknown>; seed: number };

export interface OracleJob {
  kind: 'run';
  run: OracleRun;
  /** Stryker's id of the mutant to switch on in this tree; null runs the unmodified code. */
  mutantId: string | null;
  /** Hits of the mutant's switch beyond which the run counts as a hang (Stryker's hit limit). */
  hitLimit: number | null;
  /** Collect the explorer's features of the run (sim/campaign/explore/features.ts). */
  features?: boolean;
  /** Check the modules' invariants at every block (default true, as `npm test` does). */
  checkInvariants?: boolean;
}

export interface ProbeJob {
  kind: 'probe';
}

export type OutcomeKind = 'pass' | 'safety' | 'liveness' | 'crash' | 'expectations' | 'hang';

export interface OracleRunResult {
  outcome: OutcomeKind;
  /** The oracle that fired first (safety and liveness outcomes). */
  oracle: string | null;
  message: string;
  /** How often the active mutant's switch was taken (0 when none is on). */
  hits: number;
  /** Every switch this run passed with its mutant off: Stryker id to count. */
  coverage: Record<string, number>;
  simulatedMs: number;
  wallMs: number;
  /** CPU time of this worker thread for the run (null where /proc is not there). */
  cpuMs: number | null;
  /** The run's features, when asked for. */
  features?: string[];
  traceHash?: string;
}

export interface ProbeResult {
  staticMutants: string[];
  startedWith: string | null;
}

const HIT_LIMIT = 'Stryker: Hit count limit reached';

function scenarioOf(run: OracleRun): Scenario {
  if (run.kind === 'swarm') return swarmScenario(run.seed, run.durationMs);
  if (run.kind === 'value') return decodeScenario(run.scenario);
  const s = loadScenario(join(TREE_ROOT, run.file), 'file').scenario;
  return run.fastCrypto ? { ...s, crypto: 'fast' } : s;
}

function seedOf(run: OracleRun, s: Scenario): number {
  return run.kind === 'swarm' || run.kind === 'value' ? run.seed : (s.seed ?? 1);
}

let runs = 0;

export function runOracleJob(job: OracleJob): OracleRunResult {
  const start = performance.now();
  const cpuStart = threadCpuMs();
  const collector = job.features ? new FeatureCollector() : null;
  let extra: Pick<OracleRunResult, 'features' | 'traceHash'> = {};
  const testId = `run-${runs++}`;
  clearCaches();
  if (STARTED_WITH === null) ns.activeMutant = job.mutantId ?? undefined;
  else if (job.mutantId !== STARTED_WITH)
    throw new Error(`this worker started with static mutant ${STARTED_WITH} and cannot run ${job.mutantId}`);
  ns.currentTestId = testId;
  ns.hitCount = job.mutantId === null ? undefined : 0;
  ns.hitLimit = job.hitLimit ?? undefined;
  const done = (r: Omit<OracleRunResult, 'hits' | 'coverage' | 'wallMs' | 'cpuMs'>): OracleRunResult => {
    const hits = ns.hitCount ?? 0;
    const coverage = ns.mutantCoverage?.perTest[testId] ?? {};
    if (ns.mutantCoverage) delete ns.mutantCoverage.perTest[testId];
    ns.currentTestId = undefined;
    ns.hitCount = undefined;
    ns.hitLimit = undefined;
    if (STARTED_WITH === null) ns.activeMutant = undefined;
    // A hit limit thrown inside code that catches errors still shows in the count.
    const overLimit = job.hitLimit !== null && hits > job.hitLimit;
    return {
      ...(overLimit && r.outcome !== 'hang'
        ? { ...r, outcome: 'hang', oracle: null, message: `${HIT_LIMIT} (${hits} hits, limit ${job.hitLimit})` }
        : r),
      hits,
      coverage,
      wallMs: performance.now() - start,
      cpuMs: cpuStart === null ? null : (threadCpuMs() ?? cpuStart) - cpuStart,
      ...extra,
    };
  };
  let scenario: Scenario;
  try {
    scenario = scenarioOf(job.run);
  } catch (e) {
    return done({ outcome: 'crash', oracle: null, message: `loading: ${(e as Error).message}`, simulatedMs: 0 });
  }
  try {
    const r = runScenario(scenario, {
      seed: seedOf(job.run, scenario),
      checkInvariants: job.checkInvariants ?? true,
      ...(collector ? { onRecord: collector.onRecord } : {}),
    });
    extra = { traceHash: r.traceHash, ...(collector ? { features: collector.finish(r) } : {}) };
    if (r.engine.runaway)
      return done({ outcome: 'hang', oracle: null, message: r.message, simulatedMs: r.simulatedMs });
    if (r.verdict === 'safety' || r.verdict === 'liveness')
      return done({
        outcome: r.verdict,
        oracle: r.violation?.oracle ?? null,
        message: r.violation?.message ?? r.message,
        simulatedMs: r.simulatedMs,
      });
    if (r.verdict !== 'pass')
      return done({ outcome: 'crash', oracle: null, message: r.message, simulatedMs: r.simulatedMs });
    const failed = checkExpectations(scenario, r).filter((c) => !c.ok);
    if (failed.length)
      return done({
        outcome: 'expectations',
        oracle: null,
        message: failed.map((c) => `${c.what} expected ${c.op} ${c.expected} got ${c.actual}`).join('; '),
        simulatedMs: r.simulatedMs,
      });
    return done({ outcome: 'pass', oracle: null, message: '', simulatedMs: r.simulatedMs });
  } catch (e) {
    const message = (e as Error).message ?? String(e);
    return done({
      outcome: message.startsWith(HIT_LIMIT) ? 'hang' : 'crash',
      oracle: null,
      message: `${(e as Error).name ?? 'Error'}: ${message}`,
      simulatedMs: 0,
    });
  }
}

export default function task(job: OracleJob | ProbeJob): OracleRunResult | ProbeResult {
  if (job.kind === 'probe') return { staticMutants: STATIC_AT_LOAD, startedWith: STARTED_WITH };
  return runOracleJob(job);
}
