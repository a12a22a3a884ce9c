/**
 * The nodes of a domain and their lifecycle. Each node gets a slot: the ports it sees the world
 * through (clock with its skew, network, timers, its own rng stream, the recorder), whether it is
 * alive or paused, and its incarnation. A crash or a restart bumps the incarnation, so the timers
 * a node set before are stale and dropped when they come due; a paused node's messages are lost and
 * its timers wait for the pause to end.
 */
import { boundedMemo } from '../../src/core/memo';
import { assert } from '../../src/core/errors';
import { type NodeContext, type SimNode } from '../../src/node/ports';
import { type NodeMessage, describeMessage } from '../../src/node/messages';
import { type ServiceTimer } from '../../src/node/service/config';
import { type SidechainTimer } from '../../src/node/sidechain/sidechainNode';
import { type ParentTimer } from '../../src/node/parentChainNode';
import { type Engine } from '../engine/engine';
import { type Rng } from '../env/rng';
import { type Network, NET_DELIVER } from '../env/network';
import { type DomainName, domainOf } from './runSetup';
import { type FaultFact, type RunObservation } from '../core/record';
import { type CrossBoundary } from './windowProtocol';
import { type Buggify, restartsNode } from '../scenario/buggify';

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
  /** The node's BUGGIFY stream (`buggify:<id>`), when the scenario asks for BUGGIFY; else null. */
  buggify: Rng | null;
  /** Down because BUGGIFY restarted it (it starts again after the knob's `down`). */
  buggifyDown: boolean;
}

interface TimerPayload {
  tag: AnyTimer;
  /** The incarnation that set it: a timer of an earlier one is stale. */
  inc: number;
}

/**
 * A delivery's trace description. The network asks for it once per send or broadcast and hands
 * it to every copy (see Network); the engine asks for deliveries scheduled otherwise (messages
 * from the other domain, from outside).
 */
export function describeDelivery(msg: NodeMessage, from: string): string {
  return `{"f":${JSON.stringify(from)},"m":${describeMessage(msg)}}`;
}

/** The event of a healed partition: its target (re)opens its connection to the peer in its payload. */
const NET_CONNECT = 'net.connect';

const timerDescriptions = boundedMemo<string, string>('domain.timerDescriptions', 64);

function describeTimer(kind: string): string {
  return timerDescriptions.getOrCompute(kind, () => `{"t":${JSON.stringify(kind)}}`);
}

/** What the slots need from their domain. */
export interface NodeSlotsEnv {
  domain: DomainName;
  engine: Engine;
  network: Network;
  /** The domain's stream; each node forks its own (`node:<id>`). */
  rng: Rng;
  /** Virtual time 0 on the nodes' clocks. */
  epochMs: number;
  /** Where a timer that may send a request across is noted (the lookahead). */
  boundary: CrossBoundary;
  /** A node's record (observation). */
  observe(node: string, obs: RunObservation): void;
  /** Rare paths on purpose (sim/scenario/buggify.ts); absent: none, and no draw is made. */
  buggify?: Buggify;
}

/** The event that starts a node BUGGIFY took down, once its `down` is over. */
const BUGGIFY_RESTART = 'buggify.restart';

export class NodeSlots {
  private readonly slots = new Map<string, NodeSlot>();
  /** BUGGIFY restarts so far (their fault records' indexes count down from -1). */
  private buggifyRestarts = 0;
  /** The fault record of each node BUGGIFY holds down, for its end. */
  private readonly buggifyFacts = new Map<string, FaultFact>();

  constructor(private readonly env: NodeSlotsEnv) {
    const { engine } = env;
    engine.on<NodeMessage>(
      NET_DELIVER,
      (ev) => {
        const slot = this.slots.get(ev.target);
        if (!slot?.alive || slot.paused) return;
        env.network.noteDelivered();
        slot.node.onMessage(ev.source, ev.payload, slot.ctx);
      },
      describeDelivery,
    );
    engine.on<TimerPayload>(
      'node.timer',
      (ev, e) => {
        const slot = this.slots.get(ev.target);
        if (!slot?.alive || ev.payload.inc !== slot.incarnation) return;
        if (slot.paused) {
          this.scheduleTimer(Math.max(slot.pausedUntilMs, e.nowMs()), ev.target, ev.payload);
          return;
        }
        const restarts = env.buggify?.restarts;
        if (
          slot.buggify !== null &&
          restarts &&
          restartsNode(env.buggify, ev.target) &&
          slot.buggify.bool(restarts.probability)
        ) {
          this.buggifyRestart(slot, restarts.downMs);
          return;
        }
        slot.node.onTimer(ev.payload.tag, slot.ctx);
      },
      (p) => describeTimer(p.tag.kind),
    );
    // A healed partition: the first node of each pair that keeps connections opens its connection again.
    engine.on<string>(
      NET_CONNECT,
      (ev) => {
        const slot = this.slots.get(ev.target);
        if (!slot?.alive || slot.paused) return;
        slot.node.onConnect?.(ev.payload, slot.ctx);
      },
      (peer) => `{"peer":${JSON.stringify(peer)}}`,
    );
    engine.on<number>(
      BUGGIFY_RESTART,
      (ev) => {
        const slot = this.slots.get(ev.target);
        const fact = this.buggifyFacts.get(ev.target);
        this.buggifyFacts.delete(ev.target);
        if (fact) env.observe('', { kind: 'fault.end', ...fact });
        // Only the incarnation BUGGIFY took down: a crash fault since then owns the node now.
        if (!slot || slot.alive || !slot.buggifyDown || slot.incarnation !== ev.payload) return;
        slot.buggifyDown = false;
        slot.alive = true;
        slot.incarnation++;
        slot.node.restart(slot.ctx);
      },
      (inc) => `{"inc":${inc}}`,
    );
    env.network.onReconnect = (a, b) => {
      if (this.slots.get(a)?.node.onConnect !== undefined && this.slots.has(b))
        engine.at(engine.nowMs(), NET_CONNECT, a, b);
    };
  }

  /** Give a node of this domain its slot and ports. */
  add(node: SimNode<NodeMessage, AnyTimer>): void {
    const { engine, network } = this.env;
    const id = node.id;
    assert(domainOf(id) === this.env.domain, 'a node lives in its own domain', { id, domain: this.env.domain });
    const slot: NodeSlot = {
      node,
      alive: true,
      paused: false,
      pausedUntilMs: 0,
      incarnation: 0,
      skewMs: 0,
      rng: this.env.rng.fork(`node:${id}`),
      ctx: undefined as unknown as NodeContext<NodeMessage, AnyTimer>,
      buggify: this.env.buggify ? this.env.rng.fork(`buggify:${id}`) : null,
      buggifyDown: false,
    };
    const late = this.env.buggify?.lateTimers;
    slot.ctx = {
      nowMs: () => engine.nowMs() + this.env.epochMs + slot.skewMs,
      send: (to, msg) => network.send(id, to, msg),
      broadcast: (to, msg, except) => network.broadcast(id, to, msg, except),
      multicast: (to, msg, mask) => network.multicast(id, to, msg, mask),
      setTimer: (afterMs, tag) => {
        let at = engine.nowMs() + Math.max(0, Math.floor(afterMs));
        if (late && slot.buggify?.bool(late.probability)) at += slot.buggify!.int(0, late.maxMs);
        this.scheduleTimer(at, id, { tag, inc: slot.incarnation });
      },
      random: () => slot.rng.float(),
      observe: (o) => this.env.observe(id, o),
    };
    this.slots.set(id, slot);
  }

  has(id: string): boolean {
    return this.slots.has(id);
  }

  /** A node of this domain (faults pause it, skew its clock). */
  get(id: string): NodeSlot {
    const s = this.slots.get(id);
    assert(s !== undefined, 'a fault names a node of this domain', { id, domain: this.env.domain });
    return s;
  }

  /** Start every node, in the order they were added. */
  startAll(): void {
    for (const slot of this.slots.values()) slot.node.start(slot.ctx);
  }

  /** Crash a node, or restart a crashed one. */
  crashOrRestart(id: string, crash: boolean): void {
    const s = this.get(id);
    if (crash && s.buggifyDown) {
      // Already down (BUGGIFY): the crash fault takes it over; its own restart is void now.
      s.buggifyDown = false;
      s.incarnation++;
    } else if (crash) {
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
    const s = this.get(id);
    if (s.alive) {
      s.incarnation++;
      s.node.restart(s.ctx);
    }
  }

  /**
   * BUGGIFY: the node crashes as its timer fires and starts again `downMs` later (0: at once). The
   * oracles see it as a fault of kind `buggify.restart` (records only: a negative index, outside
   * the scenario's faults), so their timing rules excuse it as they excuse a crash.
   *
   * A node that starts polls across at once. Its timer was noted as a request trigger when it was
   * set, but one set inside the current window, for a time inside it, came after the window's
   * promises were made: the node then starts again no earlier than the window lets it send a
   * request (the same moment in both placements: the promises are the scheduler's, not a
   * thread's). Without this, such a restart crashed the run (a guided campaign found it).
   */
  private buggifyRestart(s: NodeSlot, downMs: number): void {
    const id = s.node.id;
    const fact = {
      index: -1 - this.buggifyRestarts++,
      fault: 'buggify.restart',
      detail: id,
      permanent: false,
      atHeight: null,
    };
    this.env.observe('', { kind: 'fault.start', ...fact });
    s.node.crash();
    s.alive = false;
    s.incarnation++;
    const nowMs = this.env.engine.nowMs();
    const upAtMs = Math.max(nowMs + downMs, this.env.boundary.requestFloor());
    if (upAtMs === nowMs) {
      s.alive = true;
      s.incarnation++;
      s.node.restart(s.ctx);
      this.env.observe('', { kind: 'fault.end', ...fact });
      return;
    }
    s.buggifyDown = true;
    this.buggifyFacts.set(id, fact);
    this.env.engine.at(upAtMs, BUGGIFY_RESTART, id, s.incarnation);
    this.env.boundary.noteRequestTrigger(upAtMs);
  }

  private scheduleTimer(timeMs: number, target: string, payload: TimerPayload): void {
    this.env.engine.at(timeMs, 'node.timer', target, payload);
    // A BUGGIFY restart may fire on any timer of its nodes, and a node that starts polls across.
    if (this.env.boundary.isRequestTimer(payload.tag.kind) || restartsNode(this.env.buggify, target))
      this.env.boundary.noteRequestTrigger(timeMs);
  }
}
