/**
 * Run a scenario with a seed: build the two domains (main: service nodes, parent chain, client;
 * sidechain: the sidechain nodes), advance them in conservative time windows to the scenario's
 * duration (or `untilMs`), and summarise what happened. The sidechain domain runs in the main
 * thread (`placement: 'inline'`, sync or async) or in a worker thread (`'worker'`, async only);
 * both placements run the same windows, so the trace hash and summary are the same.
 *
 * Wall time is measured by the caller (the CLI); nothing here reads a clock.
 */
import { type Hex, fromHex, toHex } from '../src/core/bytes';
import { keccak256Bytes } from '../src/core/hash';
import { concatBytes } from '../src/core/bytes';
import { getAckCount } from '../src/modules/checkpoint/ackCount';
import { getLastSpan } from '../src/modules/sidechain/keeper';
import { Cluster } from './cluster';
import { type Counts, type FaultSpec, type Scenario, type Verdict } from './scenario/scenario';
import { type RunVerdict } from './engine/engine';
import { type TraceRecorder, type TraceSink } from './trace/traceRecorder';
import { clusterSetup } from './domain/clusterSetup';
import {
  type DomainOptions,
  type DomainStatus,
  type IndexedFaultFired,
  type RunRecord,
  type WindowEnd,
  type WindowResult,
} from './domain/domain';
import {
  SidechainDomain,
  type ReorgRecord,
  type SidechainReport,
  type SidechainReportQuery,
} from './domain/sidechainDomain';
import { OracleSuite } from './oracles/suite';
import { faultSilencesProducers } from './faults/registry';
import { type Violation } from './oracles/oracle';
import { TimeMerge, traceLineTimeMs } from './domain/timeMerge';
import { type WindowPlan, WindowScheduler } from './domain/windowScheduler';
import { type RemoteSidechainDomain, startSidechainWorker } from './workers/sidechainWorker';

export type Placement = 'inline' | 'worker';

export interface RunOptions {
  seed: number;
  untilMs?: number;
  /** The main domain's trace recorder (its sinks see the main domain's lines only; see traceSink). */
  trace?: TraceRecorder;
  /**
   * Every trace line of the run (JSONL), both domains merged in canonical order: by time, main
   * first on ties (a line goes out once both domains have run past its time).
   */
  traceSink?: TraceSink;
  /** Every record (observation) of both domains, in the same canonical order; for oracles. */
  onRecord?: (record: RunRecord) => void;
  /** What the sidechain domain should compute at the end (e.g. checkpoint roots), asked with the main domain's final state. */
  sidechainQuery?: (cluster: Cluster) => SidechainReportQuery;
  /** Where the sidechain domain runs (default inline). `runScenario`/`prepareRun` are inline only. */
  placement?: Placement;
  /** Called every `progressEveryMs` of simulated time (for progress bars); return 'stop' to end early. */
  onProgress?: (simulatedMs: number, totalMs: number) => 'stop' | undefined;
  progressEveryMs?: number;
  /**
   * How much simulated time one `step()` covers at most (default: the larger of the sample and
   * progress spacing). A devnet paced to the wall clock takes short steps.
   */
  stepMs?: number;
  /**
   * Called at every window barrier, after both domains ran the window (`barrier` counts them).
   * The only place where input from outside the simulation may enter (`deliverExternal`), so a
   * replay that makes the same calls at the same barriers runs the same events.
   */
  onBarrier?: (barrier: number) => void;
  /** Samples for plots are taken this often (default: 120 samples over the run). */
  sampleEveryMs?: number;
  /**
   * Worker placement only: how long each thread spins on the barrier channel before it sleeps
   * (ms; see sim/workers/barrierChannel.ts). Spinning saves the thread wake-up (~0.1 ms) per
   * barrier but steals cycles where two threads share a core. Never changes results.
   */
  barrierSpinMs?: { main?: number; worker?: number };
}

/** What the plots show, sampled over the run. */
export interface Samples {
  timeMs: number[];
  serviceHeight: number[];
  /** Sidechain head per node, by node id. */
  sidechainHeight: Record<string, number[]>;
}

export interface RunResult {
  scenario: string;
  seed: number;
  crypto: string;
  placement: Placement;
  simulatedMs: number;
  /** keccak(main domain trace digest ‖ sidechain domain trace digest). */
  traceHash: string;
  traceDigests: { main: Hex; sidechain: Hex };
  verdict: Verdict;
  message: string;
  counts: Counts;
  maxReorgDepth: number;
  backupBlocks: number;
  /** Every reorg any sidechain node went through (atMs on the node's clock: epoch-based). */
  reorgs: ReorgRecord[];
  events: number;
  /** Faults that fired (in either domain), by time then scenario index; `index` is the fault's index in the scenario. */
  faultsFired: IndexedFaultFired[];
  network: { sent: number; delivered: number; dropped: number; blocked: number; duplicated: number };
  /** The main domain (service nodes, parent chain); `cluster.sidechain` is the sidechain report. */
  cluster: Cluster;
  /** The sidechain domain's end-of-run report (plain data, whichever thread it ran in). */
  sidechain: SidechainReport;
  /** Everything the sidechain nodes recorded (the main domain's records are `cluster.records`). */
  sidechainRecords: RunRecord[];
  engine: RunVerdict;
  samples: Samples;
  /** Milliseconds from buffering to ack, per acked checkpoint. */
  checkpointLatencyMs: number[];
  /** Window barriers passed and cross-domain messages exchanged (for benchmarks). */
  windows: { barriers: number; crossMessages: number; crossLatencyMs: number };
  interrupted: boolean;
  /** The first oracle violation (it decides a failing verdict), and all of them. */
  violation: Violation | null;
  violations: Violation[];
}

export interface PreparedRun {
  step(): 'more' | 'done';
  finish(): RunResult;
  /** The two domains (inline runs only): a devnet reads their nodes between steps. */
  readonly main: Cluster;
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
  const core = new RunCore(scenario, opts);
  const sidechain = new SidechainDomain(scenario, opts.seed, core.domainOptions(), clusterSetup(scenario, opts.seed));
  core.begin(sidechain.begin());
  return {
    step() {
      if (core.done) return 'done';
      for (;;) {
        const plan = core.next();
        if (plan === null) break;
        const sc = sidechain.runWindow(plan.sidechain);
        const main = core.cluster.runWindow(plan.main);
        if (core.barrier(main, sc)) break;
      }
      return core.afterStep();
    },
    finish: () => core.finish(sidechain.report(core.reportQuery())),
    main: core.cluster,
    sidechain,
    ranToMs: () => core.ranToMs,
    window() {
      if (core.done) return 'done';
      const plan = core.next();
      if (plan !== null) {
        // The same order as step(): the sidechain's window, then the main domain's.
        const sc = sidechain.runWindow(plan.sidechain);
        core.barrier(core.cluster.runWindow(plan.main), sc);
      }
      return core.afterStep();
    },
    peekRanToMs: () => (core.done ? null : core.peekRanToMs()),
    barriers: () => core.barriers,
    events: () => core.cluster.engine.eventsDelivered + sidechain.engine.eventsDelivered,
    injectFault(f) {
      const atMs = Math.max(core.cluster.status().ranToMs, sidechain.status().ranToMs) + 1;
      const index = core.addFault({ ...f, atMs });
      core.cluster.injectFault(f, index, atMs);
      sidechain.injectFault(f, index, atMs);
      core.refresh(sidechain.status());
      return { index, atMs };
    },
    violations: () => core.oracles.violations(),
  };
}

/** The same run, with the sidechain domain inline or in a worker thread. */
export async function prepareRunAsync(scenario: Scenario, opts: RunOptions): Promise<PreparedRunAsync> {
  if ((opts.placement ?? 'inline') === 'inline') {
    const run = prepareRun(scenario, opts);
    return { step: async () => run.step(), finish: async () => run.finish(), close: async () => {} };
  }
  const core = new RunCore(scenario, opts);
  const remote: RemoteSidechainDomain = startSidechainWorker({
    ...(opts.barrierSpinMs?.main !== undefined ? { mainSpinMs: opts.barrierSpinMs.main } : {}),
    ...(opts.barrierSpinMs?.worker !== undefined ? { workerSpinMs: opts.barrierSpinMs.worker } : {}),
  });
  try {
    core.begin(await remote.init(scenario, opts.seed, core.domainOptions()));
  } catch (e) {
    await remote.close();
    throw e;
  }
  return {
    async step() {
      if (core.done) return 'done';
      for (;;) {
        const plan = core.next();
        if (plan === null) break;
        // The worker runs its window while this thread runs the main domain's.
        remote.postWindow(plan.sidechain);
        const main = core.cluster.runWindow(plan.main);
        if (core.barrier(main, await remote.takeWindow())) break;
      }
      return core.afterStep();
    },
    async finish() {
      const report = await remote.report(core.reportQuery());
      await remote.close();
      return core.finish(report);
    },
    close: () => remote.close(),
  };
}

/** Everything both placements share: the main domain, the windows, the verdict, the result. */
class RunCore {
  readonly cluster: Cluster;
  readonly untilMs: number;
  readonly sampleEveryMs: number;
  private readonly stepMs: number;
  private scheduler!: WindowScheduler;
  private verdict: Verdict = 'pass';
  private message = 'completed';
  private interrupted = false;
  private endKind: WindowEnd['kind'] | null = null;
  private nextProgress: number;
  private stepTarget: number;
  private readonly records = new TimeMerge<RunRecord>((r) => r.t);
  readonly oracles: OracleSuite;
  private readonly lines = new TimeMerge<string>(traceLineTimeMs);
  private readonly sidechainRecords: RunRecord[] = [];
  /** The scenario's faults, then those injected from outside (a devnet's), by index. */
  private readonly faults: FaultSpec[];
  done = false;

  constructor(
    readonly scenario: Scenario,
    readonly opts: RunOptions,
  ) {
    this.untilMs = opts.untilMs ?? scenario.durationMs;
    this.sampleEveryMs = Math.max(1000, opts.sampleEveryMs ?? Math.floor(this.untilMs / 120));
    this.stepMs = opts.stepMs ?? Math.max(this.sampleEveryMs, opts.progressEveryMs ?? this.sampleEveryMs);
    this.nextProgress = this.stepMs;
    this.stepTarget = Math.min(this.untilMs, this.stepMs);
    this.cluster = new Cluster(scenario, opts.seed, {
      ...this.domainOptions(),
      ...(opts.trace ? { trace: opts.trace } : {}),
    });
    this.faults = [...scenario.faults];
    // The oracles see the injected faults too (their start times excuse silent producers).
    this.oracles = new OracleSuite(
      { ...scenario, faults: this.faults },
      (i) => this.cluster.setup.keys[i - 1]?.signer,
      faultSilencesProducers,
    );
  }

  domainOptions(): DomainOptions {
    return { untilMs: this.untilMs, sampleEveryMs: this.sampleEveryMs, traceLines: this.opts.traceSink !== undefined };
  }

  begin(sidechain: { status: DomainStatus; end: WindowEnd | null }): void {
    const main = this.cluster.begin();
    this.scheduler = new WindowScheduler(
      this.cluster.setup.crossLatencyMs,
      this.untilMs,
      this.scenario.maxEvents,
      main.status,
      sidechain.status,
    );
    // Lines traced while starting stay in the domains' buffers and come out with the first window.
    const end = main.end ?? sidechain.end;
    if (end) this.end(end);
  }

  /** Pass on the records and trace lines both domains have run past (all of them at the end). */
  private release(upToMs: number): void {
    const onRecord = this.opts.onRecord;
    const records = this.records.release(upToMs);
    for (const r of records) this.oracles.observe(r);
    if (onRecord) for (const r of records) onRecord(r);
    const sink = this.opts.traceSink;
    if (sink) for (const l of this.lines.release(upToMs)) sink(l);
  }

  reportQuery(): SidechainReportQuery {
    const q = this.opts.sidechainQuery?.(this.cluster) ?? {};
    this.release(Infinity);
    return q;
  }

  get ranToMs(): number {
    return this.scheduler.ranToMs;
  }

  get barriers(): number {
    return this.scheduler.barriers;
  }

  peekRanToMs(): number | null {
    return this.scheduler.peekRanToMs();
  }

  /** A fault injected from outside: its index (after the scenario's). */
  addFault(f: FaultSpec): number {
    this.faults.push(f);
    return this.faults.length - 1;
  }

  /** The domains' statuses again, after input between two windows (inline runs). */
  refresh(sidechain: DomainStatus): void {
    this.scheduler.refresh(this.cluster.status(), sidechain);
  }

  next(): WindowPlan | null {
    if (this.done) return null;
    const plan = this.scheduler.next();
    if (plan === null) this.done = true;
    return plan;
  }

  /** After a window: true when this step should end (the run ended, or the step's span is done). */
  barrier(main: WindowResult, sidechain: WindowResult): boolean {
    const out = this.scheduler.complete(main, sidechain);
    for (const r of sidechain.records) this.sidechainRecords.push(r);
    this.records.push(0, main.records);
    this.records.push(1, sidechain.records);
    if (this.opts.traceSink) {
      this.lines.push(0, main.traceLines ?? []);
      this.lines.push(1, sidechain.traceLines ?? []);
    }
    this.release(this.scheduler.ranToMs);
    if (!out.end) this.opts.onBarrier?.(this.scheduler.barriers);
    if (out.end) {
      this.end(out.end);
      return true;
    }
    return this.scheduler.ranToMs >= this.stepTarget;
  }

  private end(end: WindowEnd): void {
    this.done = true;
    this.endKind = end.kind;
    if (end.kind !== 'stopped') {
      this.verdict = 'crash';
      this.message = end.message;
    }
  }

  afterStep(): 'more' | 'done' {
    const now = this.scheduler.ranToMs;
    if (!this.done && now >= this.untilMs) this.done = true;
    if (now >= this.nextProgress || this.done) {
      while (this.nextProgress <= now) this.nextProgress += this.stepMs;
      if (this.opts.onProgress?.(now, this.untilMs) === 'stop' && !this.done) {
        this.interrupted = true;
        this.message = `interrupted at ${now} ms`;
        this.done = true;
      }
    }
    this.stepTarget = Math.min(this.untilMs, now + this.stepMs);
    return this.done ? 'done' : 'more';
  }

  finish(sc: SidechainReport): RunResult {
    const c = this.cluster;
    c.sidechain = sc;
    this.release(Infinity);
    let serviceBlocks = 0;
    let spans = 0;
    let acked = 0;
    for (const n of c.serviceNodes) {
      serviceBlocks = Math.max(serviceBlocks, Number(n.app.height));
      spans = Math.max(spans, Number(getLastSpan(n.app.store)?.id ?? 0n));
      acked = Math.max(acked, Number(getAckCount(n.app.store)));
    }
    const mainDigest = c.traceDigest();
    const traceHash = toHex(keccak256Bytes(concatBytes(fromHex(mainDigest), fromHex(sc.traceDigest))));
    const mainNet = c.networkStats();
    const events = c.engine.eventsDelivered + sc.events;
    const simulatedMs = this.scheduler.ranToMs;
    const runaway = this.endKind === 'runaway';
    // The oracles' end-of-run checks: each live sidechain node's head, from the sidechain report.
    this.oracles.finish({
      endMs: simulatedMs,
      sidechains: sc.nodes
        .filter((n) => n.alive)
        .map((n) => ({ node: n.node, headHash: n.head.hash, headNumber: n.head.number })),
      silentWindows: this.oracles.silentWindows(),
    });
    const oracleVerdict = this.oracles.verdict();
    if (this.verdict === 'pass' && !this.interrupted && oracleVerdict.first) {
      this.verdict = oracleVerdict.verdict;
      this.message = `${oracleVerdict.first.oracle}: ${oracleVerdict.first.message}`;
    }
    return {
      scenario: this.scenario.name,
      seed: this.opts.seed,
      crypto: this.scenario.crypto,
      placement: this.opts.placement ?? 'inline',
      simulatedMs,
      traceHash,
      traceDigests: { main: mainDigest, sidechain: sc.traceDigest },
      verdict: this.verdict,
      message: this.message,
      counts: {
        serviceBlocks,
        sidechainBlocks: sc.sidechainBlocks,
        spans,
        checkpointsAcked: acked,
        noAcks: c.noAckHeights.size,
        reorgs: sc.reorgs.length,
      },
      maxReorgDepth: sc.maxReorgDepth,
      backupBlocks: sc.backupBlocks,
      reorgs: sc.reorgs,
      events,
      faultsFired: mergeFaults(c.faultsFired, sc.faultsFired),
      network: {
        sent: mainNet.sent + sc.network.sent,
        delivered: mainNet.delivered + sc.network.delivered,
        dropped: mainNet.dropped + sc.network.dropped,
        blocked: mainNet.blocked + sc.network.blocked,
        duplicated: mainNet.duplicated + sc.network.duplicated,
      },
      cluster: c,
      sidechain: sc,
      sidechainRecords: this.sidechainRecords,
      engine: {
        reason: this.endKind === null ? 'until' : this.endKind === 'runaway' ? 'max-events' : 'stopped',
        events,
        nowMs: simulatedMs,
        runaway,
        message: this.endKind === null ? `reached ${simulatedMs} ms` : this.message,
      },
      samples: { timeMs: c.samples.timeMs, serviceHeight: c.samples.serviceHeight, sidechainHeight: sc.samples.height },
      checkpointLatencyMs: c.checkpointLatencyMs(),
      windows: {
        barriers: this.scheduler.barriers,
        crossMessages: this.scheduler.exchanged,
        crossLatencyMs: this.scheduler.crossLatencyMs,
      },
      interrupted: this.interrupted,
      violation: this.verdict === 'safety' || this.verdict === 'liveness' ? oracleVerdict.first : null,
      violations: this.oracles.violations(),
    };
  }
}

/** Faults fired in either domain, in firing order (time, then scenario index). */
function mergeFaults(a: IndexedFaultFired[], b: IndexedFaultFired[]): IndexedFaultFired[] {
  return [...a, ...b].sort((x, y) => x.atMs - y.atMs || x.index - y.index);
}
