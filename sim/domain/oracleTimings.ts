/**
 * The timings a run's nodes are built with, for the progress oracles' bounds: the service nodes'
 * consensus timeouts, commit pause and gossip period (sim/domain/mainDomain.ts builds them from the same
 * defaults and the scenario's commit timeout) and the sidechain nodes' service poll
 * (sim/domain/sidechainDomain.ts).
 */
import { DEFAULT_SERVICE_NODE_CONFIG } from '../../src/node/service/config';
import { DEFAULT_SIDECHAIN_NODE_CONFIG } from '../../src/node/sidechain/config';
import { type OracleTimings } from '../oracles/timings';
import { type Scenario } from '../scenario/scenario';

export function oracleTimings(scenario: Scenario): OracleTimings {
  const t = DEFAULT_SERVICE_NODE_CONFIG.timeouts;
  return {
    proposeMs: t.proposeMs,
    proposeDeltaMs: t.proposeDeltaMs,
    prevoteMs: t.prevoteMs,
    prevoteDeltaMs: t.prevoteDeltaMs,
    precommitMs: t.precommitMs,
    precommitDeltaMs: t.precommitDeltaMs,
    commitTimeoutMs: scenario.params.commitTimeoutMs,
    gossipMs: DEFAULT_SERVICE_NODE_CONFIG.gossipMs,
    sidechainServicePollMs: DEFAULT_SIDECHAIN_NODE_CONFIG.servicePollMs,
  };
}
