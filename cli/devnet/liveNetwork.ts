import { type Hex } from '../../src/core/bytes';
import { type OperatorResult } from '../../src/rpc/ports';
import { prepareRun, type PreparedRun } from '../../sim/run/run';
import { type RunRecord } from '../../sim/core/record';
import { type Violation } from '../../sim/oracles/oracle';
import { type ServiceNode } from '../../src/node/service/serviceNode';
import { type SidechainNode } from '../../src/node/sidechain/sidechainNode';
import {
  Journal,
  backupJournal,
  type JournalEntry,
  type JournalInput,
  type JournalInputBody,
  isInput,
  readJournal,
  writeJournal,
} from './journal';
import { type DevnetConfig, devnetScenario, paths } from './home';
import { rfc3339FromUnixMs } from '../../src/core/time';
import { LiveOracles } from './liveOracles';
import { enterInput } from './inputEntry';
import { Waker } from './waker';
import { planReplay } from './replayPlan';
import { ServedGate } from './catchUpGate';
import { ServiceTxs } from './serviceTxs';
import { SidechainTxs } from './sidechainTxs';
import {
  type InjectedFault,
  type LiveInbox,
  type LiveNodes,
  type LiveOptions,
  type LiveSetting,
  type LiveState,
  type OpenedAt,
  type SnapshotInfo,
  type WaitingInput,
} from './liveTypes';
import { jsonText, logRecord, yieldToIo } from './liveLog';

/** Journal a position at most this often (wall) while nothing else is journaled. */
const REACHED_EVERY_WALL_MS = 1_000;
/** Run windows for at most this long (wall) before letting the servers answer. */
const SLICE_WALL_MS = 15;

export class LiveNetwork implements LiveNodes, LiveState, LiveSetting, LiveInbox {
  readonly chainId: string;
  private _run!: PreparedRun;
  private journal: Journal | null = null;
  /** Lines in the journal (a snapshot's position is one). */
  journalLines = 0;
  /** The journal's inputs still to enter, by barrier. */
  private replay = new Map<number, JournalInput[]>();
  /** Virtual times the journal names per barrier: a replay that reaches another time is not the same run. */
  private expectedTimes = new Map<number, number>();
  private mismatchReported = false;
  private target = 0;
  private targetMs = 0;
  private mode: 'replaying' | 'live' = 'replaying';
  /** Set by `pause`/`step` (liveControl.ts) and by the journal's last pause or resume line. */
  paused = false;
  /** Why the run ended (an invariant broke, or the event bound), if it did. */
  ended: string | null = null;
  private openBeforeMs: number | null = null;
  opened: OpenedAt | null = null;
  private pending: WaitingInput[] = []; // waiting for the next barrier
  private readonly commands: Array<{ run: () => Promise<void>; cancel: (e: Error) => void }> = [];
  private readonly waker = new Waker();
  private readonly setHeadWaiters = new Map<string, Array<(r: OperatorResult) => void>>();
  /** Snapshots in force (liveControl.ts takes and reverts them). */
  snapshots: SnapshotInfo[] = [];
  nextSnapshotId = 1;
  /** The total of every evm_increaseTime, seconds. */
  timeOffsetS = 0;
  injected: InjectedFault[] = [];
  readonly activeFaults = new Map<number, { kind: string; detail: string }>();
  readonly oracles: LiveOracles;
  private stopped = false;
  private lastReachedWall = 0;
  private runDone: Promise<void> | null = null;
  private pace = { wallMs: 0, simMs: 0 };
  private replayStartHeads = new Map<string, bigint>();
  readonly served: ServedGate;
  readonly serviceTxs = new ServiceTxs(this);
  readonly sidechainTxs = new SidechainTxs(this);
  /** Inputs accepted since start (for the status line). */
  readonly stats = { txs: 0, scTxs: 0, setHeads: 0, faults: 0, replayedInputs: 0 };

  constructor(
    readonly config: DevnetConfig,
    readonly opts: LiveOptions = {},
  ) {
    this.chainId = config.chainId;
    this.served = new ServedGate(this, opts.catchUpWaitMs ?? 30_000);
    const p = paths(config.home);
    const { entries, tornTail } = readJournal(p.journal);
    const readOnly = opts.readOnly;
    // A torn last line was never acknowledged: drop it so appends start on a clean line.
    if (tornTail && !readOnly) writeJournal(p.journal, entries);
    this.oracles = new LiveOracles(
      () => [],
      (v) => this.onViolation(v),
    );
    this.served.load(readOnly !== undefined);
    if (readOnly) {
      const kept = entries.filter((e) => e.b <= readOnly.untilBarrier);
      this.load(kept, readOnly.untilBarrier, false);
      this.target = readOnly.untilBarrier;
    } else {
      const fresh = !entries.some((e) => !isInput(e));
      this.load(entries, this.served.mark.b, fresh && config.start !== undefined);
      this.journal = new Journal(p.journal);
    }
  }

  /** The run as it is now (a revert replaces it). */
  get run(): PreparedRun {
    return this._run;
  }

  /** True until the journal has been replayed (and a run opened at a time has reached it). */
  get replaying(): boolean {
    return this.mode === 'replaying';
  }

  get isPaused(): boolean {
    return this.paused;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** The devnet's own node (node_index), 1-based. */
  get nodeIndex(): number {
    return this.config.nodeIndex;
  }

  get nodeCount(): number {
    return this.config.scenario.validators.length;
  }

  serviceNode(i: number): ServiceNode {
    return this._run.main.serviceNodes[i - 1]!;
  }

  sidechainNode(i: number): SidechainNode {
    return this._run.sidechain.sidechainNodes[i - 1]!;
  }

  // --- building the run from the journal -------------------------------------------------------

  /**
   * A new run from genesis + seed, with the journal's inputs queued at their barriers, to be
   * replayed to the furthest position the journal names (at least `atLeastBarrier`).
   */
  load(entries: readonly JournalEntry[], atLeastBarrier: number, open: boolean): void {
    this.injected = [];
    this.activeFaults.clear();
    this.ended = null;
    this.mismatchReported = false;
    this.sidechainTxs.clear();
    const plan = planReplay(entries, atLeastBarrier, this.served.mark, this.nextSnapshotId);
    this.replay = plan.inputs;
    this.expectedTimes = plan.expectedTimes;
    this.snapshots = plan.snapshots;
    this.nextSnapshotId = plan.nextSnapshotId;
    this.paused = plan.paused;
    this.timeOffsetS = plan.timeOffsetS;
    this.journalLines = entries.length;
    // A run opened at a time replays its inputs (a devnet report's) as their barriers come.
    this.target = open ? atLeastBarrier : plan.targetBarrier;
    this.targetMs = plan.targetMs;
    this.openBeforeMs = open ? this.config.start!.pauseBeforeMs : null;
    this.mode = 'replaying';
    this._run = prepareRun(devnetScenario(this.config.scenario), {
      seed: this.config.seed,
      stepMs: 100,
      sampleEveryMs: 60_000,
      onBarrier: (b) => this.onBarrier(b),
      onRecord: (r) => this.onRecord(r),
    });
    // A devnet's sidechain nodes take the unsigned transfers it sends for impersonated accounts.
    for (const n of this._run.sidechain.sidechainNodes) n.txs.impersonation = true;
    // The nodes answer a client's tx on their client-reply port (CheckTx, then DeliverTx).
    this._run.main.onClientReply((node, reply) => this.serviceTxs.onClientReply(node, reply));
    this.oracles.follow(() => this._run.violations());
    this.replayStartHeads = new Map(
      this._run.sidechain.sidechainNodes.map((n) => [n.id, n.chain.head().block.header.number]),
    );
    this.injectReplayed(0);
  }

  /** The journal's entries now (for a revert). */
  journalEntries(): JournalEntry[] {
    return readJournal(paths(this.config.home).journal).entries;
  }

  /** Replace the journal with `entries` (a revert's cut), reopened for appending. */
  rewriteJournal(entries: readonly JournalEntry[]): void {
    this.journal?.close();
    writeJournal(paths(this.config.home).journal, entries);
    this.journal = new Journal(paths(this.config.home).journal);
  }

  // --- the simulation loop ---------------------------------------------------------------------

  /** Replay the journal as fast as possible, then run paced (or wait paused) until `stop()`. */
  start(): Promise<void> {
    this.runDone ??= this.loop();
    return this.runDone;
  }

  private async loop(): Promise<void> {
    await this.catchUp();
    if (this.opts.readOnly) return;
    this.anchorPace();
    while (!this.stopped) {
      const cmd = this.commands.shift();
      if (cmd) {
        await cmd.run();
        this.anchorPace();
        continue;
      }
      if (this.pending.length && (this.paused || this.ended)) {
        this.acceptPending(this._run.barriers());
        continue;
      }
      if (this.paused || this.ended) {
        await this.idle();
        continue;
      }
      const speed = this.opts.speed ?? 1;
      const target = this.pace.simMs + (Date.now() - this.pace.wallMs) * speed;
      const ran = this._run.ranToMs();
      if (ran < target) {
        const t0 = Date.now();
        while (!this.stopped && !this.ended && this._run.ranToMs() < target && Date.now() - t0 < SLICE_WALL_MS) {
          if (!this.window()) break;
          if (this.commands.length || this.paused) break;
        }
        await yieldToIo();
      } else {
        await this.idle(Math.max(1, Math.min(50, (ran - target) / speed)));
      }
    }
  }

  /** One window; false when the run ended (an invariant broke: the devnet keeps serving what it has). */
  private window(): boolean {
    if (this.ended) return false;
    if (this._run.window() === 'done') {
      this.ended = `the run ended at ${this._run.ranToMs()} ms of virtual time (an invariant broke, or the event bound)`;
      this.logDaemon('run.ended', { message: this.ended });
      return false;
    }
    return true;
  }

  /**
   * Replay to the target barrier as fast as possible (progress as it goes); a home that opens a
   * run at a time then runs on to the last barrier before it and pauses there.
   */
  async catchUp(): Promise<void> {
    this.mode = 'replaying';
    let sliceStart = Date.now();
    const progress = () => this.opts.onReplayProgress?.(this._run.ranToMs(), Math.max(this.targetMs, 1));
    while (!this.stopped && this._run.barriers() < this.target) {
      if (!this.window()) break;
      if (Date.now() - sliceStart > SLICE_WALL_MS) {
        progress();
        this.served.release();
        await yieldToIo();
        sliceStart = Date.now();
      }
    }
    const before = this.openBeforeMs;
    if (before !== null && !this.stopped) {
      this.targetMs = before;
      for (;;) {
        const next = this._run.peekRanToMs();
        if (next === null || next >= before || this.stopped || !this.window()) break;
        if (Date.now() - sliceStart > SLICE_WALL_MS) {
          progress();
          await yieldToIo();
          sliceStart = Date.now();
        }
      }
      this.openBeforeMs = null;
      if (!this.stopped) {
        this.opened = { timeMs: this._run.ranToMs(), barrier: this._run.barriers(), pauseBeforeMs: before };
        this.dropInputsAfter(this._run.barriers());
        this.paused = true;
        this.append([{ k: 'pause', b: this._run.barriers(), t: this._run.ranToMs() }]);
        this.logDaemon('devnet.opened', { ...this.opened, note: this.config.start?.note ?? '' });
      }
    }
    progress();
    this.mode = 'live';
    this.served.release();
    if (this.pending.length && !this.opts.readOnly) this.acceptPending(this._run.barriers());
  }

  /**
   * Inputs journaled for barriers after `b` (a devnet report's, past the time it was opened at)
   * leave the journal for a backup file: the run continues from here, and new inputs follow.
   */
  private dropInputsAfter(b: number): void {
    if (![...this.replay.keys()].some((x) => x > b) || !this.journal) return;
    const entries = this.journalEntries();
    const keep = entries.filter((e) => e.b <= b);
    const backup = backupJournal(
      paths(this.config.home).revertedJournal,
      entries.filter((e) => e.b > b),
    );
    this.rewriteJournal(keep);
    this.journalLines = keep.length;
    for (const k of [...this.replay.keys()]) if (k > b) this.replay.delete(k);
    this.logDaemon('journal.dropped', { after: b, entries: this.journalLines, backup });
  }

  /** Wait until poked (an input, a command, a stop) or, if given, `ms` of wall time. */
  private idle(ms?: number): Promise<void> {
    return this.waker.wait(ms);
  }

  private poke(): void {
    this.waker.wake();
  }

  private anchorPace(): void {
    this.pace = { wallMs: Date.now(), simMs: this._run.ranToMs() };
  }

  /** Run something that drives the network, in the loop, between windows. */
  command<T>(f: () => Promise<T> | T): Promise<T> {
    if (this.stopped) return Promise.reject(new Error('the devnet is stopping'));
    return new Promise<T>((resolve, reject) => {
      this.commands.push({
        run: async () => {
          try {
            resolve(await f());
          } catch (e) {
            reject(e);
          }
        },
        cancel: reject,
      });
      this.poke();
    });
  }

  /** Run windows until `more()` is false (checked before each window), yielding to the servers as it goes. */
  async runWhile(more: () => boolean): Promise<number> {
    let windows = 0;
    let sliceStart = Date.now();
    while (!this.stopped && !this.ended && more()) {
      if (!this.window()) break;
      windows++;
      if (Date.now() - sliceStart > SLICE_WALL_MS) {
        await yieldToIo();
        sliceStart = Date.now();
      }
    }
    return windows;
  }

  /** Stop at the next step; journal how far the network ran. */
  async stop(): Promise<void> {
    if (this.stopped) {
      await this.runDone;
      return;
    }
    this.stopped = true;
    this.poke();
    await this.runDone;
    if (this.journal) {
      if (this.mode === 'live')
        this.journal.append([{ k: 'reached', b: this._run.barriers(), t: this._run.ranToMs() }]);
      this.journal.close();
      this.journal = null;
    }
    for (const w of this.pending.splice(0))
      w.refused(
        w.input.k === 'setHead' || w.input.k === 'fault'
          ? 'the devnet stopped'
          : 'the devnet stopped before this input was journaled: it was not received (nothing was applied)',
      );
    this.serviceTxs.stopped();
    this.sidechainTxs.clear();
    for (const c of this.commands.splice(0)) c.cancel(new Error('the devnet stopped'));
    this.served.release();
  }

  // --- barriers: the journal's inputs, new inputs -------------------------------------------

  private onBarrier(b: number): void {
    this.injectReplayed(b);
    const expected = this.expectedTimes.get(b);
    if (expected !== undefined && expected !== this._run.ranToMs() && !this.mismatchReported) {
      this.mismatchReported = true;
      this.logDaemon('journal.mismatch', {
        barrier: b,
        journalMs: expected,
        replayMs: this._run.ranToMs(),
        note: 'the replay is not the run the journal was written by (the code or the scenario changed)',
      });
    }
    this.oracles.check();
    if (this.mode === 'replaying' || this.opts.readOnly) return;
    if (this.pending.length) this.acceptPending(b);
    else {
      const now = Date.now();
      if (now - this.lastReachedWall >= REACHED_EVERY_WALL_MS) {
        this.journal?.append([{ k: 'reached', b, t: this._run.ranToMs() }], false);
        this.journalLines++;
        this.lastReachedWall = now;
      }
    }
  }

  private injectReplayed(b: number): void {
    const replayed = this.replay.get(b);
    if (!replayed) return;
    this.replay.delete(b);
    for (const e of replayed) this.inject(e);
    this.stats.replayedInputs += replayed.length;
  }

  /** Journal entries, synced unless told otherwise. */
  append(entries: JournalEntry[], sync = true): void {
    if (!this.journal) return;
    this.journal.append(entries, sync);
    this.journalLines += entries.length;
    this.lastReachedWall = Date.now();
  }

  /** An input from outside: it is journaled and enters at the next window barrier (at once while paused). */
  enqueue(w: WaitingInput): void {
    if (this.stopped) {
      w.refused('the devnet is stopping: the input was not received (nothing was applied)');
      return;
    }
    this.pending.push(w);
    this.poke();
  }

  /** Inputs (already journaled or journaled here) waiting for service node answers: their tx bytes. */
  waitingServiceTxs(): Hex[] {
    return this.pending.flatMap((w) => (w.input.k === 'tx' ? [w.input.tx as Hex] : []));
  }

  /** Journal (synced) and deliver the inputs waiting for a barrier; answer their callers. */
  private acceptPending(b: number): void {
    const batch = this.pending;
    this.pending = [];
    this.acceptAt(b, batch);
    this.poke();
  }

  /**
   * An input from a command running between windows (liveControl.ts): journaled and entered at the
   * current barrier, as a paused devnet takes inputs.
   */
  acceptNow(input: JournalInputBody): void {
    this.acceptAt(this._run.barriers(), [{ input, journaled: () => {}, refused: () => {} }]);
  }

  private acceptAt(b: number, batch: readonly WaitingInput[]): void {
    const entries = batch.map((w) => ({ ...w.input, b }) as JournalInput);
    // Journaled and synced before the input enters the network (and so before any answer).
    this.append(entries);
    batch.forEach((w, i) => {
      const e = entries[i]!;
      const fault = this.inject(e);
      if (e.k === 'setHead') {
        this.stats.setHeads++;
        (this.setHeadWaiters.get(e.node) ?? this.setHeadWaiters.set(e.node, []).get(e.node)!).push((r) =>
          w.journaled({ fault: null, setHead: r }),
        );
        return;
      }
      if (e.k === 'fault') this.stats.faults++;
      if (e.k === 'tx') this.stats.txs++;
      if (e.k === 'scTx') this.stats.scTxs++;
      w.journaled({ fault });
    });
  }

  private inject(e: JournalInput): InjectedFault | null {
    const fault = enterInput(this._run, e, this.config, this);
    if (fault === null) return null;
    this.injected.push(fault);
    this.logDaemon('fault.injected', {
      index: fault.index,
      fault: fault.fault,
      barrier: fault.barrier,
      startsAtMs: fault.atMs,
      endsAtMs: fault.endsAtMs,
    });
    return fault;
  }

  // --- records: logs, faults in force, setHead answers -----------------------------------------

  private onRecord(r: RunRecord): void {
    const o = r.obs;
    if (o.kind === 'fault.start') this.activeFaults.set(o.index, { kind: o.fault, detail: o.detail });
    if (o.kind === 'fault.end') this.activeFaults.delete(o.index);
    if (this.opts.log) logRecord(r, this.config.nodeIndex, this.config.scenario.epochMs, this.opts.log);
    if (o.kind === 'sidechain.setHead') {
      const error = o.error;
      this.setHeadWaiters.get(r.node)?.shift()?.(error === null ? { ok: true } : { ok: false, error });
    }
  }

  private onViolation(v: Violation): void {
    this.logDaemon('oracle.violation', {
      oracle: v.oracle,
      class: v.class,
      atMs: v.atMs,
      node: v.node,
      message: v.message,
    });
  }

  logDaemon(kind: string, data: Record<string, unknown>): void {
    const t = this._run?.ranToMs() ?? 0;
    this.opts.log?.('daemon', `${rfc3339FromUnixMs(this.config.scenario.epochMs + t)} ${kind} ${jsonText(data)}`);
  }

  // --- served marks and the catch-up gate (catchUpGate.ts) ------------------------------------

  /** A read is being answered: if it shows a later state than any before, remember it first. */
  noteServed(): void {
    this.served.noteServed(this.opts.readOnly !== undefined);
  }

  /** The head a client may already have seen of node `id` (for eth_syncing's highestBlock). */
  servedHead(id: string): bigint {
    return this.served.servedHead(id);
  }

  replayStartHead(id: string): bigint {
    return this.replayStartHeads.get(id) ?? 0n;
  }

  get gate(): ServedGate {
    return this.served;
  }

  // --- inputs from the servers ------------------------------------------------------------------

  setHeadOf(i: number, n: bigint): Promise<OperatorResult> {
    if (this.stopped) return Promise.resolve({ ok: false, error: 'the devnet is stopping' });
    return new Promise((resolve) => {
      this.enqueue({
        input: { k: 'setHead', node: `sc-${i}`, n: n.toString() },
        journaled: (done) => resolve(done.setHead ?? { ok: true }),
        refused: (error) => resolve({ ok: false, error }),
      });
    });
  }

  /** Faults injected so far (for the report). */
  injectedFaults(): readonly InjectedFault[] {
    return this.injected;
  }

  position() {
    const t = this._run.ranToMs();
    return { barrier: this._run.barriers(), timeMs: t, time: rfc3339FromUnixMs(this.config.scenario.epochMs + t) };
  }

  /** The replay's progress, while it runs (for the status). */
  replayProgress(): { barrier: number; targetBarrier: number; targetMs: number } {
    return { barrier: this._run.barriers(), targetBarrier: this.target, targetMs: this.targetMs };
  }
}
