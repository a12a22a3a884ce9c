/**
 * A live devnet: the whole simulated network (service nodes, parent chain, sidechain nodes) run
 * inline and paced to the wall clock, or paused, stepped and fast-forwarded on request, with the
 * ports the servers need (REST, node status, sidechain JSON-RPC and console) for every validator's
 * nodes (livePorts.ts).
 *
 * Determinism: reads happen between windows and change nothing. Inputs (client txs, wallets'
 * sidechain txs, the console's debug.setHead, injected faults, the operator's balance and
 * next-block-time overrides) wait until the next window barrier, or enter at once while the run is
 * paused (it is then between two windows); either way they are journaled (fsynced) first and
 * enter at that barrier. Actions that only move the run (pause, resume, step, evm_mine,
 * evm_increaseTime, snapshots) are journaled as positions. A restart replays genesis + seed +
 * journal to the furthest position (and at least to the state clients have read, catchUpGate.ts),
 * delivering each input at its barrier, so it reaches the same state; only the pace of the wall
 * clock is not replayed. A revert truncates the journal at a snapshot and replays it the same way.
 *
 * Everything that runs the network (the paced loop, steps, reverts) runs in one loop, one command
 * at a time, so windows never interleave. This file is that loop, the journal and the inputs; the
 * parts are beside it: the admin namespace (liveControl.ts), the service transactions
 * (serviceTxs.ts), the sidechain transactions (sidechainTxs.ts), the served marks and catch-up
 * gate (catchUpGate.ts), the ports (livePorts.ts), the log lines (liveLog.ts).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { type Hex } from '../../core/bytes';
import { type QueryAnswer } from '../../app/queryRouter';
import {
  type BroadcastMode,
  type BroadcastResult,
  type NodeStatusPort,
  type OperatorResult,
  type PeerInfo,
  type ServicePort,
  type SidechainPort,
  type SidechainView,
  type TxLookup,
} from '../../rpc/ports';
import { prepareRun, type PreparedRun } from '../../../sim/run';
import { type RunRecord } from '../../../sim/domain/observation';
import { type FaultSpec } from '../../../sim/scenario/scenario';
import { type Violation } from '../../../sim/oracles/oracle';
import { type ServiceNode } from '../../node/service/serviceNode';
import { type SidechainNode } from '../../node/sidechain/sidechainNode';
import {
  Journal,
  type JournalEntry,
  type JournalInput,
  type JournalInputBody,
  isInput,
  readJournal,
  writeJournal,
} from './journal';
import { type DevnetConfig, devnetScenario, paths } from './home';
import { rfc3339FromUnixMs } from '../../core/time';
import { LiveOracles } from './liveOracles';
import { decodeLiveFault, describeFault } from './faultInput';
import { NodeService, NodeSidechain, NodeStatus } from './livePorts';
import { ServedGate } from './catchUpGate';
import { ServiceTxs } from './serviceTxs';
import { SidechainTxs } from './sidechainTxs';
import { LiveControl } from './liveControl';
import { jsonText, logLine, yieldToIo } from './liveLog';

export interface LiveOptions {
  /** Simulated seconds per wall second (default 1). */
  speed?: number;
  /** Wall ms a block-mode broadcast waits for its tx to commit (default 60 s). */
  blockTimeoutMs?: number;
  /** Where the node's records go, by service log (the caller writes them to files). */
  log?: (service: 'daemon' | 'bridge' | 'sidechain', line: string) => void;
  /** Progress while replaying the journal (virtual ms done, of total). */
  onReplayProgress?: (done: number, total: number) => void;
  /** Wall ms a read waits at the catch-up gate before it is answered with an error (default 30 s). */
  catchUpWaitMs?: number;
  /** Replay only, up to this barrier (a report of the run so far); writes nothing to the home. */
  readOnly?: { untilBarrier: number };
}

/** What an input became once journaled: the fault it started, or the node's answer to a setHead. */
export interface InputDone {
  fault: InjectedFault | null;
  setHead?: OperatorResult;
}

/** An input from outside waiting for a window barrier, and how its caller hears back. */
export interface WaitingInput {
  input: JournalInputBody;
  /** Journaled and entered at the barrier (a setHead: once the node has done it). */
  journaled(done: InputDone): void;
  /** Never journaled (the devnet stopped first): nothing was applied. */
  refused(message: string): void;
}

export interface InjectedFault {
  index: number;
  kind: string;
  /** The fault as the scenario format writes it. */
  fault: Record<string, unknown>;
  description: string;
  barrier: number;
  atMs: number;
  endsAtMs: number | null;
}

export interface SnapshotInfo {
  id: string;
  name: string;
  barrier: number;
  timeMs: number;
  /** Its line in the journal (0-based): the position a revert truncates at. */
  line: number;
}

/** Where the first start of a home that opens a run at a time stopped. */
export interface OpenedAt {
  timeMs: number;
  barrier: number;
  pauseBeforeMs: number;
}

const REACHED_EVERY_WALL_MS = 1_000;
/** Run windows for at most this long (wall) before letting the servers answer. */
const SLICE_WALL_MS = 15;

export class LiveNetwork implements ServicePort, NodeStatusPort, SidechainPort {
  readonly chainId: string;
  private _run!: PreparedRun;
  private journal: Journal | null = null;
  /** Lines in the journal (a snapshot's position is one). */
  journalLines = 0;
  private readonly replay = new Map<number, JournalInput[]>();
  /** Virtual times the journal names per barrier: a replay that reaches another time is not the same run. */
  private readonly expectedTimes = new Map<number, number>();
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
  private pending: WaitingInput[] = [];
  private readonly commands: Array<{ run: () => Promise<void>; cancel: (e: Error) => void }> = [];
  private wake: (() => void) | null = null;
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
  private readonly svc: NodeService[] = [];
  private readonly stat: NodeStatus[] = [];
  private readonly sc: NodeSidechain[] = [];
  readonly served: ServedGate;
  readonly serviceTxs = new ServiceTxs(this);
  readonly sidechainTxs = new SidechainTxs(this);
  private readonly admin = new LiveControl(this);
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
    for (let i = 1; i <= config.scenario.validators.length; i++) {
      this.svc.push(new NodeService(this, i));
      this.stat.push(new NodeStatus(this, i));
      this.sc.push(new NodeSidechain(this, i));
    }
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

  /** Per-node ports for the servers (`/node/N`). */
  servicePort(i: number): NodeService | null {
    return this.svc[i - 1] ?? null;
  }

  statusPort(i: number): NodeStatus | null {
    return this.stat[i - 1] ?? null;
  }

  sidechainPort(i: number): NodeSidechain | null {
    return this.sc[i - 1] ?? null;
  }

  /** The admin namespace (lockstep_*, evm_*, anvil_*, hardhat_*): liveControl.ts. */
  get control(): LiveControl {
    return this.admin;
  }

  // --- building the run from the journal -------------------------------------------------------

  /**
   * A new run from genesis + seed, with the journal's inputs queued at their barriers, to be
   * replayed to the furthest position the journal names (at least `atLeastBarrier`).
   */
  load(entries: readonly JournalEntry[], atLeastBarrier: number, open: boolean): void {
    this.replay.clear();
    this.expectedTimes.clear();
    this.snapshots = [];
    this.injected = [];
    this.activeFaults.clear();
    this.timeOffsetS = 0;
    this.paused = false;
    this.ended = null;
    this.mismatchReported = false;
    this.sidechainTxs.clear();
    let target = atLeastBarrier;
    const mark = this.served.mark;
    let targetMs = mark.b <= atLeastBarrier ? mark.t : 0;
    entries.forEach((e, line) => {
      target = Math.max(target, e.b);
      if (isInput(e)) (this.replay.get(e.b) ?? this.replay.set(e.b, []).get(e.b)!).push(e);
      else {
        this.expectedTimes.set(e.b, e.t);
        targetMs = Math.max(targetMs, e.t);
      }
      if (e.k === 'snapshot') {
        this.snapshots = this.snapshots.filter((s) => s.name !== e.name && s.id !== e.id);
        this.snapshots.push({ id: e.id, name: e.name, barrier: e.b, timeMs: e.t, line });
        this.nextSnapshotId = Math.max(this.nextSnapshotId, Number(e.id) + 1);
      }
      if (e.k === 'pause') this.paused = true;
      if (e.k === 'resume') this.paused = false;
      if (e.k === 'advance' && e.by === 'evm_increaseTime') this.timeOffsetS += e.s ?? 0;
    });
    this.journalLines = entries.length;
    // A run opened at a time replays its inputs (a devnet report's) as their barriers come.
    this.target = open ? atLeastBarrier : target;
    this.targetMs = targetMs;
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
    this.replayStartHeads = new Map(this.sc.map((p) => [p.id, p.node().chain.head().block.header.number]));
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
    const backup = this.backupJournal(entries.filter((e) => e.b > b));
    this.rewriteJournal(keep);
    this.journalLines = keep.length;
    for (const k of [...this.replay.keys()]) if (k > b) this.replay.delete(k);
    this.logDaemon('journal.dropped', { after: b, entries: this.journalLines, backup });
  }

  /** Keep a dropped tail of the journal in the next free backup file; its name. */
  backupJournal(dropped: readonly JournalEntry[]): string {
    const p = paths(this.config.home);
    let n = 1;
    while (existsSync(p.revertedJournal(n))) n++;
    writeFileSync(p.revertedJournal(n), dropped.map((e) => `${JSON.stringify(e)}\n`).join(''));
    return p.revertedJournal(n);
  }

  private idle(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === undefined ? null : setTimeout(done, ms);
      const self = this;
      function done() {
        if (timer) clearTimeout(timer);
        if (self.wake === done) self.wake = null;
        resolve();
      }
      this.wake = done;
    });
  }

  private poke(): void {
    this.wake?.();
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
    switch (e.k) {
      case 'tx':
        this.serviceTxs.entered(e);
        this._run.main.deliverExternal(e.node, { kind: 'client.tx', tx: e.tx as Hex });
        return null;
      case 'scTx': {
        const at = this._run.sidechain.deliverExternal(e.node, { kind: 'sc.submit', raw: e.tx as Hex });
        this.sidechainTxs.entered(Number(e.node.slice(3)), e.tx as Hex, at);
        return null;
      }
      case 'scBalance':
        for (const n of this._run.sidechain.sidechainNodes)
          this._run.sidechain.deliverExternal(n.id, {
            kind: 'op.setBalance',
            address: e.address as `0x${string}`,
            balance: BigInt(e.balance),
          });
        return null;
      case 'scTime':
        for (const n of this._run.sidechain.sidechainNodes)
          this._run.sidechain.deliverExternal(n.id, { kind: 'op.nextBlockTime', timeS: BigInt(e.timeS) });
        return null;
      case 'setHead':
        this._run.sidechain.deliverExternal(e.node, { kind: 'op.setHead', number: BigInt(e.n) });
        return null;
      case 'fault':
        return this.injectFault(e);
    }
  }

  private injectFault(e: Extract<JournalInput, { k: 'fault' }>): InjectedFault {
    const f: FaultSpec = decodeLiveFault(e.f, this.config.scenario);
    const { index, atMs } = this._run.injectFault(f);
    const info: InjectedFault = {
      index,
      kind: f.kind,
      fault: e.f,
      description: describeFault(e.f),
      barrier: e.b,
      atMs,
      endsAtMs: f.forMs === undefined ? null : atMs + f.forMs,
    };
    this.injected.push(info);
    this.logDaemon('fault.injected', {
      index,
      fault: e.f,
      barrier: e.b,
      startsAtMs: atMs,
      endsAtMs: info.endsAtMs,
    });
    return info;
  }

  // --- records: logs, faults in force, setHead answers -----------------------------------------

  private onRecord(r: RunRecord): void {
    const o = r.obs;
    if (o.kind === 'fault.start') this.activeFaults.set(o.index, { kind: o.fault, detail: o.detail });
    if (o.kind === 'fault.end') this.activeFaults.delete(o.index);
    const svcId = `svc-${this.config.nodeIndex}`;
    const scId = `sc-${this.config.nodeIndex}`;
    const epochMs = this.config.scenario.epochMs;
    if (r.node === svcId) {
      if (o.kind.startsWith('bridge.')) this.opts.log?.('bridge', logLine(epochMs, r));
      else if (o.kind.startsWith('service.') || o.kind.startsWith('side.') || o.kind.startsWith('consensus.'))
        this.opts.log?.('daemon', logLine(epochMs, r));
    } else if (r.node === scId) {
      this.opts.log?.('sidechain', logLine(epochMs, r));
    } else if (r.node === '' && o.kind.startsWith('fault.')) {
      this.opts.log?.('daemon', logLine(epochMs, r));
    }
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

  /** A client's tx for service node `i` (1-based). */
  broadcastTo(i: number, tx: Uint8Array, mode: BroadcastMode): Promise<BroadcastResult> {
    return this.serviceTxs.broadcastTo(i, tx, mode);
  }

  /** What GET /txs/{hash} says on service node `i`. */
  lookupTxOn(i: number, hash: Hex): TxLookup {
    return this.serviceTxs.lookupOn(i, hash);
  }

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

  /** What `lockstep_status` and `lockstep node status` show (liveControl.ts). */
  adminStatus() {
    return this.admin.status();
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

  // --- the default node's ports (node_index), as before ------------------------------------------

  query(pathWithQuery: string): QueryAnswer {
    return this.svc[this.config.nodeIndex - 1]!.query(pathWithQuery);
  }

  broadcast(tx: Uint8Array, mode: BroadcastMode): Promise<BroadcastResult> {
    return this.broadcastTo(this.config.nodeIndex, tx, mode);
  }

  lookupTx(hash: string): TxLookup {
    return this.lookupTxOn(this.config.nodeIndex, hash as Hex);
  }

  status(): ReturnType<NodeStatusPort['status']> {
    return this.stat[this.config.nodeIndex - 1]!.status();
  }

  netInfo(): { listening: boolean; peers: PeerInfo[] } {
    return this.stat[this.config.nodeIndex - 1]!.netInfo();
  }

  view(): SidechainView {
    return this.sc[this.config.nodeIndex - 1]!.view();
  }

  setHead(n: bigint): Promise<OperatorResult> {
    return this.setHeadOf(this.config.nodeIndex, n);
  }

  /** One line for the terminal. */
  statusLine(): string {
    const s = this.status();
    const sc = this.sidechainNode(this.config.nodeIndex).chain.head().block.header.number;
    const state = this.mode === 'replaying' ? '(replaying) ' : this.paused ? '(paused) ' : '';
    const v = this.oracles.list();
    return `${state}service height ${s.latestBlockHeight}, sidechain block ${sc}, ${(this._run.ranToMs() / 1000).toFixed(0)} s simulated, ${this.stats.txs} txs and ${this.stats.scTxs} sidechain txs received${v.length ? `, ${v.length} oracle violation${v.length > 1 ? 's' : ''} (${v.map((x) => x.oracle).join(', ')})` : ''}`;
  }
}
