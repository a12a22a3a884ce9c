/**
 * A live devnet: the whole simulated network (service nodes, parent chain, sidechain nodes) run
 * inline and paced to the wall clock, or paused, stepped and fast-forwarded on request, with the
 * ports the servers need (REST, node status, sidechain JSON-RPC and console) for every validator's
 * nodes (livePorts.ts).
 *
 * Determinism: reads happen between windows and change nothing. Inputs (client txs, the console's
 * debug.setHead, injected faults) wait until the next window barrier, or enter at once while the
 * run is paused (it is then between two windows); either way they are journaled (fsynced) first
 * and enter at that barrier. Actions that only move the run (pause, resume, step, evm_mine,
 * evm_increaseTime, snapshots) are journaled as positions. A restart replays genesis + seed +
 * journal to the furthest position (and at least to the state clients have read, servedMark.ts),
 * delivering each input at its barrier, so it reaches the same state; only the pace of the wall
 * clock is not replayed. A revert truncates the journal at a snapshot and replays it the same way.
 *
 * Everything that runs the network (the paced loop, steps, reverts) runs in one loop, one command
 * at a time, so windows never interleave.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { txHash } from '../../modules/auth/stdTx';
import { type Hex, fromHex, toHex } from '../../core/bytes';
import { InputError } from '../../core/errors';
import { type QueryAnswer } from '../../app/queryRouter';
import {
  type BroadcastMode,
  type BroadcastResult,
  BroadcastTimeoutError,
  type CatchUpGate,
  type NodeStatusPort,
  type OperatorResult,
  type PeerInfo,
  type ServicePort,
  type SidechainPort,
  type SidechainView,
  type TxLookup,
  TxFateUnknownError,
} from '../../rpc/ports';
import { type DevnetControl, type StepRequest } from '../../rpc/jsonrpc/adminMethods';
import { tendermintHash } from '../../rpc/rest/txResponse';
import { prepareRun, type PreparedRun } from '../../../sim/run';
import { type RunRecord } from '../../../sim/domain/observation';
import { observationJson } from '../../../sim/trace/observationJson';
import { type ClientReply } from '../../node/ports';
import { type FaultSpec } from '../../../sim/scenario/scenario';
import { type Violation } from '../../../sim/oracles/oracle';
import { type ServiceNode } from '../../node/service/serviceNode';
import { type SidechainNode } from '../../node/sidechain/sidechainNode';
import { Journal, type JournalEntry, type JournalInput, isInput, readJournal, writeJournal } from './journal';
import { type DevnetConfig, devnetScenario, paths } from './home';
import { rfc3339FromUnixMs } from '../../core/time';
import { LiveOracles } from './liveOracles';
import { NO_MARK, type ServedMark, readServedMark, writeServedMark } from './servedMark';
import { decodeLiveFault, describeFault, encodeLiveFault } from './faultInput';
import { NodeService, NodeSidechain, NodeStatus } from './livePorts';

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

type Pending =
  | { k: 'tx'; node: string; tx: Hex; mode: BroadcastMode; resolve: (r: BroadcastResult) => void }
  | { k: 'setHead'; node: string; n: bigint; resolve: (r: OperatorResult) => void }
  | { k: 'fault'; fault: Record<string, unknown>; resolve: (r: InjectedFault) => void };

interface TxWaiter {
  node: string;
  mode: 'sync' | 'block';
  resolve: (r: BroadcastResult) => void;
  reject: (e: Error) => void;
}

/** What the devnet knows of a client's tx (from the journal and the node's records). */
interface ClientTx {
  node: string;
  barrier: number;
  checked?: BroadcastResult;
  delivered?: BroadcastResult;
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
/** A step by blocks, or evm_mine, gives up after this much virtual time without the blocks. */
const BLOCK_WAIT_BOUND_MS = 10 * 60_000;

export class LiveNetwork implements ServicePort, NodeStatusPort, SidechainPort {
  readonly chainId: string;
  private _run!: PreparedRun;
  private journal: Journal | null = null;
  private journalLines = 0;
  private readonly replay = new Map<number, JournalInput[]>();
  /** Virtual times the journal names per barrier: a replay that reaches another time is not the same run. */
  private readonly expectedTimes = new Map<number, number>();
  private mismatchReported = false;
  private target = 0;
  private targetMs = 0;
  private mark: ServedMark = NO_MARK;
  private mode: 'replaying' | 'live' = 'replaying';
  private paused = false;
  private ended: string | null = null;
  private openBeforeMs: number | null = null;
  opened: OpenedAt | null = null;
  private pending: Pending[] = [];
  private readonly commands: Array<{ run: () => Promise<void>; cancel: (e: Error) => void }> = [];
  private wake: (() => void) | null = null;
  private readonly txWaiters = new Map<Hex, TxWaiter[]>();
  private readonly txBook = new Map<Hex, ClientTx>();
  private readonly setHeadWaiters = new Map<string, Array<(r: OperatorResult) => void>>();
  private readonly catchUpWaiters = new Set<() => void>();
  private snapshots: SnapshotInfo[] = [];
  private nextSnapshotId = 1;
  private timeOffsetS = 0;
  private injected: InjectedFault[] = [];
  private readonly activeFaults = new Map<number, { kind: string; detail: string }>();
  private readonly oracles: LiveOracles;
  private stopped = false;
  private lastReachedWall = 0;
  private runDone: Promise<void> | null = null;
  private pace = { wallMs: 0, simMs: 0 };
  private replayStartHeads = new Map<string, bigint>();
  private readonly svc: NodeService[] = [];
  private readonly stat: NodeStatus[] = [];
  private readonly sc: NodeSidechain[] = [];
  /** Inputs accepted since start (for the status line). */
  readonly stats = { txs: 0, setHeads: 0, faults: 0, replayedInputs: 0 };

  constructor(
    readonly config: DevnetConfig,
    private readonly opts: LiveOptions = {},
  ) {
    this.chainId = config.chainId;
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
    if (readOnly) {
      const kept = entries.filter((e) => e.b <= readOnly.untilBarrier);
      this.load(kept, readOnly.untilBarrier, false);
      this.target = readOnly.untilBarrier;
    } else {
      this.mark = readServedMark(p.served);
      const fresh = !entries.some((e) => !isInput(e));
      this.load(entries, this.mark.b, fresh && config.start !== undefined);
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

  // --- building the run from the journal -------------------------------------------------------

  /**
   * A new run from genesis + seed, with the journal's inputs queued at their barriers, to be
   * replayed to the furthest position the journal names (at least `atLeastBarrier`).
   */
  private load(entries: readonly JournalEntry[], atLeastBarrier: number, open: boolean): void {
    this.replay.clear();
    this.expectedTimes.clear();
    this.snapshots = [];
    this.injected = [];
    this.activeFaults.clear();
    this.timeOffsetS = 0;
    this.paused = false;
    this.ended = null;
    this.mismatchReported = false;
    let target = atLeastBarrier;
    let targetMs = this.mark.b <= atLeastBarrier ? this.mark.t : 0;
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
    // The nodes answer a client's tx on their client-reply port (CheckTx, then DeliverTx).
    this._run.main.onClientReply((node, reply) => this.onClientReply(node, reply));
    this.oracles.follow(() => this._run.violations());
    this.replayStartHeads = new Map(this.sc.map((p) => [p.id, p.node().chain.head().block.header.number]));
    this.injectReplayed(0);
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
  private async catchUp(): Promise<void> {
    this.mode = 'replaying';
    let sliceStart = Date.now();
    const progress = () => this.opts.onReplayProgress?.(this._run.ranToMs(), Math.max(this.targetMs, 1));
    while (!this.stopped && this._run.barriers() < this.target) {
      if (!this.window()) break;
      if (Date.now() - sliceStart > SLICE_WALL_MS) {
        progress();
        this.releaseCaughtUp();
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
    this.releaseCaughtUp();
    if (this.pending.length && !this.opts.readOnly) this.acceptPending(this._run.barriers());
  }

  /**
   * Inputs journaled for barriers after `b` (a devnet report's, past the time it was opened at)
   * leave the journal for a backup file: the run continues from here, and new inputs follow.
   */
  private dropInputsAfter(b: number): void {
    if (![...this.replay.keys()].some((x) => x > b) || !this.journal) return;
    const p = paths(this.config.home);
    const { entries } = readJournal(p.journal);
    const keep = entries.filter((e) => e.b <= b);
    const dropped = entries.filter((e) => e.b > b);
    let n = 1;
    while (existsSync(p.revertedJournal(n))) n++;
    writeFileSync(p.revertedJournal(n), dropped.map((e) => `${JSON.stringify(e)}\n`).join(''));
    this.journal.close();
    writeJournal(p.journal, keep);
    this.journal = new Journal(p.journal);
    this.journalLines = keep.length;
    for (const k of [...this.replay.keys()]) if (k > b) this.replay.delete(k);
    this.logDaemon('journal.dropped', { after: b, entries: dropped.length, backup: p.revertedJournal(n) });
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
  private command<T>(f: () => Promise<T> | T): Promise<T> {
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

  /** Run windows until `done()` (checked before each window), yielding to the servers as it goes. */
  private async runWhile(more: () => boolean): Promise<number> {
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
    for (const p of this.pending) {
      if (p.k === 'tx')
        p.resolve(
          txError(
            p.tx,
            1,
            'the devnet stopped before this tx was journaled: it was not received (nothing was applied)',
          ),
        );
      else if (p.k === 'setHead') p.resolve({ ok: false, error: 'the devnet stopped' });
    }
    this.pending = [];
    for (const [hash, ws] of this.txWaiters)
      for (const w of ws)
        w.reject(
          new TxFateUnknownError(
            `tx ${tendermintHash(hash)} was journaled, but the devnet stopped before it committed: it will be applied when the devnet starts again. Do not send it again; look it up with GET /txs/${tendermintHash(hash)}`,
          ),
        );
    this.txWaiters.clear();
    for (const c of this.commands.splice(0)) c.cancel(new Error('the devnet stopped'));
    this.releaseCaughtUp();
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

  private append(entries: JournalEntry[], sync = true): void {
    if (!this.journal) return;
    this.journal.append(entries, sync);
    this.journalLines += entries.length;
    this.lastReachedWall = Date.now();
  }

  /** Journal (synced) and deliver the inputs waiting for a barrier; answer their callers. */
  private acceptPending(b: number): void {
    const batch = this.pending;
    this.pending = [];
    const entries: JournalInput[] = batch.map((p) =>
      p.k === 'tx'
        ? { k: 'tx', b, node: p.node, tx: p.tx }
        : p.k === 'setHead'
          ? { k: 'setHead', b, node: p.node, n: p.n.toString() }
          : { k: 'fault', b, f: p.fault },
    );
    // Journaled and synced before the input enters the network (and so before any answer).
    this.append(entries);
    batch.forEach((p, i) => {
      const injected = this.inject(entries[i]!);
      if (p.k === 'setHead') {
        this.stats.setHeads++;
        const q = this.setHeadWaiters.get(p.node) ?? this.setHeadWaiters.set(p.node, []).get(p.node)!;
        q.push(p.resolve);
        return;
      }
      if (p.k === 'fault') {
        this.stats.faults++;
        p.resolve(injected!);
        return;
      }
      this.stats.txs++;
      const hash = txHash(fromHex(p.tx));
      if (p.mode === 'async') p.resolve({ height: '0', txhash: tendermintHash(hash), code: 0, raw_log: '' });
    });
    this.poke();
  }

  private inject(e: JournalInput): InjectedFault | null {
    if (e.k === 'tx') {
      const hash = txHash(fromHex(e.tx));
      if (!this.txBook.has(hash)) this.txBook.set(hash, { node: e.node, barrier: e.b });
      this._run.main.deliverExternal(e.node, { kind: 'client.tx', tx: e.tx as Hex });
      return null;
    }
    if (e.k === 'setHead') {
      this._run.sidechain.deliverExternal(e.node, { kind: 'op.setHead', number: BigInt(e.n) });
      return null;
    }
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

  // --- records: client tx answers, logs, faults in force --------------------------------------

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

  /**
   * A node's answers to a client's tx on its client-reply port: its CheckTx (`checked`) and its
   * delivery (`delivered`). The only place that reads them.
   */
  private onClientReply(node: string, d: ClientReply): void {
    if (node === `svc-${this.config.nodeIndex}`)
      this.opts.log?.('daemon', replyLine(this.config.scenario.epochMs, this._run.ranToMs(), d));
    // Not even hex (never the case for what the servers send): nothing to answer by.
    if (d.hash === null) return;
    const result: BroadcastResult = {
      height: d.kind === 'delivered' ? d.height.toString() : '0',
      txhash: tendermintHash(d.hash),
      code: d.code,
      ...(d.codespace ? { codespace: d.codespace } : {}),
      raw_log: d.log,
      ...(d.gasWanted !== null ? { gas_wanted: d.gasWanted.toString() } : {}),
      ...(d.gasUsed !== null ? { gas_used: d.gasUsed.toString() } : {}),
    };
    const checked = d.kind === 'checked';
    const book = this.txBook.get(d.hash) ?? { node, barrier: this._run.barriers() };
    if (checked) book.checked ??= result;
    else book.delivered = result;
    this.txBook.set(d.hash, book);
    const waiters = this.txWaiters.get(d.hash);
    if (!waiters) return;
    const keep: TxWaiter[] = [];
    for (const w of waiters) {
      // Another node's record, or a block-mode waiter at CheckTx of a tx that passed it: not yet.
      if (w.node !== node || (checked && w.mode === 'block' && d.code === 0)) keep.push(w);
      else w.resolve(result);
    }
    if (keep.length) this.txWaiters.set(d.hash, keep);
    else this.txWaiters.delete(d.hash);
  }

  // --- served marks and the catch-up gate -------------------------------------------------------

  /** A read is being answered: if it shows a later state than any before, remember it first. */
  noteServed(): void {
    const b = this._run.barriers();
    if (b <= this.mark.b || this.opts.readOnly) return;
    const heads: Record<string, string> = {};
    for (const p of this.sc) heads[p.id] = p.node().chain.head().block.header.number.toString();
    for (const p of this.svc) heads[p.id] = p.node().height.toString();
    this.mark = { b, t: this._run.ranToMs(), heads };
    writeServedMark(paths(this.config.home).served, this.mark);
  }

  /** The head a client may already have seen of node `id` (for eth_syncing's highestBlock). */
  servedHead(id: string): bigint {
    const h = this.mark.heads[id];
    return h === undefined ? 0n : BigInt(h);
  }

  replayStartHead(id: string): bigint {
    return this.replayStartHeads.get(id) ?? 0n;
  }

  readonly gate: CatchUpGate = {
    catchingUp: () => this.mode === 'replaying' && this._run.barriers() < this.mark.b,
    caughtUp: () =>
      new Promise<void>((resolve, reject) => {
        if (!this.gate.catchingUp()) return resolve();
        const waitMs = this.opts.catchUpWaitMs ?? 30_000;
        const timer = setTimeout(() => {
          this.catchUpWaiters.delete(check);
          reject(
            new Error(
              `the node is catching up: replaying its journal (${(this._run.ranToMs() / 1000).toFixed(0)} of ${(this.mark.t / 1000).toFixed(0)} s simulated); retry shortly (eth_syncing and /status say how far it is)`,
            ),
          );
        }, waitMs);
        const check = () => {
          if (this.gate.catchingUp() && !this.stopped) return;
          clearTimeout(timer);
          this.catchUpWaiters.delete(check);
          resolve();
        };
        this.catchUpWaiters.add(check);
      }),
  };

  private releaseCaughtUp(): void {
    for (const check of [...this.catchUpWaiters]) check();
  }

  // --- inputs from the servers ------------------------------------------------------------------

  /** A client's tx for service node `i` (1-based). */
  broadcastTo(i: number, tx: Uint8Array, mode: BroadcastMode): Promise<BroadcastResult> {
    if (this.stopped) return Promise.resolve(txError(txHash(tx), 1, 'the devnet is stopping: the tx was not received'));
    const node = `svc-${i}`;
    return new Promise<BroadcastResult>((resolve, reject) => {
      const hex = toHex(tx);
      const hash = txHash(tx);
      let settled = false;
      const waiter: TxWaiter = {
        node,
        mode: mode === 'block' ? 'block' : 'sync',
        resolve: (r) => finish(() => resolve(r)),
        reject: (e) => finish(() => reject(e)),
      };
      const finish = (f: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        f();
      };
      const timeoutMs = this.opts.blockTimeoutMs ?? 60_000;
      const timer = setTimeout(() => {
        const ws = this.txWaiters.get(hash);
        if (ws)
          this.txWaiters.set(
            hash,
            ws.filter((w) => w !== waiter),
          );
        const journaled = this.txBook.has(hash);
        const paused = this.paused
          ? ' The devnet is paused: the node runs CheckTx and commits when the network runs (lockstep node step or resume).'
          : '';
        finish(() =>
          reject(
            new BroadcastTimeoutError(
              journaled
                ? `timed out after ${timeoutMs} ms waiting for tx ${tendermintHash(hash)} (mode ${mode}): it was journaled and may still commit. Do not send it again; look it up with GET /txs/${tendermintHash(hash)}.${paused}`
                : `timed out after ${timeoutMs} ms: tx ${tendermintHash(hash)} is still waiting to enter the network`,
            ),
          ),
        );
      }, timeoutMs);
      if (mode !== 'async') (this.txWaiters.get(hash) ?? this.txWaiters.set(hash, []).get(hash)!).push(waiter);
      this.pending.push({ k: 'tx', node, tx: hex, mode, resolve: waiter.resolve });
      this.poke();
    });
  }

  setHeadOf(i: number, n: bigint): Promise<OperatorResult> {
    if (this.stopped) return Promise.resolve({ ok: false, error: 'the devnet is stopping' });
    return new Promise((resolve) => {
      this.pending.push({ k: 'setHead', node: `sc-${i}`, n, resolve });
      this.poke();
    });
  }

  /** What GET /txs/{hash} says on service node `i`. */
  lookupTxOn(i: number, hash: Hex): TxLookup {
    const e = this.txBook.get(hash);
    const h = tendermintHash(hash);
    if (!e) {
      // Every journaled tx is in the book once the replay has passed it: until then, ask again.
      if (this.mode === 'replaying')
        return {
          status: 'pending',
          message: `the devnet is replaying its journal: ask again about tx ${h} once it has caught up`,
        };
      if (this.pending.some((p) => p.k === 'tx' && txHash(fromHex(p.tx)) === hash))
        return { status: 'pending', message: `tx ${h} is waiting for the next window barrier to enter the network` };
      return {
        status: 'unknown',
        message: `tx ${h} is unknown to this devnet: it was never journaled (or a revert dropped it), so it was not applied`,
      };
    }
    if (e.delivered) {
      const height = this.serviceNode(i).height;
      if (height >= BigInt(e.delivered.height)) return { status: 'committed', result: e.delivered };
      return {
        status: 'pending',
        message: `tx ${h} was committed at height ${e.delivered.height}; this node is at height ${height} and has not committed it yet`,
      };
    }
    if (e.checked && e.checked.code !== 0) return { status: 'refused', result: e.checked };
    return {
      status: 'pending',
      message: `tx ${h} is pending: ${e.node} received it (journaled at window barrier ${e.barrier}${e.checked ? ', CheckTx passed' : ''}) and it is not in a block yet`,
    };
  }

  // --- the admin namespace (lockstep_*, evm_*) ------------------------------------------------

  readonly control: DevnetControl = {
    status: () => this.adminStatus(),
    pause: () =>
      this.command(() => {
        if (!this.paused) {
          this.paused = true;
          this.append([{ k: 'pause', b: this._run.barriers(), t: this._run.ranToMs() }]);
          this.logDaemon('devnet.pause', this.position());
        }
        return { paused: true, ...this.position() };
      }),
    resume: () =>
      this.command(() => {
        if (this.paused) {
          this.paused = false;
          this.append([{ k: 'resume', b: this._run.barriers(), t: this._run.ranToMs() }]);
          this.logDaemon('devnet.resume', this.position());
        }
        return { paused: false, ...this.position() };
      }),
    step: (s) => this.command(() => this.step(s)),
    snapshot: (name) => this.command(() => this.snapshot(name)),
    revert: (ref, consume) => this.command(() => this.revert(ref, consume)),
    fault: async (spec) => this.injectFault(spec),
    mine: (node) => this.command(() => this.mine(node ?? this.config.nodeIndex)),
    increaseTime: (seconds) => this.command(() => this.increaseTime(seconds)),
  };

  private position() {
    const t = this._run.ranToMs();
    return { barrier: this._run.barriers(), timeMs: t, time: rfc3339FromUnixMs(this.config.scenario.epochMs + t) };
  }

  private checkNode(n: number | undefined, field: string): number {
    const i = n ?? this.config.nodeIndex;
    if (!Number.isInteger(i) || i < 1 || i > this.nodeCount)
      throw new InputError(field, `no node ${i}: this devnet's nodes are 1-${this.nodeCount}`);
    return i;
  }

  private async step(s: StepRequest) {
    const node = this.checkNode(s.node, 'step.node');
    const from = { ...this.position(), events: this._run.events() };
    const head0 = this.sidechainNode(node).chain.head().block.header.number;
    let stoppedBecause = '';
    if (s.events !== undefined) {
      const goal = from.events + s.events;
      await this.runWhile(() => this._run.events() < goal);
      stoppedBecause = `${this._run.events() - from.events} events delivered (steps end at window barriers)`;
    } else if (s.untilMs !== undefined) {
      const until = s.untilMs;
      if (until < from.timeMs)
        throw new InputError('step.until', `the run is already at ${from.timeMs} ms, past ${until} ms`);
      const windows = await this.runWhile(() => {
        const next = this._run.peekRanToMs();
        return next !== null && next <= until;
      });
      const next = this._run.peekRanToMs();
      stoppedBecause =
        windows === 0 && this._run.ranToMs() < until
          ? `already at the last window barrier at or before ${until} ms (the next one is at ${next} ms)`
          : `the last window barrier at or before ${until} ms`;
    } else if (s.blocks !== undefined) {
      const goal = head0 + BigInt(s.blocks);
      const bound = from.timeMs + BLOCK_WAIT_BOUND_MS;
      await this.runWhile(
        () => this.sidechainNode(node).chain.head().block.header.number < goal && this._run.ranToMs() < bound,
      );
      const head = this.sidechainNode(node).chain.head().block.header.number;
      stoppedBecause =
        head >= goal
          ? `sc-${node} reached block ${head}`
          : `sc-${node} made no ${s.blocks} blocks within ${BLOCK_WAIT_BOUND_MS / 60_000} min of virtual time (head ${head})`;
    }
    this.paused = true;
    const to = this.position();
    this.append([
      { k: 'advance', b: to.barrier, t: to.timeMs, by: 'step' },
      { k: 'pause', b: to.barrier, t: to.timeMs },
    ]);
    this.logDaemon('devnet.step', { from: from.timeMs, to: to.timeMs, stoppedBecause });
    return {
      ...to,
      paused: true,
      ranMs: to.timeMs - from.timeMs,
      events: this._run.events() - from.events,
      head: { node: `sc-${node}`, number: Number(this.sidechainNode(node).chain.head().block.header.number) },
      stoppedBecause,
      ...(this.ended ? { ended: this.ended } : {}),
    };
  }

  private async mine(node: number) {
    const i = this.checkNode(node, 'node');
    // A new block on top: the head number grows (a reorg at the same height is not one).
    const chain = () => this.sidechainNode(i).chain.head().block;
    const start = chain().header.number;
    const bound = this._run.ranToMs() + BLOCK_WAIT_BOUND_MS;
    await this.runWhile(() => chain().header.number <= start && this._run.ranToMs() < bound);
    if (chain().header.number <= start)
      throw new Error(
        `sc-${i} made no new block within ${BLOCK_WAIT_BOUND_MS / 60_000} min of virtual time (is it crashed or cut off? lockstep_status shows the faults in force)`,
      );
    const to = this.position();
    this.append([{ k: 'advance', b: to.barrier, t: to.timeMs, by: 'evm_mine' }]);
    return { ...to, block: Number(chain().header.number) };
  }

  private async increaseTime(seconds: number): Promise<number> {
    const goal = this._run.ranToMs() + seconds * 1000;
    await this.runWhile(() => this._run.ranToMs() < goal);
    this.timeOffsetS += seconds;
    const to = this.position();
    this.append([{ k: 'advance', b: to.barrier, t: to.timeMs, by: 'evm_increaseTime', s: seconds }]);
    return this.timeOffsetS;
  }

  private snapshot(name: string | undefined): SnapshotInfo {
    const id = `0x${(this.nextSnapshotId++).toString(16)}`;
    const nm = name ?? id;
    const { barrier, timeMs } = this.position();
    this.append([{ k: 'snapshot', b: barrier, t: timeMs, id, name: nm }]);
    const info: SnapshotInfo = { id, name: nm, barrier, timeMs, line: this.journalLines - 1 };
    this.snapshots = this.snapshots.filter((s) => s.name !== nm);
    this.snapshots.push(info);
    this.logDaemon('devnet.snapshot', { id, name: nm, barrier, timeMs });
    return info;
  }

  /**
   * Truncate the journal at a snapshot (after it; before it when `consume`), keep the dropped tail
   * in a backup file, and rebuild the network by replaying what is left. The served mark goes back
   * to the snapshot: reading a lower block after a revert is what was asked for.
   */
  private async revert(ref: string, consume: boolean) {
    const s = [...this.snapshots].reverse().find((x) => x.name === ref || x.id === ref);
    if (!s) return null;
    const p = paths(this.config.home);
    const { entries } = readJournal(p.journal);
    const keep = consume ? s.line : s.line + 1;
    const dropped = entries.slice(keep);
    let n = 1;
    while (existsSync(p.revertedJournal(n))) n++;
    const backup = p.revertedJournal(n);
    writeFileSync(backup, dropped.map((e) => `${JSON.stringify(e)}\n`).join(''));
    this.journal?.close();
    writeJournal(p.journal, entries.slice(0, keep));
    this.journal = new Journal(p.journal);
    const wasPaused = this.paused;
    // Waiters of txs the revert dropped: those txs are not applied (they are in the backup).
    for (const [hash, ws] of this.txWaiters)
      for (const w of ws)
        w.resolve(
          txError(hash, 1, `the devnet was reverted to snapshot ${s.name} before this tx committed: it was dropped`),
        );
    this.txWaiters.clear();
    this.txBook.clear();
    this.mark = { b: s.barrier, t: s.timeMs, heads: {} };
    writeServedMark(p.served, this.mark);
    this.logDaemon('devnet.revert', {
      snapshot: s.name,
      id: s.id,
      barrier: s.barrier,
      dropped: dropped.length,
      backup,
    });
    this.load(entries.slice(0, keep), s.barrier, false);
    await this.catchUp();
    if (this.paused !== wasPaused) {
      this.paused = wasPaused;
      const at = this.position();
      this.append([
        wasPaused ? { k: 'pause', b: at.barrier, t: at.timeMs } : { k: 'resume', b: at.barrier, t: at.timeMs },
      ]);
    }
    return {
      reverted: s.name,
      id: s.id,
      ...this.position(),
      droppedEntries: dropped.length,
      backup,
      kept: !consume,
    };
  }

  private injectFault(spec: unknown): Promise<InjectedFault> {
    const f = decodeLiveFault(spec, this.config.scenario);
    if (this.stopped) return Promise.reject(new Error('the devnet is stopping'));
    const encoded = encodeLiveFault(f, this.config.scenario);
    return new Promise((resolve) => {
      this.pending.push({ k: 'fault', fault: encoded, resolve });
      this.poke();
    });
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

  private logDaemon(kind: string, data: Record<string, unknown>): void {
    const t = this._run?.ranToMs() ?? 0;
    this.opts.log?.('daemon', `${rfc3339FromUnixMs(this.config.scenario.epochMs + t)} ${kind} ${jsonText(data)}`);
  }

  /** What `lockstep_status` and `lockstep node status` show. */
  adminStatus() {
    const epochMs = this.config.scenario.epochMs;
    const at = (ms: number) => rfc3339FromUnixMs(epochMs + ms);
    const state = this.stopped
      ? 'stopped'
      : this.mode === 'replaying'
        ? 'replaying'
        : this.ended
          ? 'ended'
          : this.paused
            ? 'paused'
            : 'running';
    return {
      state,
      speed: this.opts.speed ?? 1,
      ...this.position(),
      events: this._run.events(),
      catchingUp: this.mode === 'replaying',
      ...(this.mode === 'replaying'
        ? { replay: { barrier: this._run.barriers(), targetBarrier: this.target, targetMs: this.targetMs } }
        : {}),
      ...(this.ended ? { ended: this.ended } : {}),
      ...(this.config.scenario.plant ? { plant: this.config.scenario.plant } : {}),
      ...(this.opened ? { opened: { ...this.opened, note: this.config.start?.note ?? '' } } : {}),
      nodeIndex: this.config.nodeIndex,
      nodes: this.svc.map((p, k) => {
        const i = k + 1;
        const s = this.serviceNode(i);
        const c = this.sidechainNode(i).chain.head().block;
        return {
          node: i,
          service: { id: p.id, height: Number(s.height), alive: s.isAlive },
          sidechain: {
            id: `sc-${i}`,
            head: Number(c.header.number),
            hash: c.hash,
            alive: this.sidechainNode(i).isAlive,
          },
        };
      }),
      violations: this.oracles.list().map((v) => ({
        oracle: v.oracle,
        class: v.class,
        atMs: v.atMs,
        time: at(v.atMs),
        node: v.node,
        message: v.message,
      })),
      faultsInForce: [...this.activeFaults].map(([index, f]) => ({ index, ...f })),
      injectedFaults: this.injected.map((f) => ({
        index: f.index,
        kind: f.kind,
        description: f.description,
        atMs: f.atMs,
        endsAtMs: f.endsAtMs,
      })),
      snapshots: this.snapshots.map(({ line: _line, ...s }) => s),
      timeOffsetS: this.timeOffsetS,
      journal: { file: paths(this.config.home).journal, entries: this.journalLines },
    };
  }

  /** Faults injected so far (for the report). */
  injectedFaults(): readonly InjectedFault[] {
    return this.injected;
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
    return `${state}service height ${s.latestBlockHeight}, sidechain block ${sc}, ${(this._run.ranToMs() / 1000).toFixed(0)} s simulated, ${this.stats.txs} txs received${v.length ? `, ${v.length} oracle violation${v.length > 1 ? 's' : ''} (${v.map((x) => x.oracle).join(', ')})` : ''}`;
  }
}

export function txError(hash: string, code: number, message: string): BroadcastResult {
  return {
    height: '0',
    txhash: tendermintHash(hash),
    code,
    codespace: 'sdk',
    raw_log: JSON.stringify({ codespace: 'sdk', code, message }),
  };
}

function jsonText(data: unknown): string {
  return JSON.stringify(data, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

function logLine(epochMs: number, r: RunRecord): string {
  return `${rfc3339FromUnixMs(epochMs + r.t)} ${r.obs.kind} ${observationJson(r.obs)}`;
}

/** A client answer in the daemon log (as the node's broadcast endpoint would log it). */
function replyLine(epochMs: number, t: number, r: ClientReply): string {
  const fields = {
    hash: r.hash,
    ...(r.kind === 'delivered' ? { height: r.height.toString() } : {}),
    code: r.code,
    codespace: r.codespace,
    log: r.log,
  };
  return `${rfc3339FromUnixMs(epochMs + t)} service.${r.kind === 'checked' ? 'clientTx' : 'clientTxResult'} ${JSON.stringify(fields)}`;
}

function yieldToIo(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}
