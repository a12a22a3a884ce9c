/**
 * Height and round triggers: a fault with `atHeight` is armed when its domain starts and fires at
 * the first record of a live node that it committed a service block (`service.commit`) or imported
 * a sidechain block (`sidechain.imported`) at or past the trigger's height. A fault with `atRound`
 * (service side only) fires at the first `consensus.round` record, from its `at` on, of a round at
 * least `atRound`. The domain starts it at that virtual millisecond, as an event after those
 * already queued for it (never inside the node's handler), and ends it `for` later.
 */
import { type FaultSpec, type TriggerChain, faultStartReplansSidechainNode } from '../faults/registry';
import { type RunObservation } from '../core/record';

/** What fired a height-triggered fault: the height reached (the first to reach it) and the node that reached it. */
export interface HeightFired {
  chain: TriggerChain;
  height: number;
  node: string;
  /** For a round trigger: the round the node entered. */
  round?: number;
}

export interface ArmedFault {
  fault: FaultSpec;
  /** The fault's index in the scenario. */
  index: number;
}

/** The chain height a record reports, for the records a trigger watches (null for the rest). */
export function heightOf(obs: RunObservation): { chain: TriggerChain; height: number } | null {
  if (obs.kind === 'service.commit') return { chain: 'service', height: Number(obs.height) };
  if (obs.kind === 'sidechain.imported') return { chain: 'sidechain', height: Number(obs.block.number) };
  return null;
}

/** The chain whose records fire a triggered fault (rounds are the service's); null for a time. */
export function triggerChain(f: FaultSpec): TriggerChain | null {
  if (f.atRound !== undefined) return 'service';
  return f.atHeight?.chain ?? null;
}

export class HeightTriggers {
  /** Armed faults that have not fired yet, in scenario order. */
  private armed: ArmedFault[] = [];
  private readonly firedBy = new Map<number, HeightFired>();

  arm(fault: FaultSpec, index: number): void {
    this.armed.push({ fault, index });
  }

  /** Whether a fault still waits for its height (records need watching). */
  get anyArmed(): boolean {
    return this.armed.length > 0;
  }

  /**
   * A node made a record at `nowMs`: the armed faults whose height or round it reaches fire
   * (returned in scenario order, disarmed, with what fired them kept for `firedByOf`).
   */
  watch(node: string, obs: RunObservation, nowMs: number): ArmedFault[] {
    if (this.armed.length === 0) return [];
    const reached = heightOf(obs);
    const entered = obs.kind === 'consensus.round' ? obs : null;
    if (reached === null && entered === null) return [];
    const fired: ArmedFault[] = [];
    this.armed = this.armed.filter((a) => {
      const f = a.fault;
      if (f.atRound !== undefined) {
        if (entered === null || entered.round < f.atRound || nowMs < (f.atMs ?? 0)) return true;
        this.firedBy.set(a.index, { chain: 'service', height: Number(entered.height), node, round: entered.round });
      } else {
        const at = f.atHeight!;
        if (reached === null || at.chain !== reached.chain || reached.height < at.height) return true;
        this.firedBy.set(a.index, { chain: reached.chain, height: reached.height, node });
      }
      fired.push(a);
      return false;
    });
    return fired;
  }

  /** What fired the fault of this scenario index (undefined: it was no height trigger, or has not fired). */
  firedByOf(index: number): HeightFired | undefined {
    return this.firedBy.get(index);
  }

  /**
   * The earliest time an armed trigger may make the domain send a request across, once every
   * event up to `ranToMs` ran: it may fire at any moment after that, so a start that may send
   * across (a producer fault re-plans its sidechain node, which polls at once) bounds it at
   * `ranToMs + 1`; otherwise only its end may, `for` after it fires. Infinity when none is armed.
   */
  requestBoundMs(ranToMs: number): number {
    let bound = Infinity;
    for (const { fault: f } of this.armed)
      bound = Math.min(bound, ranToMs + 1 + (faultStartReplansSidechainNode(f) ? 0 : (f.forMs ?? Infinity)));
    return bound;
  }
}
