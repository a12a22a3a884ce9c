/**
 * Stage (b): the sampled mutants against the oracles. The target files are instrumented once with
 * Stryker's instrumenter (the sampled positions only) into a copy of the code (instrumentedTree.ts);
 * a pool of worker threads loads that copy once and runs the campaign with one mutant switched on
 * at a time (oracleTask.ts).
 *
 * 1. Baseline: every run of the campaign on the unmodified code (no mutant on). Each must pass, or
 *    the stage stops (BaselineFailure): a campaign that fails without a mutant kills nothing. The
 *    baseline also records which mutants' code each run executes (Stryker's coverage counters).
 * 2. The positive control (campaign.ts) runs next: a campaign that cannot kill a mutant known to
 *    be wrong stops the stage (HarnessError).
 * 3. Each mutant runs the scenarios, then the swarm seeds, that executed its code in the baseline,
 *    in order, up to the first run that is not a pass. A run that did not execute its code would
 *    be the baseline run again (the simulation is deterministic), so it is skipped; a run that did
 *    must execute the switched-on mutant at least once, or the harness is broken and the stage
 *    stops (HarnessError). A mutant whose switch runs while the modules load ("static") gets a
 *    worker of its own, started with it on, and runs the whole campaign.
 * 4. A run that exceeds Stryker's hit limit on the mutant's switch (1,000 times its baseline count,
 *    at least 100,000: deterministic), or its wall budget (10 times its baseline, at least 60 s),
 *    is a hang.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { type MutantInfo, type Position, instrument } from './population';
import { removeEmptyTmp, removeTree, runTmpDir, writeInstrumentedTree } from './instrumentedTree';
import { type Campaign, type CampaignRun, campaignRuns, runLabel } from './campaign';
import { type OracleJob, type OracleRunResult, type OutcomeKind, type ProbeResult } from './oracleTask';

export const HIT_LIMIT_FACTOR = 1_000;
export const HIT_LIMIT_FLOOR = 100_000;
export const WALL_BUDGET_FACTOR = 10;
export const WALL_BUDGET_FLOOR_MS = 60_000;

/** A worker thread's heap bound: a mutant that grows memory without end dies alone. */
const WORKER_HEAP_MB = 3_072;

export interface BaselineRun {
  run: string;
  outcome: OutcomeKind;
  message: string;
  wallMs: number;
  /** Sampled mutants whose code this run executes. */
  reaches: number;
}

export type OracleStatus = 'killed' | 'hang' | 'survived';

export interface OracleResult {
  status: OracleStatus;
  /** How the first failing run failed (null for a survivor). */
  kind: Exclude<OutcomeKind, 'pass'> | null;
  oracle: string | null;
  /** The run that killed it: a scenario name or `swarm seed N`. */
  run: string | null;
  via: 'scenario' | 'swarm' | null;
  message: string;
  /** Whether any run of the campaign executes its code (static mutants: always). */
  reached: boolean;
  static: boolean;
  /** Runs tried (the killing one included). */
  runs: number;
}

export interface OracleStageResult {
  baseline: BaselineRun[];
  /** The positive control's result (always killed: otherwise the stage throws). */
  control: OracleResult | null;
  results: Map<string, OracleResult>;
}

export class BaselineFailure extends Error {
  constructor(readonly runs: BaselineRun[]) {
    const bad = runs.filter((r) => r.outcome !== 'pass');
    super(
      `the unmodified code fails the campaign: ${bad.map((r) => `${r.run} ${r.outcome}${r.message ? ` (${r.message.slice(0, 200)})` : ''}`).join('; ')}`,
    );
    this.name = 'BaselineFailure';
  }
}

export class HarnessError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HarnessError';
  }
}

export interface OracleStageOptions {
  root: string;
  workers: number;
  campaign: Campaign;
  /** A mutant known to be wrong, run first; the stage stops (HarnessError) if it survives. */
  control?: MutantInfo;
  /**
   * For the harness's own test only: the id actually switched on for a mutant. A harness that
   * switches on the wrong mutant must be caught (HarnessError), and this is how the test breaks it.
   */
  switchedOn?: (id: string) => string;
  /** Asked before each mutant: true stops the stage (the mutants done are returned). */
  stop?: () => boolean;
  onBaseline?: (r: BaselineRun, done: number, total: number) => void;
  onMutant?: (m: MutantInfo, r: OracleResult) => void;
}

export function rangesOf(sample: readonly MutantInfo[]): Map<string, Array<{ start: Position; end: Position }>> {
  const out = new Map<string, Array<{ start: Position; end: Position }>>();
  for (const m of sample) {
    const list = out.get(m.file) ?? [];
    list.push({ start: m.start, end: m.end });
    out.set(m.file, list);
  }
  return out;
}

export function newPool(tree: string, threads: number, staticMutant?: string): Piscina {
  return new Piscina({
    filename: join(tree, 'bench', 'mutation', 'oracleTask.mjs'),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 60_000,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    ...(staticMutant !== undefined ? { workerData: { staticMutant } } : {}),
  });
}

/** One run on the pool; a wall budget overrun or a dead worker comes back as a result too. */
export async function runOn(pool: Piscina, job: OracleJob, budgetMs: number): Promise<OracleRunResult> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), budgetMs);
  try {
    return (await pool.run(job, { signal: abort.signal })) as OracleRunResult;
  } catch (e) {
    // The thread was busy the whole time (it is gone: its CPU time is not known).
    const base = { oracle: null, hits: 0, coverage: {}, simulatedMs: 0, wallMs: budgetMs, cpuMs: budgetMs };
    if (abort.signal.aborted)
      return {
        ...base,
        outcome: 'hang',
        message: `no result within the wall budget of ${Math.round(budgetMs / 1000)} s`,
      };
    return { ...base, outcome: 'crash', message: `the worker died: ${(e as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}

export async function runOracleStage(sample: readonly MutantInfo[], o: OracleStageOptions): Promise<OracleStageResult> {
  const all = o.control ? [o.control, ...sample] : sample;
  const files = [...new Set(all.map((m) => m.file))].sort();
  const instrumented = await instrument(o.root, files, rangesOf(all));
  const idOf = new Map(instrumented.mutants.map((m) => [m.key, m.strykerId]));
  for (const m of all)
    if (!idOf.has(m.key)) throw new HarnessError(`the instrumenter did not place the sampled mutant ${m.key}`);
  const tmp = join(o.root, runTmpDir());
  mkdirSync(tmp, { recursive: true });
  const tree = mkdtempSync(join(tmp, 'tree-'));
  writeInstrumentedTree(o.root, tree, instrumented.files);
  const pool = newPool(tree, o.workers);
  try {
    const probe = (await pool.run({ kind: 'probe' })) as ProbeResult;
    const staticIds = new Set(probe.staticMutants);
    const runs = campaignRuns(o.campaign);
    const sampledIds = new Set(sample.map((m) => idOf.get(m.key)!));

    // 1. Baseline, with coverage.
    const coverage: Array<Record<string, number>> = [];
    const baseline: BaselineRun[] = [];
    await Promise.all(
      Array.from({ length: o.workers }, async (_, w) => {
        for (let i = w; i < runs.length; i += o.workers) {
          const r = await runOn(pool, { kind: 'run', run: runs[i]!, mutantId: null, hitLimit: null }, 30 * 60_000);
          coverage[i] = r.coverage;
          baseline[i] = {
            run: runLabel(runs[i]!),
            outcome: r.outcome,
            message: r.message,
            wallMs: r.wallMs,
            reaches: Object.keys(r.coverage).filter((id) => sampledIds.has(id)).length,
          };
          o.onBaseline?.(baseline[i]!, baseline.filter(Boolean).length, runs.length);
        }
      }),
    );
    if (baseline.some((b) => b.outcome !== 'pass')) throw new BaselineFailure(baseline);

    const switchedOn = o.switchedOn ?? ((id: string) => id);
    const test = (id: string): Promise<OracleResult> =>
      staticIds.has(id)
        ? runStatic(tree, id, runs, baseline)
        : runMutant(pool, id, switchedOn(id), runs, coverage, baseline);

    // 2. The positive control: the campaign must kill a mutant known to be wrong.
    let control: OracleResult | null = null;
    if (o.control) {
      control = await test(idOf.get(o.control.key)!);
      if (control.status === 'survived')
        throw new HarnessError(
          `the control mutant ${o.control.key} (known to be wrong) survived the campaign: it cannot tell a broken rule from a correct one`,
        );
    }

    // 3. The mutants, `workers` at a time, each through its runs in order.
    const results = new Map<string, OracleResult>();
    let next = 0;
    const loop = async (): Promise<void> => {
      for (let i = next++; i < sample.length && !o.stop?.(); i = next++) {
        const m = sample[i]!;
        const id = idOf.get(m.key)!;
        const r = await test(id);
        results.set(m.key, r);
        o.onMutant?.(m, r);
      }
    };
    await Promise.all(Array.from({ length: o.workers }, () => loop()));
    return { baseline, control, results };
  } finally {
    await pool.destroy();
    removeTree(tree);
    removeEmptyTmp(o.root);
  }
}

function budgetOf(b: BaselineRun): number {
  return Math.max(WALL_BUDGET_FLOOR_MS, WALL_BUDGET_FACTOR * b.wallMs);
}

function verdictOf(
  r: OracleRunResult,
  run: CampaignRun,
  reached: boolean,
  isStatic: boolean,
  runs: number,
): OracleResult {
  const kind = r.outcome as Exclude<OutcomeKind, 'pass'>;
  return {
    status: kind === 'hang' ? 'hang' : 'killed',
    kind,
    oracle: r.oracle,
    run: runLabel(run),
    via: run.kind,
    message: r.message,
    reached,
    static: isStatic,
    runs,
  };
}

function survived(reached: boolean, isStatic: boolean, runs: number): OracleResult {
  return {
    status: 'survived',
    kind: null,
    oracle: null,
    run: null,
    via: null,
    message: '',
    reached,
    static: isStatic,
    runs,
  };
}

async function runMutant(
  pool: Piscina,
  id: string,
  switchedOn: string,
  runs: readonly CampaignRun[],
  coverage: ReadonlyArray<Record<string, number>>,
  baseline: readonly BaselineRun[],
): Promise<OracleResult> {
  const reaching = runs.map((_, i) => i).filter((i) => (coverage[i]![id] ?? 0) > 0);
  let tried = 0;
  for (const i of reaching) {
    const hitLimit = Math.max(HIT_LIMIT_FLOOR, HIT_LIMIT_FACTOR * coverage[i]![id]!);
    const r = await runOn(pool, { kind: 'run', run: runs[i]!, mutantId: switchedOn, hitLimit }, budgetOf(baseline[i]!));
    tried++;
    if (r.outcome !== 'hang' && r.hits === 0)
      throw new HarnessError(
        `mutant ${id} was never switched on in ${runLabel(runs[i]!)}, whose unmodified run executes its code ${coverage[i]![id]} times: the active mutant does not reach the workers`,
      );
    if (r.outcome !== 'pass') return verdictOf(r, runs[i]!, true, false, tried);
  }
  return survived(reaching.length > 0, false, tried);
}

/** A static mutant: a fresh worker started with it on, the whole campaign (coverage cannot say). */
async function runStatic(
  tree: string,
  id: string,
  runs: readonly CampaignRun[],
  baseline: readonly BaselineRun[],
): Promise<OracleResult> {
  const pool = newPool(tree, 1, id);
  try {
    const probe = (await pool.run({ kind: 'probe' })) as ProbeResult;
    if (probe.startedWith !== id)
      throw new HarnessError(`the worker for static mutant ${id} started with ${probe.startedWith ?? 'no mutant'}`);
    let tried = 0;
    for (const [i, run] of runs.entries()) {
      const r = await runOn(pool, { kind: 'run', run, mutantId: id, hitLimit: null }, budgetOf(baseline[i]!));
      tried++;
      if (r.outcome !== 'pass') return verdictOf(r, run, true, true, tried);
    }
    return survived(true, true, tried);
  } finally {
    await pool.destroy();
  }
}
