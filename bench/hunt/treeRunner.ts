/**
 * The hunt's runner: the mutation bench's instrumented tree (instrumentedTree.ts: the code with
 * every sampled mutant in it behind a switch) and its worker task (oracleTask.ts), loaded once per
 * worker thread with tsx. A run switches on its bug: a mutant by Stryker's active mutant (a
 * "static" mutant, which acts while modules load, gets a worker of its own started with it on), a
 * plant by the scenario's `plant`. The unmodified code is the same tree with nothing switched on.
 *
 * A mutant's run that takes its switch more than HIT_LIMIT times is a hang (Stryker's hit limit: an
 * endless loop ends there); a run still going far past what is left of the budget is cut (and its
 * wall time counted as its CPU time).
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { type Piscina } from 'piscina';
import { type MutantInfo, instrument } from '../mutation/population';
import { removeEmptyTmp, removeTree, runTmpDir, writeInstrumentedTree } from '../mutation/instrumentedTree';
import { newPool, rangesOf, runOn } from '../mutation/oracleStage';
import { type OracleJob, type OracleRunResult, type ProbeResult } from '../mutation/oracleTask';
import { type Bug } from './population';
import { type RunReport, type Runner } from './hunt';
import { type HuntJob } from './strategies';

/** Hits of a mutant's switch in one run beyond which the run is a hang. */
export const HIT_LIMIT = 100_000_000;
/** A run is cut after this long, or three times what is left of the budget if more (wall ms). */
export const RUN_WALL_FLOOR_MS = 120_000;

function report(r: OracleRunResult, mutant: boolean): RunReport {
  return {
    outcome: r.outcome,
    oracle: r.oracle,
    message: r.message,
    cpuMs: r.cpuMs ?? r.wallMs,
    hits: mutant ? r.hits : null,
    features: r.features ?? [],
  };
}

export class TreeRunner {
  private readonly unmodifiedCache = new Map<string, Promise<RunReport>>();

  private constructor(
    private readonly root: string,
    private readonly tree: string,
    private readonly pool: Piscina,
    private readonly idOf: ReadonlyMap<string, string>,
    private readonly staticIds: ReadonlySet<string>,
  ) {}

  static async open(root: string, mutants: readonly MutantInfo[], workers: number): Promise<TreeRunner> {
    const files = [...new Set(mutants.map((m) => m.file))].sort();
    const instrumented = await instrument(root, files, rangesOf(mutants));
    const idOf = new Map(instrumented.mutants.map((m) => [m.key, m.strykerId]));
    for (const m of mutants)
      if (!idOf.has(m.key)) throw new Error(`the instrumenter did not place the sampled mutant ${m.key}`);
    const tmp = join(root, runTmpDir());
    mkdirSync(tmp, { recursive: true });
    const tree = mkdtempSync(join(tmp, 'hunt-'));
    writeInstrumentedTree(root, tree, instrumented.files);
    const pool = newPool(tree, workers);
    const probe = (await pool.run({ kind: 'probe' })) as ProbeResult;
    return new TreeRunner(root, tree, pool, idOf, new Set(probe.staticMutants));
  }

  isStatic(bug: Bug): boolean {
    return bug.type === 'mutant' && this.staticIds.has(this.idOf.get(bug.key)!);
  }

  private job(j: HuntJob, bug: Bug | null): OracleJob {
    const scenario = bug?.type === 'plant' ? { ...j.scenario, plant: bug.plant } : j.scenario;
    const mutantId = bug?.type === 'mutant' ? this.idOf.get(bug.key)! : null;
    return {
      kind: 'run',
      run: { kind: 'value', scenario, seed: j.seed },
      mutantId,
      hitLimit: mutantId === null ? null : HIT_LIMIT,
      features: true,
    };
  }

  /** The unmodified code's run of a job (each job once). */
  unmodified(j: HuntJob): Promise<RunReport> {
    const key = `${j.seed}\n${JSON.stringify(j.scenario)}`;
    let p = this.unmodifiedCache.get(key);
    if (!p) {
      p = runOn(this.pool, this.job(j, null), 30 * 60_000).then((r) => report(r, false));
      this.unmodifiedCache.set(key, p);
    }
    return p;
  }

  /** A runner with `bug` on (a static mutant gets a worker of its own: close it when done). */
  async forBug(bug: Bug): Promise<Runner & { close(): Promise<void> }> {
    let pool = this.pool;
    let own: Piscina | null = null;
    if (this.isStatic(bug)) {
      const id = this.idOf.get(bug.key)!;
      own = newPool(this.tree, 1, id);
      const probe = (await own.run({ kind: 'probe' })) as ProbeResult;
      if (probe.startedWith !== id)
        throw new Error(`the worker for static mutant ${id} started with ${probe.startedWith}`);
      pool = own;
    }
    const mutant = bug.type === 'mutant';
    return {
      run: async (j, budgetMs) =>
        report(await runOn(pool, this.job(j, bug), Math.max(RUN_WALL_FLOOR_MS, 3 * budgetMs)), mutant),
      unmodified: (j) => this.unmodified(j),
      close: async () => {
        await own?.destroy();
      },
    };
  }

  async close(): Promise<void> {
    await this.pool.destroy();
    removeTree(this.tree);
    removeEmptyTmp(this.root);
  }
}
