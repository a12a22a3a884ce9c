/**
 * The window protocol: what a domain promises and hands over at each barrier. Both placements drive
 * a domain through the same calls, so these shapes are all that crosses threads:
 *
 *  - messages to nodes of another domain leave through the network's boundary with their delivery
 *    time (>= send time + L) and are handed over at the barrier (`WindowResult.outbound`);
 *  - messages from another domain arrive at the barrier (`WindowRequest.inbound`, already in the
 *    canonical order) and are scheduled at their delivery time, which is always past the window;
 *  - the domain reports how far it ran and the earliest time it may next send across (its
 *    lookahead, see crossTriggers.ts), and the scheduler (windowScheduler.ts) picks the next window.
 *
 * `CrossBoundary` is a domain's side of it: the outbox, the promised send floors (a send before
 * them is a bug in the lookahead table and crashes the run), and the queued events that may send.
 */
import { assert } from '../../src/core/errors';
import { type NodeMessage } from '../../src/node/messages';
import { type CrossDomainMessage } from '../env/network';
import { EventQueue } from '../engine/eventQueue';
import { type DomainName, domainOf } from './runSetup';
import { CROSS_SEND_TRIGGERS, type CrossSendTriggers, isCrossRequest } from './crossTriggers';
import { type RunRecord } from '../core/record';

export type CrossMessage = CrossDomainMessage<NodeMessage>;

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

type TriggerTime = { timeMs: number; seq: number };

/** One domain's side of the barrier protocol. */
export class CrossBoundary {
  private outbox: CrossMessage[] = [];
  private readonly triggers: CrossSendTriggers;
  /** Times of queued events that may send across: requests (poll timers, faults) and answers (queued requests). Stale ones pop at barriers. */
  private readonly requestTimes = new EventQueue<TriggerTime>();
  private readonly answerTimes = new EventQueue<TriggerTime>();
  private triggerSeq = 0;
  private sendFloorMs = 0;
  private requestFloorMs = 0;

  constructor(
    private readonly name: DomainName,
    private readonly nowMs: () => number,
  ) {
    this.triggers = CROSS_SEND_TRIGGERS[name];
  }

  /** The network hands over a message for the other domain: it must keep the window's promises. */
  post(m: CrossMessage): void {
    const kind = m.msg.kind;
    const request = isCrossRequest(domainOf(m.to), kind);
    const floor = request ? Math.max(this.sendFloorMs, this.requestFloorMs) : this.sendFloorMs;
    assert(
      this.nowMs() >= floor,
      `cross-domain ${request ? 'request' : 'answer'} before the ${this.name} domain's promised horizon: add the event that caused it to sim/domain/crossTriggers.ts`,
      { from: m.from, to: m.to, kind, nowMs: this.nowMs(), promisedMs: floor },
    );
    this.outbox.push(m);
  }

  /** The earliest time this window lets a node of the domain send a request across. */
  requestFloor(): number {
    return Math.max(this.sendFloorMs, this.requestFloorMs);
  }

  /** Whether a timer of this kind may send a request across when it fires. */
  isRequestTimer(kind: string): boolean {
    return this.triggers.requestTimers.has(kind);
  }

  /** An event that may send a request across is queued at `timeMs`. */
  noteRequestTrigger(timeMs: number): void {
    this.requestTimes.push({ timeMs, seq: this.triggerSeq++ });
  }

  /**
   * A message from the other domain is queued for delivery; a request among them will be answered
   * across at its delivery time.
   */
  noteInbound(m: CrossMessage): void {
    if (this.triggers.requests.has(m.msg.kind)) this.answerTimes.push({ timeMs: m.deliverAt, seq: this.triggerSeq++ });
  }

  /** The promises of the window about to run. */
  promise(req: Pick<WindowRequest, 'sendFloorMs' | 'requestFloorMs'>): void {
    this.sendFloorMs = req.sendFloorMs;
    this.requestFloorMs = req.requestFloorMs;
  }

  /** What the window sent across, in send order (and an empty outbox for the next one). */
  takeOutbound(): CrossMessage[] {
    const out = this.outbox;
    this.outbox = [];
    return out;
  }

  /** The earliest queued request and answer triggers past `ranToMs` (Infinity: none). */
  nextTriggers(ranToMs: number): { requestMs: number; answerMs: number } {
    const next = (q: EventQueue<TriggerTime>): number => {
      for (let top = q.peek(); top !== undefined && top.timeMs <= ranToMs; top = q.peek()) q.pop();
      return q.peek()?.timeMs ?? Infinity;
    };
    return { requestMs: next(this.requestTimes), answerMs: next(this.answerTimes) };
  }
}
