/**
 * A domain's fault bookkeeping: which of the scenario's faults it applies, when each starts and
 * ends (at a time, or armed on a height; see heightTriggers.ts), what each resolved to when it
 * started, and which fired. A fault kind's own file in sim/faults says what starting and ending it
 * does; this file only decides when, and records it.
 */
import { assert } from '../../src/core/errors';
import { type Engine } from '../engine/engine';
import { type FaultSpec, type TriggerChain, applyFault, faultSides } from '../faults/registry';
import { type FaultSite } from '../faults/fault';
import { type DomainName } from './runSetup';
import { type HeightFired, type HeightTriggers, triggerChain } from './heightTriggers';
import { type RunObservation } from '../core/record';
import { type CrossBoundary } from './windowProtocol';

export interface FaultFired {
  kind: string;
  atMs: number;
  detail: string;
  /** For a height-triggered fault: the height reached (the first to reach it) and the node that reached it. */
  atHeight?: HeightFired;
}

/** A fired fault with its index in the scenario (for the canonical merge across domains). */
export interface IndexedFaultFired extends FaultFired {
  index: number;
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

/** What the fault book needs from its domain. */
export interface FaultBookEnv {
  domain: DomainName;
  engine: Engine;
  /** Fault starts and ends may send across (a restart, an unpause): they are request triggers. */
  boundary: CrossBoundary;
  heights: HeightTriggers;
  record(node: string, obs: RunObservation): void;
  /** The domain as a fault sees it. */
  site(): FaultSite;
}

type FaultPhaseName = 'start' | 'end';

export class FaultBook {
  /** The faults this domain owns that started, in the order they started. */
  readonly fired: IndexedFaultFired[] = [];
  private readonly resolvedAtStart = new Map<number, unknown>();

  constructor(private readonly env: FaultBookEnv) {
    env.engine.on<{ fault: FaultSpec; index: number; phase: FaultPhaseName }>(
      'fault',
      (ev) => this.startOrEnd(ev.payload.fault, ev.payload.index, ev.payload.phase),
      (p) => `{"i":${p.index},"k":"${p.fault.kind}","p":"${p.phase}"}`,
    );
  }

  /** Schedule (or arm, for a height trigger) the scenario's faults this domain applies. */
  plan(faults: readonly FaultSpec[]): void {
    faults.forEach((f, i) => {
      const { applies } = faultDomains(f);
      if (!applies.has(this.env.domain)) return;
      const chain = triggerChain(f);
      if (chain === null) {
        this.schedule(f, i, f.atMs ?? 0);
        return;
      }
      // The scenario decoder only lets a height or round trigger start a fault in the domain that
      // watches the chain (rounds are the service's).
      assert(
        applies.size === 1 && TRIGGER_DOMAIN[chain] === this.env.domain,
        'a height or round trigger fires a fault of its own domain',
        { index: i, kind: f.kind, chain },
      );
      this.env.heights.arm(f, i);
    });
  }

  /** Queue a fault's start at `atMs` and its end `for` later; both may send across (a restart, an unpause). */
  schedule(f: FaultSpec, index: number, atMs: number): void {
    this.env.engine.at(atMs, 'fault', '', { fault: f, index, phase: 'start' });
    this.env.boundary.noteRequestTrigger(atMs);
    if (f.forMs !== undefined) {
      this.env.engine.at(atMs + f.forMs, 'fault', '', { fault: f, index, phase: 'end' });
      this.env.boundary.noteRequestTrigger(atMs + f.forMs);
    }
  }

  /**
   * A fault from outside the scenario, starting at `atMs` (after `ranToMs`, the windows already
   * run), scheduled here if this domain applies it.
   */
  inject(f: FaultSpec, index: number, atMs: number, ranToMs: number): void {
    assert(f.atHeight === undefined && f.atRound === undefined, 'an injected fault starts at a time', {
      index,
      kind: f.kind,
    });
    assert(atMs > ranToMs, 'an injected fault starts after the windows already run', {
      domain: this.env.domain,
      atMs,
      ranToMs,
    });
    if (!faultDomains(f).applies.has(this.env.domain)) return;
    this.schedule({ ...f, atMs }, index, atMs);
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

  /**
   * Start or end a fault here (its kind's file in sim/faults says how); the domain that owns it
   * records it, with the height that fired it.
   */
  private startOrEnd(f: FaultSpec, index: number, phase: FaultPhaseName): void {
    const start = phase === 'start';
    const detail = applyFault(f, this.env.site(), { start, index });
    if (faultDomains(f).owner !== this.env.domain) return;
    const by = this.env.heights.firedByOf(index);
    const d = by
      ? `${detail}; at ${by.chain} height ${by.height}${by.round !== undefined ? ` round ${by.round}` : ''} (${by.node})`
      : detail;
    if (start)
      this.fired.push({
        kind: f.kind,
        atMs: this.env.engine.nowMs(),
        detail: d,
        index,
        ...(by ? { atHeight: by } : {}),
      });
    this.env.record('', {
      kind: start ? 'fault.start' : 'fault.end',
      index,
      fault: f.kind,
      detail: d,
      permanent: f.forMs === undefined,
      atHeight: by ?? null,
    });
  }
}
