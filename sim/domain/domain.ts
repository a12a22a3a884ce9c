/**
 * A domain: a set of nodes on their own engine, trace, network and rng streams, advanced window by
 * window. Both placements drive domains through the same calls (`start`, `runWindow`), so a domain
 * computes the same thing whichever thread it lives in:
 *
 *  - messages to nodes of another domain leave through the network's boundary with their delivery
 *    time (>= send time + L) and are handed over at the barrier (`WindowResult.outbound`);
 *  - messages from another domain arrive at the barrier (`WindowRequest.inbound`, already in the
 *    canonical order) and are scheduled at their delivery time, which is always past the window;
 *  - the domain reports how far it ran and the earliest time it may next send across (its
 *    lookahead, see crossTriggers.ts), and the scheduler (windowScheduler.ts) picks the next window.
 *
 * Plot samples are taken inside the domain when its engine passes each sample time, so sampling
 * never moves a barrier (and never changes a trace hash).
 */
import { boundedMemo } from '../../src/core/memo';
import { type Hex } from '../../src/core/bytes';
import { InvariantError, assert } from '../../src/core/errors';
import { type NodeContext, type SimNode } from '../../src/node/ports';
import { type NodeMessage, describeMessage } from '../../src/node/messages';
import { type ServiceTimer } from '../../src/node/service/config';
import { type SidechainTimer } from '../../src/node/sidechain/sidechainNode';
import { type ParentTimer } from '../../src/node/parentChainNode';
import { Engine } from '../engine/engine';
import { EventQueue } from '../engine/eventQueue';
import { type Rng } from '../env/rng';
import { type CrossDomainMessage, Network, NET_DELIVER, type NetworkStats } from '../env/network';
import { TraceRecorder } from '../trace/traceRecorder';
import { observationJson } from '../trace/observationJson';
import { type RunObservation, type RunRecord } from './observation';
import { type Scenario } from '../scenario/scenario';
import {
  type FaultSpec,
  type TriggerChain,
  applyFault,
  faultSides,
  faultStartReplansSidechainNode,
} from '../faults/registry';
import { type FaultSite } from '../faults/fault';
import { type ClusterSetup, type DomainName, domainOf } from './clusterSetup';
import { CROSS_SEND_TRIGGERS, type CrossSendTriggers, isCrossRequest } from './crossTriggers';
import { setPlant } from '../../src/core/plants';

export type AnyTimer = ServiceTimer | SidechainTimer | ParentTimer;

export interface NodeSlot {
  node: SimNode<NodeMessage, AnyTimer>;
  alive: boolean;
  paused: boolean;
  pausedUntilMs: number;
  incarnation: number;
  skewMs: number;
  rng: Rng;
  ctx: NodeContext<NodeMessage, AnyTimer>;
}

export type { RunRecord } from './observation';

export interface FaultFired {
  kind: string;
  atMs: number;
  detail: string;
  /** For a height-triggered fault: the height reached (the first to reach it) and the node that reached it. */
  atHeight?: { chain: TriggerChain; height: number; node: string };
}

/** A fired fault with its index in the scenario (for the canonical merge across domains). */
export interface IndexedFaultFired extends FaultFired {
  index: number;
}

interface TimerPayload {
  tag: AnyTimer;
  inc: number;
}

export type CrossMessage = CrossDomainMessage<NodeMessage>;

export interface DomainOptions {
  /** The domain's trace recorder (default: a new one). */
  trace?: TraceRecorder;
  /** Buffer every trace line (JSONL) and hand it over with each window result. */
  traceLines?: boolean;
  /** Run length and sample spacing, for the plot samples the domain takes as it passes them. */
  untilMs: number;
  sampleEveryMs: number;
}

export interface WindowRequest {
  /** Messages from the other domain, in canonical order; all due after `untilMs`. */
  inbound: CrossMessage[];
  /** Deliver every event at or before this virtual time. */
  untilMs: number;
  /** The promises this window is run under: no cross-domain send before `sendFloorMs`, no request before `requestFloorMs`. */
  sendFloorMs: number;
  requestFloorMs: number;
  /** Runaway guard: at most this many events in this window. */
  maxEvents: number;
}

export interface DomainStatus {
  /** Every event at or before this time has been delivered. */
  ranToMs: number;
  /** The earliest time this domain may send a request across (its next poll timer or fault, or an armed height trigger's bound). */
  nextRequestMs: number;
  /** The earliest time it may send anything across: a request, or an answer to a request already queued. */
  nextSendMs: number;
  /** Events delivered so far in this domain. */
  events: number;
}

export type WindowEnd = { kind: 'crash' | 'runaway' | 'stopped'; message: string };

export interface WindowResult extends DomainStatus {
  /** Messages for the other domain, in the order they were sent. */
  outbound: CrossMessage[];
  /** The records (observations) made in this window, in time order. */
  records: RunRecord[];
  /** Set when the window ended early (an invariant broke, a runaway bound, a stop request). */
  end: WindowEnd | null;
  /** The trace lines of this window (only with `traceLines`). */
  traceLines: string[] | null;
}

/** The domain whose nodes make each chain's heights (where a height trigger is watched). */
export const TRIGGER_DOMAIN: Record<TriggerChain, DomainName> = { service: 'main', sidechain: 'sidechain' };

/**
 * Which domains apply a fault, and which one records it as fired: the domains of the nodes it
 * acts on (faultSides; a blocked or degraded link matters to its sender's network, so a link
 * fault applies where its senders live).
 */
export function faultDomains(f: FaultSpec): { applies: ReadonlySet<DomainName>; owner: DomainName } {
  const applies = new Set([...faultSides(f)].map((side) => TRIGGER_DOMAIN[side]));
  return { applies, owner: applies.has('main') ? 'main' : 'sidechain' };
}

/**
 * Whether a fault's start may make a node send a request across at once: the producer faults
 * re-plan their sidechain node (restartNow), which polls its service node. Any end may (a restart,
 * an unpause), as may every phase of a time fault; the boundary assertion catches a miss.
 */
function faultStartMaySendAcross(f: FaultSpec): boolean {
  return faultStartReplansSidechainNode(f);
}

/**
 * A delivery's trace description. The network asks for it once per send or broadcast and hands
 * it to every copy (see Network); the engine asks for deliveries scheduled otherwise (messages
 * from the other domain, from outside).
 */
function describeDelivery(msg: NodeMessage, from: string): string {
  return `{"f":${JSON.stringify(from)},"m":${describeMessage(msg)}}`;
}

const timerDescriptions = boundedMemo<string, string>('domain.timerDescriptions', 64);

function describeTimer(kind: string): string {
  return timerDescriptions.getOrCompute(kind, () => `{"t":${JSON.stringify(kind)}}`);
}

export abstract class Domain {
  readonly engine: Engine;
  readonly trace: TraceRecorder;
  readonly rng: Rng;
  readonly network: Network;
  readonly slots = new Map<string, NodeSlot>();
  readonly records: RunRecord[] = [];
  readonly faultsFired: IndexedFaultFired[] = [];
  private outbox: CrossMessage[] = [];
  private recordsShipped = 0;
  private traceBuffer: string[] | null = null;
  private readonly triggers: CrossSendTriggers;
  /** Times of queued events that may send across: requests (poll timers, faults) and answers (queued requests). Stale ones pop at barriers. */
  private readonly requestTimes = new EventQueue<{ timeMs: number; seq: number }>();
  private readonly answerTimes = new EventQueue<{ timeMs: number; seq: number }>();
  private triggerSeq = 0;
  /** Height-triggered faults of this domain that have not fired yet, in scenario order. */
  private armed: Array<{ fault: FaultSpec; index: number }> = [];
  /** What fired each height-triggered fault (for its record). */
  private readonly triggeredBy = new Map<number, { chain: TriggerChain; height: number; node: string }>();
  private sendFloorMs = 0;
  private requestFloorMs = 0;
  private ranToMs = -1;
  private readonly untilMs: number;
  private readonly sampleEveryMs: number;
  private nextSampleMs: number;

  constructor(
    readonly name: DomainName,
    readonly scenario: Scenario,
    readonly seed: number,
    readonly setup: ClusterSetup,
    opts: DomainOptions,
  ) {
    // A planted bug (test builds) is switched on in every thread that runs a domain of the run.
    setPlant(scenario.plant ?? null);
    this.trace = opts.trace ?? new TraceRecorder();
    if (opts.traceLines) {
      const buf: string[] = [];
      this.traceBuffer = buf;
      this.trace.addSink((line) => void buf.push(line));
    }
    this.engine = new Engine(this.trace);
    this.rng = setup.rng;
    this.triggers = CROSS_SEND_TRIGGERS[name];
    this.untilMs = opts.untilMs;
    this.sampleEveryMs = opts.sampleEveryMs;
    this.nextSampleMs = Math.min(opts.sampleEveryMs, opts.untilMs);
    this.network = new Network(
      this.engine,
      this.rng.fork('net'),
      scenario.network,
      {
        isLocal: (node) => domainOf(node) === name,
        minLatencyMs: setup.crossLatencyMs,
        post: (m) => {
          const kind = (m.msg as NodeMessage).kind;
          const request = isCrossRequest(domainOf(m.to), kind);
          const floor = request ? Math.max(this.sendFloorMs, this.requestFloorMs) : this.sendFloorMs;
          assert(
            this.engine.nowMs() >= floor,
            `cross-domain ${request ? 'request' : 'answer'} before the ${name} domain's promised horizon: add the event that caused it to sim/domain/crossTriggers.ts`,
            {
              from: m.from,
              to: m.to,
              kind,
              nowMs: this.engine.nowMs(),
              promisedMs: floor,
            },
          );
          this.outbox.push(m as CrossMessage);
        },
      },
      describeDelivery as (msg: unknown, from: string) => string,
    );

    this.engine.on<NodeMessage>(
      NET_DELIVER,
      (ev) => {
        const slot = this.slots.get(ev.target);
        if (!slot?.alive || slot.paused) return;
        this.network.noteDelivered();
        slot.node.onMessage(ev.source, ev.payload, slot.ctx);
      },
      describeDelivery,
    );
    this.engine.on<TimerPayload>(
      'node.timer',
      (ev, e) => {
        const slot = this.slots.get(ev.target);
        if (!slot?.alive || ev.payload.inc !== slot.incarnation) return;
        if (slot.paused) {
          this.scheduleTimer(Math.max(slot.pausedUntilMs, e.nowMs()), ev.target, ev.payload);
          return;
        }
        slot.node.onTimer(ev.payload.tag, slot.ctx);
      },
      (p) => describeTimer(p.tag.kind),
    );
    this.engine.on<{ fault: FaultSpec; index: number; phase: 'start' | 'end' }>(
      'fault',
      (ev) => this.startOrEndFault(ev.payload.fault, ev.payload.index, ev.payload.phase),
      (p) => `{"i":${p.index},"k":"${p.fault.kind}","p":"${p.phase}"}`,
    );
  }

  // --- nodes ---------------------------------------------------------------------------------

  protected addNode(node: SimNode<NodeMessage, AnyTimer>): void {
    const id = node.id;
    assert(domainOf(id) === this.name, 'a node lives in its own domain', { id, domain: this.name });
    const slot: NodeSlot = {
      node,
      alive: true,
      paused: false,
      pausedUntilMs: 0,
      incarnation: 0,
      skewMs: 0,
      rng: this.rng.fork(`node:${id}`),
      ctx: undefined as unknown as NodeContext<NodeMessage, AnyTimer>,
    };
    slot.ctx = {
      nowMs: () => this.engine.nowMs() + this.scenario.epochMs + slot.skewMs,
      send: (to, msg) => this.network.send(id, to, msg),
      broadcast: (to, msg, except) => this.network.broadcast(id, to, msg, except),
      setTimer: (afterMs, tag) =>
        this.scheduleTimer(this.engine.nowMs() + Math.max(0, Math.floor(afterMs)), id, { tag, inc: slot.incarnation }),
      random: () => slot.rng.float(),
      observe: (o) => this.record(id, o),
    };
    this.slots.set(id, slot);
  }

  /** A node of this domain (faults pause it, skew its clock). */
  slot(id: string): NodeSlot {
    const s = this.slots.get(id);
    assert(s !== undefined, 'a fault names a node of this domain', { id, domain: this.name });
    return s;
  }

  private scheduleTimer(timeMs: number, target: string, payload: TimerPayload): void {
    this.engine.at(timeMs, 'node.timer', target, payload);
    if (this.triggers.requestTimers.has(payload.tag.kind)) this.noteRequestTrigger(timeMs);
  }

  private noteRequestTrigger(timeMs: number): void {
    this.requestTimes.push({ timeMs, seq: this.triggerSeq++ });
  }

  record(node: string, obs: RunObservation): void {
    const t = this.engine.nowMs();
    this.records.push({ t, node, obs });
    this.trace.noteText(t, obs.kind, node, observationJson(obs));
    if (this.armed.length > 0) this.watchHeights(node, obs);
  }

  /**
   * Height triggers: a live node's record that it committed a service block (`service.commit`) or
   * imported a sidechain block (`sidechain.imported`) at or past a trigger's height fires the
   * fault. It starts at this virtual millisecond, as an event after those already queued for it
   * (never inside the node's handler), and ends `for` later.
   */
  private watchHeights(node: string, obs: RunObservation): void {
    const chain: TriggerChain | null =
      obs.kind === 'service.commit' ? 'service' : obs.kind === 'sidechain.imported' ? 'sidechain' : null;
    if (chain === null) return;
    const height = Number(
      obs.kind === 'service.commit' ? obs.height : obs.kind === 'sidechain.imported' ? obs.block.number : 0n,
    );
    const now = this.engine.nowMs();
    this.armed = this.armed.filter(({ fault: f, index }) => {
      if (f.atHeight!.chain !== chain || height < f.atHeight!.height) return true;
      this.triggeredBy.set(index, { chain, height, node });
      this.scheduleFault(f, index, now);
      return false;
    });
  }

  // --- start, faults -------------------------------------------------------------------------

  /**
   * Start the domain and report where it stands; a broken invariant while starting ends the run
   * (reported as data, so it crosses threads like any window end).
   */
  begin(): { status: DomainStatus; end: WindowEnd | null } {
    try {
      this.start();
      return { status: this.status(), end: null };
    } catch (e) {
      if (!(e instanceof InvariantError)) throw e;
      return {
        status: this.status(),
        end: {
          kind: 'crash',
          message: `${e.message} [scenario ${this.scenario.name}, seed ${this.seed}, ${this.name} domain]`,
        },
      };
    }
  }

  /** Schedule this domain's faults and workload and start its nodes; takes the sample at 0. */
  start(): void {
    this.scenario.faults.forEach((f, i) => {
      const { applies } = faultDomains(f);
      if (!applies.has(this.name)) return;
      if (f.atHeight === undefined) {
        this.scheduleFault(f, i, f.atMs ?? 0);
        return;
      }
      // The scenario decoder only lets a height trigger start a fault in the domain that watches the height.
      assert(
        applies.size === 1 && TRIGGER_DOMAIN[f.atHeight.chain] === this.name,
        'a height trigger fires a fault of its own domain',
        { index: i, kind: f.kind, chain: f.atHeight.chain },
      );
      this.armed.push({ fault: f, index: i });
    });
    this.scheduleWorkload();
    for (const slot of this.slots.values()) slot.node.start(slot.ctx);
    this.takeSample(0);
  }

  /** Queue a fault's start at `atMs` and its end `for` later; both may send across (a restart, an unpause). */
  private scheduleFault(f: FaultSpec, index: number, atMs: number): void {
    this.engine.at(atMs, 'fault', '', { fault: f, index, phase: 'start' });
    this.noteRequestTrigger(atMs);
    if (f.forMs !== undefined) {
      this.engine.at(atMs + f.forMs, 'fault', '', { fault: f, index, phase: 'end' });
      this.noteRequestTrigger(atMs + f.forMs);
    }
  }

  protected abstract scheduleWorkload(): void;

  /** Record the plot sample at virtual time `timeMs` (all events up to it delivered). */
  protected abstract takeSample(timeMs: number): void;

  /** This domain as a fault sees it (sim/faults: the main domain or the sidechain domain). */
  protected abstract faultSite(): FaultSite;

  /**
   * Start or end a fault here (its kind's file in sim/faults says how); the domain that owns it
   * records it, with the height that fired it.
   */
  private startOrEndFault(f: FaultSpec, index: number, phase: 'start' | 'end'): void {
    const start = phase === 'start';
    const detail = applyFault(f, this.faultSite(), { start, index });
    if (faultDomains(f).owner !== this.name) return;
    const by = this.triggeredBy.get(index);
    const d = by ? `${detail}; at ${by.chain} height ${by.height} (${by.node})` : detail;
    if (start)
      this.faultsFired.push({
        kind: f.kind,
        atMs: this.engine.nowMs(),
        detail: d,
        index,
        ...(by ? { atHeight: by } : {}),
      });
    this.record('', {
      kind: start ? 'fault.start' : 'fault.end',
      index,
      fault: f.kind,
      detail: d,
      permanent: f.forMs === undefined,
      atHeight: by ?? null,
    });
  }

  /**
   * What a fault resolved to when it started (by scenario index): `resolve()` runs at the start,
   * and the end gets the same value back, so it undoes what the start did (an `inTurn` producer,
   * the checkpoint proposer of the moment).
   */
  resolveAtStart<T>(index: number, start: boolean, resolve: () => T): T {
    if (start) this.resolvedAtStart.set(index, resolve());
    return this.resolvedAtStart.get(index) as T;
  }

  private readonly resolvedAtStart = new Map<number, unknown>();

  /** Crash a node, or restart a crashed one (faults). */
  crashOrRestart(id: string, crash: boolean): void {
    const s = this.slot(id);
    if (crash) {
      s.node.crash();
      s.alive = false;
      s.incarnation++;
    } else if (!s.alive) {
      s.alive = true;
      s.incarnation++;
      s.node.restart(s.ctx);
    }
  }

  /** Re-plan a live node at once (its pending timers go stale). */
  restartNow(id: string): void {
    const s = this.slot(id);
    if (s.alive) {
      s.incarnation++;
      s.node.restart(s.ctx);
    }
  }

  // --- input from outside the simulation ------------------------------------------------------

  /**
   * Deliver a message from outside the simulation (a devnet's REST client or operator console)
   * between two windows, at the first millisecond after the domain's last window. It bypasses the
   * network model: the outside world reaches the node directly. A devnet replaying its journal
   * makes the same call between the same two windows, so the run stays deterministic.
   */
  deliverExternal(to: string, msg: NodeMessage): number {
    assert(domainOf(to) === this.name && this.slots.has(to), 'an external message goes to a node of this domain', {
      to,
      domain: this.name,
    });
    const t = this.ranToMs + 1;
    this.engine.at(t, NET_DELIVER, to, msg, 'external');
    return t;
  }

  /**
   * A fault from outside the scenario (a devnet's `lockstep node fault`), between two windows: it
   * starts at `atMs` (past this domain's last window) and ends `for` later, exactly as a scheduled
   * scenario fault with that start time would, in the domains the scenario's placement rules
   * give it (faultDomains). `index` follows the scenario's faults, so records and `faultsFired`
   * name it like any other. A replay that injects the same fault between the same two windows runs
   * the same events.
   */
  injectFault(f: FaultSpec, index: number, atMs: number): void {
    assert(f.atHeight === undefined, 'an injected fault starts at a time', { index, kind: f.kind });
    assert(atMs > this.ranToMs, 'an injected fault starts after the windows already run', {
      domain: this.name,
      atMs,
      ranToMs: this.ranToMs,
    });
    if (!faultDomains(f).applies.has(this.name)) return;
    this.scheduleFault({ ...f, atMs }, index, atMs);
  }

  // --- windows -------------------------------------------------------------------------------

  status(): DomainStatus {
    const next = (q: EventQueue<{ timeMs: number; seq: number }>): number => {
      for (let top = q.peek(); top !== undefined && top.timeMs <= this.ranToMs; top = q.peek()) q.pop();
      return q.peek()?.timeMs ?? Infinity;
    };
    // An armed height trigger may fire at any moment after this window: if its start may send
    // across, no request can be promised after ranToMs; otherwise its end comes `for` after it fires.
    let nextRequestMs = next(this.requestTimes);
    for (const { fault: f } of this.armed)
      nextRequestMs = Math.min(
        nextRequestMs,
        this.ranToMs + 1 + (faultStartMaySendAcross(f) ? 0 : (f.forMs ?? Infinity)),
      );
    return {
      ranToMs: this.ranToMs,
      nextRequestMs,
      nextSendMs: Math.min(nextRequestMs, next(this.answerTimes)),
      events: this.engine.eventsDelivered,
    };
  }

  runWindow(req: WindowRequest): WindowResult {
    assert(req.untilMs >= this.ranToMs, 'windows never go back', {
      domain: this.name,
      untilMs: req.untilMs,
      ranToMs: this.ranToMs,
    });
    for (const m of req.inbound) {
      assert(
        m.deliverAt > this.ranToMs && domainOf(m.to) === this.name,
        'a cross-domain message arrives after the window it was sent in',
        { domain: this.name, deliverAt: m.deliverAt, ranToMs: this.ranToMs, to: m.to },
      );
      this.engine.at(m.deliverAt, NET_DELIVER, m.to, m.msg, m.from);
      if (this.triggers.requests.has(m.msg.kind))
        this.answerTimes.push({ timeMs: m.deliverAt, seq: this.triggerSeq++ });
    }
    this.sendFloorMs = req.sendFloorMs;
    this.requestFloorMs = req.requestFloorMs;
    let budget = req.maxEvents;
    let end: WindowEnd | null = null;
    const runTo = (untilMs: number): boolean => {
      const v = this.engine.run({ untilMs, maxEvents: budget });
      budget -= v.events;
      if (v.runaway)
        end = {
          kind: 'runaway',
          message: `runaway: more than ${this.scenario.maxEvents} events by ${this.engine.nowMs()} ms of virtual time (max-events bound, ${this.name} domain)`,
        };
      else if (v.reason === 'stopped') end = { kind: 'stopped', message: v.message };
      return end === null;
    };
    try {
      let ok = true;
      while (ok && this.nextSampleMs <= req.untilMs && this.nextSampleMs > this.ranToMs) {
        ok = runTo(this.nextSampleMs);
        if (!ok) break;
        this.takeSample(this.nextSampleMs);
        this.nextSampleMs =
          this.nextSampleMs >= this.untilMs ? Infinity : Math.min(this.nextSampleMs + this.sampleEveryMs, this.untilMs);
      }
      if (ok && runTo(req.untilMs)) this.ranToMs = req.untilMs;
    } catch (e) {
      if (!(e instanceof InvariantError)) throw e;
      end = {
        kind: 'crash',
        message: `${e.message} [scenario ${this.scenario.name}, seed ${this.seed}, at ${this.engine.nowMs()} ms, ${this.name} domain]`,
      };
    }
    if (end !== null) this.ranToMs = this.engine.nowMs();
    const outbound = this.outbox;
    this.outbox = [];
    const records = this.records.slice(this.recordsShipped);
    this.recordsShipped = this.records.length;
    const traceLines = this.traceBuffer !== null ? this.traceBuffer.splice(0) : null;
    return { ...this.status(), outbound, records, end, traceLines };
  }

  traceDigest(): Hex {
    return this.trace.digest();
  }

  networkStats(): NetworkStats {
    return { ...this.network.stats };
  }
}
