/**
 * A domain: a set of nodes on their own engine, trace, network and rng streams, advanced window by
 * window. Both placements drive domains through the same calls (`begin`, `runWindow`), so a domain
 * computes the same thing whichever thread it lives in. The class only composes its parts:
 *
 *  - nodeSlots.ts: the nodes, their ports and lifecycle (crash, restart, pause, skew);
 *  - recordBuffer.ts: the records and trace lines, handed over window by window;
 *  - heightTriggers.ts: faults armed on a chain height;
 *  - faultBook.ts: when the faults start and end, and which fired;
 *  - windowProtocol.ts: what crosses the barrier (messages, promises, lookahead);
 *  - sampleClock.ts: when the plot samples are taken.
 */
import { type Hex } from '../../src/core/bytes';
import { InvariantError, assert } from '../../src/core/errors';
import { type SimNode } from '../../src/node/ports';
import { type NodeMessage } from '../../src/node/messages';
import { Engine } from '../engine/engine';
import { type Rng } from '../env/rng';
import { Network, NET_DELIVER, type NetworkStats } from '../env/network';
import { TraceRecorder } from '../trace/traceRecorder';
import { type RunObservation, type RunRecord } from '../core/record';
import { type Scenario } from '../scenario/scenario';
import { type FaultSpec } from '../faults/registry';
import { type FaultSite } from '../faults/fault';
import { setPlant } from '../../src/core/plants';
import { type RunSetup, type DomainName, domainOf } from './runSetup';
import { type AnyTimer, type NodeSlot, NodeSlots, describeDelivery } from './nodeSlots';
import { RecordBuffer } from './recordBuffer';
import { HeightTriggers } from './heightTriggers';
import { FaultBook, type IndexedFaultFired } from './faultBook';
import {
  CrossBoundary,
  type CrossMessage,
  type DomainStatus,
  type WindowEnd,
  type WindowRequest,
  type WindowResult,
} from './windowProtocol';
import { SampleClock } from './sampleClock';

export interface DomainOptions {
  /** The domain's trace recorder (default: a new one). */
  trace?: TraceRecorder;
  /** Buffer every trace line (JSONL) and hand it over with each window result. */
  traceLines?: boolean;
  /** Run length and sample spacing, for the plot samples the domain takes as it passes them. */
  untilMs: number;
  sampleEveryMs: number;
}

export abstract class Domain {
  readonly engine: Engine;
  readonly trace: TraceRecorder;
  readonly rng: Rng;
  readonly network: Network;
  private readonly nodes: NodeSlots;
  private readonly log: RecordBuffer;
  private readonly heights = new HeightTriggers();
  private readonly faults: FaultBook;
  private readonly boundary: CrossBoundary;
  private readonly sampleClock: SampleClock;
  private ranToMs = -1;

  constructor(
    readonly name: DomainName,
    readonly scenario: Scenario,
    readonly seed: number,
    readonly setup: RunSetup,
    opts: DomainOptions,
  ) {
    // A planted bug (test builds) is switched on in every thread that runs a domain of the run.
    setPlant(scenario.plant ?? null);
    this.trace = opts.trace ?? new TraceRecorder();
    this.log = new RecordBuffer(this.trace, opts.traceLines === true);
    this.engine = new Engine(this.trace);
    this.rng = setup.rng;
    this.boundary = new CrossBoundary(name, () => this.engine.nowMs());
    this.sampleClock = new SampleClock(opts.untilMs, opts.sampleEveryMs);
    this.network = new Network(
      this.engine,
      this.rng.fork('net'),
      scenario.network,
      {
        isLocal: (node) => domainOf(node) === name,
        minLatencyMs: setup.crossLatencyMs,
        post: (m) => this.boundary.post(m as CrossMessage),
      },
      describeDelivery as (msg: unknown, from: string) => string,
    );
    const { engine, network, rng, boundary, heights } = this;
    const record = (node: string, obs: RunObservation) => this.record(node, obs);
    this.nodes = new NodeSlots({
      domain: name,
      engine,
      network,
      rng,
      epochMs: scenario.epochMs,
      boundary,
      observe: record,
      ...(scenario.buggify ? { buggify: scenario.buggify } : {}),
    });
    this.faults = new FaultBook({ domain: name, engine, boundary, heights, record, site: () => this.faultSite() });
  }

  /** The records this domain made so far that a run keeps (sim/core/keptRecords.ts), in the order made. */
  get records(): RunRecord[] {
    return this.log.kept;
  }

  /** The faults this domain owns that started, in the order they started. */
  get faultsFired(): IndexedFaultFired[] {
    return this.faults.fired;
  }

  protected addNode(node: SimNode<NodeMessage, AnyTimer>): void {
    this.nodes.add(node);
  }

  /** A node of this domain (faults pause it, skew its clock). */
  slot(id: string): NodeSlot {
    return this.nodes.get(id);
  }

  /** Crash a node, or restart a crashed one (faults). */
  crashOrRestart(id: string, crash: boolean): void {
    this.nodes.crashOrRestart(id, crash);
  }

  /** Re-plan a live node at once (its pending timers go stale). */
  restartNow(id: string): void {
    this.nodes.restartNow(id);
  }

  /** What a fault resolved to when it started (see FaultBook.resolveAtStart). */
  resolveAtStart<T>(index: number, start: boolean, resolve: () => T): T {
    return this.faults.resolveAtStart(index, start, resolve);
  }

  /** A record (observation) of a node, or of the domain (`''`); a height it reports may fire a fault. */
  record(node: string, obs: RunObservation): void {
    const t = this.engine.nowMs();
    this.log.add(t, node, obs);
    for (const { fault, index } of this.heights.watch(node, obs, t)) this.faults.schedule(fault, index, t);
  }

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
      return { status: this.status(), end: { kind: 'crash', message: this.crashMessage(e, false) } };
    }
  }

  /** Schedule this domain's faults and workload and start its nodes; takes the sample at 0. */
  start(): void {
    this.faults.plan(this.scenario.faults);
    this.scheduleWorkload();
    this.nodes.startAll();
    this.takeSample(0);
  }

  protected abstract scheduleWorkload(): void;

  /** Record the plot sample at virtual time `timeMs` (all events up to it delivered). */
  protected abstract takeSample(timeMs: number): void;

  /** This domain as a fault sees it (sim/faults: the main domain or the sidechain domain). */
  protected abstract faultSite(): FaultSite;

  /**
   * Deliver a message from outside the simulation (a devnet's REST client or operator console)
   * between two windows, at the first millisecond after the domain's last window. It bypasses the
   * network model: the outside world reaches the node directly. A devnet replaying its journal
   * makes the same call between the same two windows, so the run stays deterministic.
   */
  deliverExternal(to: string, msg: NodeMessage): number {
    assert(domainOf(to) === this.name && this.nodes.has(to), 'an external message goes to a node of this domain', {
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
    this.faults.inject(f, index, atMs, this.ranToMs);
  }

  status(): DomainStatus {
    const next = this.boundary.nextTriggers(this.ranToMs);
    // An armed height trigger may fire at any moment after this window (see requestBoundMs).
    const nextRequestMs = Math.min(next.requestMs, this.heights.requestBoundMs(this.ranToMs));
    return {
      ranToMs: this.ranToMs,
      nextRequestMs,
      nextSendMs: Math.min(nextRequestMs, next.answerMs),
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
      this.boundary.noteInbound(m);
    }
    this.boundary.promise(req);
    let end: WindowEnd | null = null;
    try {
      end = this.runEngineTo(req.untilMs, req.maxEvents);
      if (end === null) this.ranToMs = req.untilMs;
    } catch (e) {
      if (!(e instanceof InvariantError)) throw e;
      end = { kind: 'crash', message: this.crashMessage(e, true) };
    }
    if (end !== null) this.ranToMs = this.engine.nowMs();
    const outbound = this.boundary.takeOutbound();
    return { ...this.status(), outbound, ...this.log.takeWindow(), end };
  }

  /** Deliver events up to `untilMs`, taking the samples on the way; how the window ended early, or null. */
  private runEngineTo(untilMs: number, maxEvents: number): WindowEnd | null {
    let budget = maxEvents;
    const runTo = (toMs: number): WindowEnd | null => {
      const v = this.engine.run({ untilMs: toMs, maxEvents: budget });
      budget -= v.events;
      if (v.runaway)
        return {
          kind: 'runaway',
          message: `runaway: more than ${this.scenario.maxEvents} events by ${this.engine.nowMs()} ms of virtual time (max-events bound, ${this.name} domain)`,
        };
      return v.reason === 'stopped' ? { kind: 'stopped', message: v.message } : null;
    };
    for (
      let t = this.sampleClock.dueIn(this.ranToMs, untilMs);
      t !== null;
      t = this.sampleClock.dueIn(this.ranToMs, untilMs)
    ) {
      const end = runTo(t);
      if (end !== null) return end;
      this.takeSample(t);
      this.sampleClock.advance();
    }
    return runTo(untilMs);
  }

  private crashMessage(e: InvariantError, inWindow: boolean): string {
    const at = inWindow ? `, at ${this.engine.nowMs()} ms` : '';
    return `${e.message} [scenario ${this.scenario.name}, seed ${this.seed}${at}, ${this.name} domain]`;
  }

  traceDigest(): Hex {
    return this.trace.digest();
  }

  networkStats(): NetworkStats {
    return { ...this.network.stats };
  }
}
