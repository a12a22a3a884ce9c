/** `pause`: a node stops handling anything (its timers wait) until the fault ends; nothing is lost. */
import { type FaultDef, type FaultTiming, oneNodeFault } from './fault';
import { serviceSidechainOrParent } from './crash';

export type PauseFault = FaultTiming & {
  kind: 'pause';
  node: string;
};

export const pause: FaultDef<PauseFault> = {
  kind: 'pause',
  summary: 'a node freezes (messages to it are lost, its timers wait) until the fault ends',
  ...oneNodeFault<PauseFault>(),
  apply(f, site, { start }) {
    const d = site.domain;
    const s = d.slot(f.node);
    s.paused = start;
    // Until the end event (a height-triggered pause starts when it fires, not at a fixed time).
    if (start) s.pausedUntilMs = f.forMs !== undefined ? d.engine.nowMs() + f.forMs : Number.MAX_SAFE_INTEGER;
    return f.node;
  },
  swarm: { draw: (rng, { validator: v }) => ({ node: serviceSidechainOrParent(rng, v) }) },
};
