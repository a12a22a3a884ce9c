/**
 * The conservative time windows between the main and the sidechain domain.
 *
 * L is the minimum cross-domain latency (runSetup.crossDomainLatencyMs): nothing sent across at
 * time s arrives before s + L. At a barrier each domain D reports how far it ran and two times from
 * its queue (crossTriggers.ts):
 *
 *     R_D  the earliest time it may send a request across (its next poll timer or fault),
 *     A_D  the earliest time it may send anything across: R_D, or an answer to a queued request.
 *
 * Requests do not depend on the other domain; answers depend on its requests, which arrive at
 * least L after they are sent. So D sends nothing across before
 *
 *     A'_D = min(A_D, R_other + L)
 *
 * (requests handed over at this barrier count in A_D at their delivery time), nothing from D
 * arrives before A'_D + L, and each domain runs, on its own, every event up to its horizon
 *
 *     h_D = min(untilMs, A'_other + L - 1)
 *
 * under the promises "no send before A'_D, no request before R_D", which the domain's network
 * checks at every cross-domain send. At the barrier the messages sent in the window are sorted in
 * the canonical order (deliverAt, source node id, per-source seq, copy) and handed to the receiving
 * domain, which schedules them at their delivery time, always after its horizon. Then the next
 * window.
 *
 * This is the rule "both run [t, t+L) from the earliest next event t, skipping empty stretches",
 * with the lookahead the RPC pattern allows: a stretch without polls in flight passes in one window
 * however busy each domain is inside, so a simulated hour takes a few thousand barriers instead of
 * up to 180,000. Horizons only grow, and everything here is a pure function of what the domains
 * report, so both placements run the same windows, hence the same events in the same order.
 */
import { assert } from '../../src/core/errors';
import { CROSS_SEND_TRIGGERS, type CrossSendTriggers } from './crossTriggers';
import {
  type CrossMessage,
  type DomainStatus,
  type WindowEnd,
  type WindowRequest,
  type WindowResult,
} from './windowProtocol';

export interface WindowPlan {
  main: WindowRequest;
  sidechain: WindowRequest;
}

export interface BarrierOutcome {
  /** The first abnormal end (the main domain's first when both end in one window). */
  end: (WindowEnd & { domain: 'main' | 'sidechain' }) | null;
}

/** The canonical order of cross-domain messages at a barrier. */
export function compareCrossMessages(a: CrossMessage, b: CrossMessage): number {
  if (a.deliverAt !== b.deliverAt) return a.deliverAt - b.deliverAt;
  if (a.from !== b.from) return a.from < b.from ? -1 : 1;
  if (a.seq !== b.seq) return a.seq - b.seq;
  return a.copy - b.copy;
}

export class WindowScheduler {
  /** Barriers passed (windows run). */
  barriers = 0;
  /** Cross-domain messages exchanged. */
  exchanged = 0;
  private main: DomainStatus;
  private sidechain: DomainStatus;
  private toMain: CrossMessage[] = [];
  private toSidechain: CrossMessage[] = [];

  constructor(
    readonly crossLatencyMs: number,
    readonly untilMs: number,
    readonly maxEvents: number,
    main: DomainStatus,
    sidechain: DomainStatus,
  ) {
    this.main = main;
    this.sidechain = sidechain;
  }

  get events(): number {
    return this.main.events + this.sidechain.events;
  }

  /** How far both domains have run (the run's simulated time so far). */
  get ranToMs(): number {
    return Math.max(0, Math.min(this.main.ranToMs, this.sidechain.ranToMs));
  }

  /** The next window, or null when both domains have reached `untilMs`. */
  next(): WindowPlan | null {
    const plan = this.plan();
    if (plan === null) return null;
    this.toMain = [];
    this.toSidechain = [];
    return plan;
  }

  /**
   * How far the run will have run after the next window (the lesser of the two horizons), or null
   * when there is none: a devnet looks ahead so that it can stop at the last barrier before a time.
   * A pure look: it changes nothing.
   */
  peekRanToMs(): number | null {
    const plan = this.plan();
    return plan === null ? null : Math.min(plan.main.untilMs, plan.sidechain.untilMs);
  }

  /**
   * Take the domains' statuses again between two windows: input from outside the simulation (a
   * devnet's injected fault) may have queued events that send across, which the next window's
   * promises must count.
   */
  refresh(main: DomainStatus, sidechain: DomainStatus): void {
    this.main = { ...main };
    this.sidechain = { ...sidechain };
  }

  private plan(): WindowPlan | null {
    const m = this.main;
    const s = this.sidechain;
    if (m.ranToMs >= this.untilMs && s.ranToMs >= this.untilMs) return null;
    const L = this.crossLatencyMs;
    // Requests handed over at this barrier are answered when they arrive.
    const aMain = Math.min(m.nextSendMs, firstRequest(this.toMain, CROSS_SEND_TRIGGERS.main));
    const aSidechain = Math.min(s.nextSendMs, firstRequest(this.toSidechain, CROSS_SEND_TRIGGERS.sidechain));
    const mainFloor = Math.min(aMain, s.nextRequestMs + L);
    const sidechainFloor = Math.min(aSidechain, m.nextRequestMs + L);
    const mainSafe = Math.min(this.untilMs, sidechainFloor + L - 1);
    const sidechainSafe = Math.min(this.untilMs, mainFloor + L - 1);
    // Keep the domains abreast: one that may run far ahead stops L past the other's horizon, so
    // the other (waiting for its answers) catches up and the next long stretch runs in both at once.
    const mainUntil = Math.max(m.ranToMs, Math.min(mainSafe, sidechainSafe + L));
    const sidechainUntil = Math.max(s.ranToMs, Math.min(sidechainSafe, mainSafe + L));
    assert(
      mainUntil >= m.ranToMs && sidechainUntil >= s.ranToMs && (mainUntil > m.ranToMs || sidechainUntil > s.ranToMs),
      'windows move forward',
      {
        mainUntil,
        mainRan: m.ranToMs,
        sidechainUntil,
        sidechainRan: s.ranToMs,
      },
    );
    const maxEvents = Math.max(0, this.maxEvents - this.events);
    const plan: WindowPlan = {
      main: {
        inbound: this.toMain,
        untilMs: mainUntil,
        sendFloorMs: mainFloor,
        requestFloorMs: m.nextRequestMs,
        maxEvents,
      },
      sidechain: {
        inbound: this.toSidechain,
        untilMs: sidechainUntil,
        sendFloorMs: sidechainFloor,
        requestFloorMs: s.nextRequestMs,
        maxEvents,
      },
    };
    return plan;
  }

  /** The barrier after a window: take both results, queue their messages in canonical order. */
  complete(main: WindowResult, sidechain: WindowResult): BarrierOutcome {
    this.barriers++;
    this.main = {
      ranToMs: main.ranToMs,
      nextRequestMs: main.nextRequestMs,
      nextSendMs: main.nextSendMs,
      events: main.events,
    };
    this.sidechain = {
      ranToMs: sidechain.ranToMs,
      nextRequestMs: sidechain.nextRequestMs,
      nextSendMs: sidechain.nextSendMs,
      events: sidechain.events,
    };
    this.toSidechain = main.outbound.sort(compareCrossMessages);
    this.toMain = sidechain.outbound.sort(compareCrossMessages);
    this.exchanged += main.outbound.length + sidechain.outbound.length;
    const end = main.end
      ? { ...main.end, domain: 'main' as const }
      : sidechain.end
        ? { ...sidechain.end, domain: 'sidechain' as const }
        : null;
    return { end };
  }
}

/** The delivery time of the first message (in canonical order) that is a request to answer. */
function firstRequest(msgs: readonly CrossMessage[], triggers: CrossSendTriggers): number {
  for (const m of msgs) if (triggers.requests.has(m.msg.kind)) return m.deliverAt;
  return Infinity;
}
