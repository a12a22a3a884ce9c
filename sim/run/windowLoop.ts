/**
 * The window loop both placements share: the main domain, the window scheduler, steps and
 * progress, how the run ends, and the hand-over of each window's records (recordRelease.ts). The
 * placement (run.ts) runs the sidechain domain's windows; the result is assembled at the end
 * from the domains' reports (runResult.ts).
 */
import { MainDomain } from '../domain/mainDomain';
import { type DomainOptions } from '../domain/domain';
import { type DomainStatus, type WindowEnd, type WindowResult } from '../domain/windowProtocol';
import { type SidechainReport, type SidechainReportQuery } from '../domain/sidechainDomain';
import { type WindowPlan, WindowScheduler } from '../domain/windowScheduler';
import { oracleTimings } from '../domain/oracleTimings';
import { OracleSuite } from '../oracles/suite';
import { faultSilencesProducers } from '../faults/registry';
import { fastKeyOf } from '../../src/core/signatureScheme';
import { RecordRelease } from './recordRelease';
import { type RunOptions } from './runOptions';
import { assembleResult, type RunResult } from './runResult';
import { type FaultSpec, type Scenario, type Verdict } from '../scenario/scenario';

export class WindowLoop {
  readonly main: MainDomain;
  readonly untilMs: number;
  readonly sampleEveryMs: number;
  readonly oracles: OracleSuite;
  private readonly stepMs: number;
  private scheduler!: WindowScheduler;
  private verdict: Verdict = 'pass';
  private message = 'completed';
  private interrupted = false;
  private endKind: WindowEnd['kind'] | null = null;
  private nextProgress: number;
  private stepTarget: number;
  private readonly release: RecordRelease;
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
    this.main = new MainDomain(scenario, opts.seed, {
      ...this.domainOptions(),
      ...(opts.trace ? { trace: opts.trace } : {}),
      service: {
        ...(opts.checkInvariants !== undefined ? { checkInvariants: opts.checkInvariants } : {}),
        ...(opts.sharedExecution !== undefined ? { sharedExecution: opts.sharedExecution } : {}),
      },
    });
    this.faults = [...scenario.faults];
    // The oracles see the injected faults too (their start times excuse silent producers).
    this.oracles = new OracleSuite(
      { ...scenario, faults: this.faults },
      (i) => {
        const k = this.main.setup.keys[i - 1];
        return k ? [k.signer, ...this.main.setup.rotationKeys[i - 1]!.map((r) => r.signer)] : [];
      },
      faultSilencesProducers,
      fastKeyOf,
      oracleTimings(scenario),
    );
    this.release = new RecordRelease(this.oracles, opts.onRecord, opts.traceSink);
  }

  domainOptions(): DomainOptions {
    return { untilMs: this.untilMs, sampleEveryMs: this.sampleEveryMs, traceLines: this.opts.traceSink !== undefined };
  }

  begin(sidechain: { status: DomainStatus; end: WindowEnd | null }): void {
    const main = this.main.begin();
    this.scheduler = new WindowScheduler(
      this.main.setup.crossLatencyMs,
      this.untilMs,
      this.scenario.maxEvents,
      main.status,
      sidechain.status,
    );
    // Lines traced while starting stay in the domains' buffers and come out with the first window.
    const end = main.end ?? sidechain.end;
    if (end) this.end(end);
  }

  /** What to ask the sidechain domain at the end (with the main domain's final state); releases everything. */
  reportQuery(): SidechainReportQuery {
    const q = this.opts.sidechainQuery?.(this.main) ?? {};
    this.release.release(Infinity);
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
    this.scheduler.refresh(this.main.status(), sidechain);
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
    this.release.push(main, sidechain);
    this.release.release(this.scheduler.ranToMs);
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

  /** The oracles' end-of-run checks, then the result from both domains' reports. */
  finish(sc: SidechainReport): RunResult {
    this.release.release(Infinity);
    const simulatedMs = this.scheduler.ranToMs;
    // Each live sidechain node's head, from the sidechain report.
    this.oracles.finish({
      endMs: simulatedMs,
      sidechains: sc.nodes
        .filter((n) => n.alive)
        .map((n) => ({ node: n.node, headHash: n.head.hash, headNumber: n.head.number })),
      silentWindows: this.oracles.silentWindows(),
    });
    const oracleVerdict = this.oracles.verdict();
    return assembleResult(
      this.scenario,
      { seed: this.opts.seed, placement: this.opts.placement ?? 'inline' },
      this.main.report(),
      sc,
      {
        simulatedMs,
        endKind: this.endKind,
        verdict: this.verdict,
        message: this.message,
        interrupted: this.interrupted,
        windows: {
          barriers: this.scheduler.barriers,
          crossMessages: this.scheduler.exchanged,
          crossLatencyMs: this.scheduler.crossLatencyMs,
        },
        sidechainRecords: this.release.sidechainRecords,
      },
      {
        verdict: oracleVerdict.verdict,
        first: oracleVerdict.first,
        all: this.oracles.violations(),
        exercised: this.oracles.exercised(),
      },
    );
  }
}
