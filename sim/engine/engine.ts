/**
 * The discrete-event engine: a (timeMs, seq)-ordered queue, an integer virtual clock, synchronous
 * handlers looked up by event kind, and a run loop with bounds. Nothing here reads the wall clock;
 * the same schedule always produces the same delivery order.
 */
import { CalendarQueue } from './calendarQueue';
import { VirtualClock } from './clock';
import { TraceRecorder, type TraceText } from '../trace/traceRecorder';
import { assert } from '../../src/core/errors';

export interface SimEvent<P = unknown> {
  readonly timeMs: number;
  readonly seq: number;
  readonly kind: string;
  /** Who handles it: a node id, a link, or '' for the world. */
  readonly target: string;
  /** Who it comes from: the sender of a message, '' for anything else. */
  readonly source: string;
  readonly payload: P;
  /** Set by `cancel`; a cancelled event is dropped without being delivered or traced. */
  cancelled: boolean;
}

/** An event as the engine keeps it: a message delivery's object is reused once delivered. */
interface QueuedSimEvent extends SimEvent {
  timeMs: number;
  seq: number;
  kind: string;
  target: string;
  source: string;
  payload: unknown;
  /** Scheduled by `deliverAfter`: nobody holds it, so it returns to the pool after delivery. */
  pooled: boolean;
  /** A delivery's target and description for the trace, when its sender gave them (else the kind's describer runs). */
  traceTarget: TraceText | null;
  traceData: TraceText | null;
}

export type EventHandler = (event: SimEvent<unknown>, engine: Engine) => void;

/** Describes a payload (and its event's source) for the trace; must be deterministic (canonical JSON or a fixed format). */
export type TraceDescriber = (payload: unknown, source: string) => string | undefined;

export interface RunBounds {
  /** Stop before delivering the first event later than this (virtual ms). */
  untilMs?: number;
  /** A runaway guard: stop after this many delivered events. */
  maxEvents?: number;
  /** A runaway guard: an event scheduled past this virtual time is a runaway. */
  maxTimeMs?: number;
}

export type StopReason = 'drained' | 'until' | 'stopped' | 'max-events' | 'max-time';

export interface RunVerdict {
  readonly reason: StopReason;
  readonly events: number;
  readonly nowMs: number;
  /** True for the runaway guards (max-events, max-time): a bound, not a normal end. */
  readonly runaway: boolean;
  readonly message: string;
}

interface KindEntry {
  readonly kind: string;
  readonly handler: EventHandler;
  readonly describe: TraceDescriber | null;
}

export class Engine {
  readonly clock = new VirtualClock();
  private readonly queue = new CalendarQueue<QueuedSimEvent>();
  /**
   * Delivered message events, ready for reuse. Messages in flight live tens to hundreds of virtual
   * ms, long enough to survive young-generation collections; reusing their events keeps a hundred
   * nodes' traffic from churning the old generation.
   */
  private readonly pool: QueuedSimEvent[] = [];
  private readonly kinds = new Map<string, KindEntry>();
  /** The entry of the last kind delivered (runs of one kind are the rule: message after message). */
  private last: KindEntry | null = null;
  private nextSeq = 0;
  private delivered = 0;
  private stopRequest: string | null = null;

  constructor(readonly trace: TraceRecorder | null = new TraceRecorder()) {}

  nowMs(): number {
    return this.clock.nowMs();
  }

  get eventsDelivered(): number {
    return this.delivered;
  }

  get pending(): number {
    return this.queue.size;
  }

  /** Register the handler of one event kind (and optionally how its payload shows in the trace). */
  on<P>(
    kind: string,
    handler: (event: SimEvent<P>, engine: Engine) => void,
    describe?: (payload: P, source: string) => string | undefined,
  ): void {
    assert(!this.kinds.has(kind), 'one handler per event kind', { kind });
    this.kinds.set(kind, {
      kind,
      handler: handler as EventHandler,
      describe: (describe as TraceDescriber | undefined) ?? null,
    });
  }

  /** A schedule at a fractional or past time: a broken invariant of the caller. */
  private failSchedule(kind: string, timeMs: number): never {
    assert(false, 'events are scheduled at integer times, never in the past', {
      kind,
      timeMs,
      now: this.clock.nowMs(),
    });
  }

  /** Schedule an event at an absolute virtual time (>= now); `source` names a message's sender. */
  at<P>(timeMs: number, kind: string, target: string, payload: P, source = ''): SimEvent<P> {
    // Checked before building the assert's context: this runs for every event.
    if (!(Number.isSafeInteger(timeMs) && timeMs >= this.clock.nowMs())) this.failSchedule(kind, timeMs);
    const ev: QueuedSimEvent = {
      timeMs,
      seq: this.nextSeq++,
      kind,
      target,
      source,
      payload,
      cancelled: false,
      pooled: false,
      traceTarget: null,
      traceData: null,
    };
    this.queue.push(ev);
    return ev as SimEvent<P>;
  }

  /**
   * Schedule a message delivery `delayMs` (integer >= 0) after now, like `after`, but without a
   * handle (it cannot be cancelled): its event object is reused once delivered. `trace`, when
   * given, is what the kind's describer would say of it, with the target's TraceText: a
   * broadcast describes its message once for all copies.
   */
  deliverAfter(
    delayMs: number,
    kind: string,
    target: string,
    payload: unknown,
    source: string,
    traceTarget: TraceText | null = null,
    traceData: TraceText | null = null,
  ): void {
    const timeMs = this.clock.nowMs() + delayMs;
    if (!(Number.isSafeInteger(timeMs) && delayMs >= 0)) this.failSchedule(kind, timeMs);
    let ev = this.pool.pop();
    if (ev === undefined)
      ev = {
        timeMs,
        seq: this.nextSeq++,
        kind,
        target,
        source,
        payload,
        cancelled: false,
        pooled: true,
        traceTarget,
        traceData,
      };
    else {
      ev.timeMs = timeMs;
      ev.seq = this.nextSeq++;
      ev.kind = kind;
      ev.target = target;
      ev.source = source;
      ev.payload = payload;
      ev.traceTarget = traceTarget;
      ev.traceData = traceData;
    }
    this.queue.push(ev);
  }

  /** Schedule an event `delayMs` (integer >= 0) after now. */
  after<P>(delayMs: number, kind: string, target: string, payload: P, source = ''): SimEvent<P> {
    return this.at(this.clock.nowMs() + delayMs, kind, target, payload, source);
  }

  cancel(ev: SimEvent): void {
    assert(!(ev as QueuedSimEvent).pooled, 'a message delivery cannot be cancelled', { kind: ev.kind });
    ev.cancelled = true;
  }

  /** Ask the run loop to stop after the current event (e.g. an oracle saw a violation). */
  stop(reason: string): void {
    this.stopRequest = reason;
  }

  /** Deliver the next event; false when the queue is empty. For step-by-step debugging. */
  step(): boolean {
    for (;;) {
      const ev = this.queue.pop();
      if (ev === undefined) return false;
      if (ev.cancelled) continue;
      this.deliver(ev);
      return true;
    }
  }

  private deliver(ev: QueuedSimEvent): void {
    this.clock.advanceTo(ev.timeMs);
    this.delivered++;
    let k = this.last;
    if (k === null || k.kind !== ev.kind) {
      const found = this.kinds.get(ev.kind);
      assert(found !== undefined, 'no handler for event kind', { kind: ev.kind, timeMs: ev.timeMs });
      k = found;
      this.last = k;
    }
    if (this.trace !== null) {
      if (ev.traceData !== null && ev.traceTarget !== null)
        this.trace.recordDelivery(ev.timeMs, ev.seq, ev.kind, ev.traceTarget, ev.traceData);
      else
        this.trace.recordEvent(
          ev.timeMs,
          ev.seq,
          ev.kind,
          ev.target,
          k.describe !== null ? k.describe(ev.payload, ev.source) : undefined,
        );
    }
    k.handler(ev, this);
    if (ev.pooled) {
      ev.payload = null;
      ev.traceData = null;
      this.pool.push(ev);
    }
  }

  run(bounds: RunBounds = {}): RunVerdict {
    const { untilMs = Infinity, maxEvents = Infinity, maxTimeMs = Infinity } = bounds;
    const startEvents = this.delivered;
    this.stopRequest = null;
    for (;;) {
      const next = this.queue.peek();
      if (next === undefined) return this.verdict('drained', startEvents, 'no more events');
      if (next.cancelled) {
        this.queue.popPeeked(next);
        continue;
      }
      if (next.timeMs > untilMs) {
        this.clock.advanceTo(untilMs);
        return this.verdict('until', startEvents, `reached ${untilMs} ms`);
      }
      if (next.timeMs > maxTimeMs) {
        return this.verdict(
          'max-time',
          startEvents,
          `runaway: an event is scheduled at ${next.timeMs} ms, past the max-time bound of ${maxTimeMs} ms`,
        );
      }
      if (this.delivered - startEvents >= maxEvents) {
        return this.verdict(
          'max-events',
          startEvents,
          `runaway: ${maxEvents} events delivered by ${this.clock.nowMs()} ms of virtual time (max-events bound); ${this.queue.size} still queued`,
        );
      }
      this.queue.popPeeked(next);
      this.deliver(next);
      if (this.stopRequest !== null) return this.verdict('stopped', startEvents, this.stopRequest);
    }
  }

  private verdict(reason: StopReason, startEvents: number, message: string): RunVerdict {
    return {
      reason,
      events: this.delivered - startEvents,
      nowMs: this.clock.nowMs(),
      runaway: reason === 'max-events' || reason === 'max-time',
      message,
    };
  }
}
