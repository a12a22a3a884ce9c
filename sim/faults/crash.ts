/** `crash`: a node stops (a service node loses everything but its disk; a sidechain node keeps its chain) and restarts at the end. */
import { type FaultDef, type FaultTiming, oneNodeFault } from './fault';

export type CrashFault = FaultTiming & {
  kind: 'crash';
  /** A node id (`svc-3`, `sc-2`, `parent`). */
  node: string;
};

export const crash: FaultDef<CrashFault> = {
  kind: 'crash',
  summary: 'a node stops and restarts when the fault ends',
  ...oneNodeFault<CrashFault>(),
  apply(f, site, { start }) {
    site.domain.crashOrRestart(f.node, start);
    return f.node;
  },
  swarm: { draw: (rng, { validator: v }) => ({ node: serviceSidechainOrParent(rng, v) }) },
};

/** A swarm target: the validator's service node (60%), its sidechain node, or the parent chain. */
export function serviceSidechainOrParent(rng: { bool(p?: number): boolean }, v: number): string {
  return rng.bool(0.6) ? `svc-${v}` : rng.bool(0.8) ? `sc-${v}` : 'parent';
}
