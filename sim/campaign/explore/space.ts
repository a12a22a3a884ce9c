/**
 * The explorer's draw space: fresh scenarios that can hold everything the scenario suite uses, so a
 * campaign alone can go wherever the suite goes. Every table below lists the suite's values (and
 * a few around them); `space.test.ts` loads every scenario file and checks that each value, fault
 * kind, trigger, workload item and validator layout it uses is one of these (REACH).
 *
 * Draws stay within what a correct network must survive: the Byzantine kinds act through one
 * coalition holding less than a third of the power, also after the worst the workload can do to
 * the honest validators' power (stake only ever added outside it, at most one honest exit); the
 * remaining faults come and go (a `for` on all but the one-shot setHead and a few permanent
 * producer or sidechain faults, as the suite has them).
 *
 * The faults are drawn in faultDraws.ts, the workload items in workloadDraws.ts.
 *
 * Nothing here knows the code under test: the tables come from the scenario files and the format.
 */
import { type Rng } from '../../env/rng';
import { type LinkModel } from '../../core/linkModel';
import { type FaultSpec, FAULT_KINDS } from '../../faults/registry';
import { type Buggify } from '../../scenario/buggify';
import { type Scenario, type ScenarioParams, emptyWorkload } from '../../scenario/scenario';
import { drawStakes } from '../../scenario/stakeDistribution';
import { type DrawContext, drawCoalition, drawFault, drawPattern } from './faultDraws';
import { WORKLOAD_CHANCE, WORKLOAD_KINDS, drawWorkloadItem } from './workloadDraws';

type Validators = Scenario['validators'];

const eq = (n: number, stake: bigint): Validators =>
  Array.from({ length: n }, () => ({ stakeTokens: stake, balanceTokens: 1000n }));
const list = (...stakes: number[]): Validators => stakes.map((s) => ({ stakeTokens: BigInt(s), balanceTokens: 1000n }));

/**
 * Validator layouts: each of the suite's, and seeded random ones. `weight` is the share of fresh
 * draws; the large set (mainnet-105) is drawn rarely and short (it costs some 20 times as much per
 * simulated second).
 */
export const LAYOUTS: ReadonlyArray<{ name: string; weight: number; make: (rng: Rng) => Validators }> = [
  { name: 'four-equal', weight: 5, make: () => eq(4, 100n) },
  { name: 'swarm-five', weight: 4, make: () => list(100, 100, 100, 100, 60) },
  { name: 'bridge-five', weight: 1, make: () => list(100, 100, 100, 100, 40) },
  { name: 'every-message-five', weight: 1, make: () => list(140, 100, 100, 100, 60) },
  { name: 'unequal-five', weight: 2, make: () => list(300, 200, 200, 100, 100) },
  { name: 'seven-equal', weight: 2, make: () => eq(7, 100n) },
  { name: 'default-seven', weight: 1, make: () => list(12000, 9000, 7000, 5000, 4000, 3000, 2000) },
  { name: 'devnet-four', weight: 1, make: () => list(10000, 8000, 6000, 4000) },
  { name: 'ten-equal', weight: 1, make: () => eq(10, 100n) },
  {
    name: 'random',
    weight: 3,
    make: (rng) =>
      Array.from({ length: rng.int(3, 8) }, () => ({ stakeTokens: BigInt(rng.int(20, 400)), balanceTokens: 1000n })),
  },
  {
    name: 'mainnet-105',
    weight: 0.15,
    make: () =>
      drawStakes(105, { kind: 'pareto', alpha: 1.16, min: 1000n, max: 50000n, seed: 1 }).map((stakeTokens) => ({
        stakeTokens,
        balanceTokens: 1000n,
      })),
  },
];

/** Each parameter's values: the suite's, and some around them. */
export const PARAM_VALUES = {
  producerCount: [2, 3, 4, 5],
  sprint: [4, 8, 16, 32, 64],
  /** A span's length in sprints (1600 blocks: the default, for runs where spans do not matter). */
  spanSprints: [2, 4, 8, 16],
  spanBlocks: [64, 128, 256, 1600],
  checkpointBufferTimeMs: [60_000, 100_000, 120_000, 200_000, 240_000, 300_000, 600_000, 1_000_000],
  checkpointLength: [8, 16, 32, 48, 64, 256],
  sidechainConfirmations: [2, 5, 10, 20],
  parentConfirmations: [1, 2, 3, 6],
  parentBlockTimeMs: [2_000, 4_000, 6_000, 12_000],
  periodS: [1, 2, 3],
  producerDelayS: [2, 4, 6, 8],
  backupMultiplierS: [1, 2, 3],
  stateSyncDelayS: [10, 16, 128],
  commitTimeoutMs: [1_000, 2_000, 3_000],
  relayDelayPerRankMs: [0, 1_000, 2_000],
} as const;

export const NETWORK_VALUES = {
  latencyMinMs: [5, 20],
  latencyMaxMs: [30, 80, 100, 120, 400],
  loss: [0.01, 0.02, 0.03, 0.04],
  duplicate: [0.01, 0.03, 0.05],
  reorder: [0.05, 0.1, 0.3],
  /**
   * Kept small: the bft-progress oracle expects round 0 on a calm network, which holds while the
   * worst latency (reordering included) stays well inside the step timeouts (1 s).
   */
  reorderMaxMs: [100, 200, 300],
} as const;

/** Simulated minutes of a fresh draw, shorter more often (mutation lengthens up to MAX_DURATION_MS). */
export const DURATIONS_MIN: ReadonlyArray<{ min: number; weight: number }> = [
  { min: 3, weight: 3 },
  { min: 4, weight: 3 },
  { min: 5, weight: 3 },
  { min: 6, weight: 2 },
  { min: 8, weight: 2 },
  { min: 10, weight: 2 },
  { min: 15, weight: 1 },
  { min: 20, weight: 1 },
  { min: 30, weight: 0.3 },
  // The suite's long regressions run one and two hours: faults that take long to show.
  { min: 60, weight: 0.15 },
  { min: 120, weight: 0.05 },
];
export const MIN_DURATION_MS = 120_000;
export const MAX_DURATION_MS = 2 * 3_600_000;

/** A weighted pick. */
export function weighted<T extends { weight: number }>(rng: Rng, items: readonly T[]): T {
  const total = items.reduce((s, x) => s + x.weight, 0);
  let u = rng.float() * total;
  for (const x of items) {
    u -= x.weight;
    if (u < 0) return x;
  }
  return items[items.length - 1]!;
}

function drawParams(rng: Rng, n: number): ScenarioParams {
  const P = PARAM_VALUES;
  const sprint = rng.bool(0.6) ? 16 : rng.pick(P.sprint);
  const spanOf = () => {
    const blocks = rng.bool(0.3) ? rng.pick(P.spanBlocks) : sprint * rng.pick(P.spanSprints);
    return blocks % sprint === 0 && blocks >= sprint ? blocks : sprint * 4;
  };
  const span = spanOf();
  const periodS = rng.bool(0.7) ? 2 : rng.pick(P.periodS);
  return {
    producerCount: Math.min(n, rng.bool(0.6) ? 4 : rng.pick(P.producerCount)),
    sprint,
    spanDuration: span,
    firstSpanDuration: rng.bool(0.6) ? span : spanOf(),
    checkpointBufferTimeMs: rng.pick(P.checkpointBufferTimeMs),
    checkpointLength: rng.pick(P.checkpointLength),
    sidechainConfirmations: rng.bool(0.7) ? 10 : rng.pick(P.sidechainConfirmations),
    parentConfirmations: rng.pick(P.parentConfirmations),
    parentBlockTimeMs: rng.pick(P.parentBlockTimeMs),
    periodS,
    producerDelayS: Math.max(periodS, rng.bool(0.7) ? 4 : rng.pick(P.producerDelayS)),
    backupMultiplierS: rng.bool(0.7) ? 2 : rng.pick(P.backupMultiplierS),
    stateSyncDelayS: rng.pick(P.stateSyncDelayS),
    commitTimeoutMs: rng.bool(0.7) ? 2_000 : rng.pick(P.commitTimeoutMs),
    relayDelayPerRankMs: rng.pick(P.relayDelayPerRankMs),
    validatorSlots: rng.bool(0.7) ? Math.max(32, n) : n + rng.int(0, 2),
    jitter: rng.bool(0.1),
    ...(rng.bool(0.05) ? { sendEnabled: false } : {}),
  };
}

function drawNetwork(rng: Rng): LinkModel {
  const N = NETWORK_VALUES;
  const reorder = rng.bool(0.15);
  return {
    latencyMinMs: rng.bool(0.85) ? 20 : rng.pick(N.latencyMinMs),
    latencyMaxMs: rng.bool(0.5) ? 100 : rng.pick(N.latencyMaxMs),
    loss: rng.bool(0.3) ? rng.pick(N.loss) : 0,
    duplicate: rng.bool(0.2) ? rng.pick(N.duplicate) : 0,
    reorder: reorder ? rng.pick(N.reorder) : 0,
    reorderMaxMs: reorder ? rng.pick(N.reorderMaxMs) : 0,
  };
}

/** BUGGIFY knobs (sim/scenario/buggify.ts): rare paths on purpose, drawn in some runs only. */
export function drawBuggify(rng: Rng): Buggify | undefined {
  const b: Buggify = {};
  if (rng.bool(0.2)) b.lateTimers = { probability: rng.pick([0.01, 0.05, 0.1]), maxMs: rng.pick([500, 2_000, 5_000]) };
  if (rng.bool(0.1))
    b.restarts = {
      probability: rng.pick([0.001, 0.003, 0.01]),
      downMs: rng.pick([0, 1_000, 5_000]),
      nodes: rng.pick(['service', 'sidechain', 'all'] as const),
    };
  return Object.keys(b).length ? b : undefined;
}

export function drawDurationMs(rng: Rng): number {
  return weighted(rng, DURATIONS_MIN).min * 60_000;
}

/** The runaway guard of an explorer run: some 20 times the events such a run delivers. */
export function explorerMaxEvents(validators: number, durationMs: number): number {
  const perMinute = 150 * Math.max(16, validators * validators);
  return Math.max(300_000, Math.ceil((durationMs / 60_000) * perMinute * 20));
}

/** A fresh scenario: a layout, parameters, network, faults, workload and knobs, all drawn. */
export function drawScenario(rng: Rng): Scenario {
  const layout = weighted(rng, LAYOUTS);
  const validators = layout.make(rng.fork('layout'));
  const n = validators.length;
  const big = n > 20;
  const durationMs = big ? rng.int(2, 4) * 60_000 : drawDurationMs(rng);
  const params = drawParams(rng, n);
  const stakes = validators.map((v) => v.stakeTokens);
  const coalition = drawCoalition(rng, stakes);
  const ctx: DrawContext = { validatorCount: n, stakes, coalition, durationMs, sprint: params.sprint };
  const faults: FaultSpec[] = [];
  if (rng.bool(0.35)) faults.push(...drawPattern(rng, ctx));
  // A pattern is a shape the suite tests on its own: at most one loose fault joins it, so that its
  // heal is a heal (an oracle judges what follows a heal only once no fault is in force).
  const count = rng.int(0, faults.length ? 1 : big ? 2 : 5);
  // Now and then the faults come together (within a minute), so that they act on each other.
  const cluster = count > 1 && rng.bool(0.3) ? rng.int(20, Math.max(21, Math.floor(durationMs / 1000) - 100)) : null;
  for (let i = 0; i < count; i++) {
    const f = drawFault(rng, rng.pick(FAULT_KINDS), ctx);
    if (f && cluster !== null && f.atMs !== undefined && f.atMs >= 20_000) f.atMs = (cluster + rng.int(0, 60)) * 1000;
    if (f) faults.push(f);
  }
  // A Byzantine sender for a few minutes in some runs, besides the mix (as the swarm has one in half
  // its seeds): its crafts walk the service's validation rules one by one.
  if (coalition.length && rng.bool(0.4)) {
    const f = drawFault(rng, 'byzantineTxs', ctx);
    if (f) faults.push({ ...f, forMs: Math.max(f.forMs ?? 0, 120_000) });
  }
  const workload = emptyWorkload();
  for (const kind of WORKLOAD_KINDS) if (rng.bool(WORKLOAD_CHANCE[kind])) drawWorkloadItem(rng, workload, kind, ctx);
  const buggify = drawBuggify(rng);
  return {
    name: 'explore',
    description: `An explorer run (layout ${layout.name}).`,
    crypto: !big && rng.bool(0.06) ? 'real' : 'fast',
    durationMs,
    maxEvents: explorerMaxEvents(n, durationMs),
    epochMs: 1_700_000_000_000,
    validators,
    params,
    network: drawNetwork(rng),
    faults,
    workload,
    expect: { verdict: 'pass', min: {}, max: {} },
    ...(buggify ? { buggify } : {}),
  };
}

export { drawNetwork, drawParams };
