/**
 * Run a scenario with a seed: build the two domains (main: service nodes, parent chain, client;
 * sidechain: the sidechain nodes), advance them in conservative time windows to the scenario's
 * duration (or `untilMs`), and summarise what happened. The sidechain domain runs in the main
 * thread (`placement: 'inline'`, sync or async) or in a worker thread (`'worker'`, async only);
 * both placements run the same windows, so the trace hash and summary are the same.
 *
 * This file is the placement: where the sidechain domain's windows run. The window loop, record
 * release and result assembly are windowLoop.ts, recordRelease.ts and runResult.ts; the result is
 * plain data (the devnet keeps the live main domain through PreparedRun.main).
 *
 * Wall time is measured by the caller (the CLI); nothing here reads a clock.
 */
import { type MainDomain } from '../domain/mainDomain';
import { type FaultSpec, type Scenario } from '../scenario/scenario';
import { runSetup } from '../domain/runSetup';
import { SidechainDomain } from '../domain/sidechainDomain';
import { type Violation } from '../oracles/oracle';
import { type RunResult } from './runResult';
import { WindowLoop } from './windowLoop';
import { type RunOptions } from './runOptions';
import { type RemoteSidechainDomain, startSidechainWorker } from '../workers/sidechainWorker';

export type { Placement, RunResult, Samples } from './runResult';
export type { RunOptions } from './runOptions';

export interface PreparedRun {
  step(): 'more' | 'done';
  finish(): RunResult;
  /** The two domains (inline runs only): a devnet reads their nodes between steps. */
  readonly main: MainDomain;
  readonly sidechain: SidechainDomain;
  /** How far both domains have run (virtual ms). */
  ranToMs(): number;
  /**
   * Run exactly one window (one barrier): a devnet steps and pauses on barriers, the only points
   * where input from outside may enter.
   */
  window(): 'more' | 'done';
  /** How far the run will have run after the next window; null when there is none. Changes nothing. */
  peekRanToMs(): number | null;
  /** Window barriers passed so far. */
  barriers(): number;
  /** Events delivered so far, both domains. */
  events(): number;
  /**
   * A fault from outside the scenario (a devnet's `lockstep node fault`), decoded like a scenario
   * fault; it starts right after the windows already run (the same time in both domains) and
   * behaves as a scheduled scenario fault with that start time. Its index follows the scenario's.
   */
  injectFault(f: FaultSpec): { index: number; atMs: number };
  /** The oracles' violations so far (the run's own suite, fed every record as the run goes). */
  violations(): Violation[];
}

export interface PreparedRunAsync {
  step(): Promise<'more' | 'done'>;
  finish(): Promise<RunResult>;
  /** Stop the worker without a result (after an error); finish() also does it. */
  close(): Promise<void>;
}

/** Run to the end, inline (synchronous). */
export function runScenario(scenario: Scenario, opts: RunOptions): RunResult {
  const run = prepareRun(scenario, opts);
  while (run.step() === 'more');
  return run.finish();
}

/** Run to the end in either placement. */
export async function runScenarioAsync(scenario: Scenario, opts: RunOptions): Promise<RunResult> {
  const run = await prepareRunAsync(scenario, opts);
  try {
    while ((await run.step()) === 'more');
    return await run.finish();
  } finally {
    await run.close();
  }
}

/** A run in steps, so that a caller with a real event loop can yield between them (Ctrl-C, progress). Inline only. */
export function prepareRun(scenario: Scenario, opts: RunOptions): PreparedRun {
  if ((opts.placement ?? 'inline') !== 'inline')
    throw new Error('prepareRun runs inline; use prepareRunAsync for the worker placement');
  const loop = new WindowLoop(scenario, opts);
  const sidechain = new SidechainDomain(scenario, opts.seed, loop.domainOptions(), runSetup(scenario, opts.seed));
  loop.begin(sidechain.begin());
  return {
    step() {
      if (loop.done) return 'done';
      for (;;) {
        const plan = loop.next();
        if (plan === null) break;
        const sc = sidechain.runWindow(plan.sidechain);
        const main = loop.main.runWindow(plan.main);
        if (loop.barrier(main, sc)) break;
      }
      return loop.afterStep();
    },
    finish: () => loop.finish(sidechain.report(loop.reportQuery())),
    main: loop.main,
    sidechain,
    ranToMs: () => loop.ranToMs,
    window() {
      if (loop.done) return 'done';
      const plan = loop.next();
      if (plan !== null) {
        // The same order as step(): the sidechain's window, then the main domain's.
        const sc = sidechain.runWindow(plan.sidechain);
        loop.barrier(loop.main.runWindow(plan.main), sc);
      }
      return loop.afterStep();
    },
    peekRanToMs: () => (loop.done ? null : loop.peekRanToMs()),
    barriers: () => loop.barriers,
    events: () => loop.main.engine.eventsDelivered + sidechain.engine.eventsDelivered,
    injectFault(f) {
      const atMs = Math.max(loop.main.status().ranToMs, sidechain.status().ranToMs) + 1;
      const index = loop.addFault({ ...f, atMs });
      loop.main.injectFault(f, index, atMs);
      sidechain.injectFault(f, index, atMs);
      loop.refresh(sidechain.status());
      return { index, atMs };
    },
    violations: () => loop.oracles.violations(),
  };
}

/** The same run, with the sidechain domain inline or in a worker thread. */
export async function prepareRunAsync(scenario: Scenario, opts: RunOptions): Promise<PreparedRunAsync> {
  if ((opts.placement ?? 'inline') === 'inline') {
    const run = prepareRun(scenario, opts);
    return { step: async () => run.step(), finish: async () => run.finish(), close: async () => {} };
  }
  const loop = new WindowLoop(scenario, opts);
  const remote: RemoteSidechainDomain = startSidechainWorker({
    ...(opts.barrierSpinMs?.main !== undefined ? { mainSpinMs: opts.barrierSpinMs.main } : {}),
    ...(opts.barrierSpinMs?.worker !== undefined ? { workerSpinMs: opts.barrierSpinMs.worker } : {}),
  });
  try {
    loop.begin(await remote.init(scenario, opts.seed, loop.domainOptions()));
  } catch (e) {
    await remote.close();
    throw e;
  }
  return {
    async step() {
      if (loop.done) return 'done';
      for (;;) {
        const plan = loop.next();
        if (plan === null) break;
        // The worker runs its window while this thread runs the main domain's.
        remote.postWindow(plan.sidechain);
        const main = loop.main.runWindow(plan.main);
        if (loop.barrier(main, await remote.takeWindow())) break;
      }
      return loop.afterStep();
    },
    async finish() {
      const report = await remote.report(loop.reportQuery());
      await remote.close();
      return loop.finish(report);
    },
    close: () => remote.close(),
  };
}
