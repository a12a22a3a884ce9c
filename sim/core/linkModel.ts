/**
 * How a link between two nodes behaves: a latency range, loss, duplication and extra delay
 * (reordering). Scenario files give one for the network and may override it per link or per node;
 * the simulated network (sim/env/network.ts) draws each delivery from it.
 */
export interface LinkModel {
  /** Latency is uniform in [minMs, maxMs]. */
  latencyMinMs: number;
  latencyMaxMs: number;
  /** Probability a message is lost. */
  loss: number;
  /** Probability a message is delivered twice. */
  duplicate: number;
  /** Probability a message gets extra delay (reordering), uniform in [0, reorderMaxMs]. */
  reorder: number;
  reorderMaxMs: number;
}

export const DEFAULT_LINK: LinkModel = {
  latencyMinMs: 20,
  latencyMaxMs: 80,
  loss: 0,
  duplicate: 0,
  reorder: 0,
  reorderMaxMs: 0,
};
