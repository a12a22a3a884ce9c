/**
 * `lockstep/sim`: the simulator for scripts and notebooks. Load a scenario (a name under the
 * package's scenarios/ or a JSON file), change what you like, run it with a seed, read the result:
 *
 *   import { loadScenario, runScenario } from 'lockstep/sim';
 *   const { scenario } = loadScenario('default');
 *   const r = runScenario({ ...scenario, crypto: 'fast' }, { seed: 7, untilMs: 60_000 });
 *   console.log(r.verdict, r.traceHash, r.counts);
 *
 * Property tests over whole networks: `arbitraries.scenario(...)` draws scenarios (fault schedules,
 * network, workload, parameters) that shrink to small ones, and `assertNetworkProperty` runs them
 * and writes the smallest failing one as a scenario file (docs/PROPERTIES.md).
 *
 * These names are a public contract: keep the list short and stable, one line per module, so a
 * module can change inside without changing what a script imports.
 */
export { loadScenario } from './scenario/load';
export { decodeScenario } from './scenario/decodeScenario';
export { encodeScenario } from './scenario/encodeScenario';
export type {
  Scenario,
  ScenarioParams,
  FaultSpec,
  FaultKind,
  WorkloadSpec,
  Expectations,
  Verdict,
} from './scenario/scenario';
export { runScenario, runScenarioAsync } from './run/run';
export type { RunOptions, RunResult, Placement, Samples } from './run/run';
export { swarmScenario } from './campaign/swarm';
export { OracleSuite } from './oracles/suite';
export { Oracle } from './oracles/oracle';
export type { OracleClass, Violation } from './oracles/oracle';
export type { Observation } from '../src/node/observations';
export { ServiceSafetyOracle } from './oracles/serviceSafety';
export { AccountsOracle, SupplyOracle, TopupIdempotencyOracle } from './oracles/accounts';
export { BftQuorumOracle, BftLockOracle } from './oracles/bft';
export { StateSyncOracle, StateSyncLatencyOracle } from './oracles/stateSync';
export { SpanOracle } from './oracles/spans';
export { ProducerScheduleOracle, BackupStepInOracle } from './oracles/schedule';
export { CheckpointOracle, CheckpointRootOracle } from './oracles/checkpoints';
export { ForkChoiceOracle, ConvergenceOracle } from './oracles/forkChoice';
export { LivenessOracle } from './oracles/liveness';
export * as arbitraries from './testing/arbitraries';
export {
  assertNetworkProperty,
  checkNetworkProperty,
  counterexampleFile,
  propertyDurationMs,
  propertyRuns,
  runToViolation,
} from './testing/networkProperty';
export type { MetricBounds, NetworkPropertyOptions, NetworkPropertyResult } from './testing/networkProperty';
export { computeMetrics, METRICS } from './metrics/metrics';
export type { MetricDef, MetricUnit } from './metrics/metrics';
