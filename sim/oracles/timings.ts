/**
 * The configured timings the progress oracles derive their bounds from: the consensus timeouts,
 * the pause after a commit, the gossip period, and how often a sidechain node reads its service
 * node. The runner passes the values the nodes of the run are built with (sim/domain/mainDomain.ts,
 * `oracleTimings`); the defaults here are the nodes' defaults, for oracles built without a run.
 * Network latency comes from the scenario's link model.
 */
export interface OracleTimings {
  proposeMs: number;
  proposeDeltaMs: number;
  prevoteMs: number;
  prevoteDeltaMs: number;
  precommitMs: number;
  precommitDeltaMs: number;
  /** Tendermint's timeout_commit: the pause after a commit before the next height starts. */
  commitTimeoutMs: number;
  /** A service node re-sends its votes of the undecided height this often. */
  gossipMs: number;
  /** A sidechain node asks its service node for the next span, records and the last checkpoint this often. */
  sidechainServicePollMs: number;
}

export const DEFAULT_ORACLE_TIMINGS: OracleTimings = {
  proposeMs: 3000,
  proposeDeltaMs: 500,
  prevoteMs: 1000,
  prevoteDeltaMs: 500,
  precommitMs: 1000,
  precommitDeltaMs: 500,
  commitTimeoutMs: 2000,
  gossipMs: 3000,
  sidechainServicePollMs: 4000,
};

/** The network's worst one-way delay for a message that is not lost (latency plus reordering), ms. */
export function worstLatencyMs(link: { latencyMaxMs: number; reorder: number; reorderMaxMs: number }): number {
  return link.latencyMaxMs + (link.reorder > 0 ? link.reorderMaxMs : 0);
}

/**
 * How many tries of a request-and-answer exchange a bound allows: one on a lossless network; on a
 * lossy one, enough that all of them failing (each fails with 1 - (1 - loss)^2) is below 1e-9.
 */
export function triesFor(loss: number): number {
  if (loss <= 0) return 1;
  if (loss >= 1) return Number.POSITIVE_INFINITY;
  const fail = 1 - (1 - loss) * (1 - loss);
  return Math.max(1, Math.ceil(Math.log(1e-9) / Math.log(fail)));
}
