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
 * Nothing here knows the code under test: the tables come from the scenario files and the format.
 */
import { type Rng } from '../../env/rng';
import { type LinkModel } from '../../env/network';
import { type FaultKind, type FaultSpec, FAULT_KINDS, faultDef } from '../../faults/registry';
import { BYZANTINE_TXS, type ByzantineTx } from '../../faults/byzantineTxs';
import { type Buggify } from '../../scenario/buggify';
import { type Scenario, type ScenarioParams, type WorkloadSpec } from '../../scenario/scenario';
import { drawStakes } from '../../scenario/stakeDistribution';
import { USER_COUNT } from '../../scenario/balanceOverrides';

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

/** The kinds that act through the Byzantine coalition (their union stays below 1/3 of the power). */
export const COALITION_KINDS: ReadonlySet<FaultKind> = new Set<FaultKind>([
  'byzantineValidators',
  'roundShift',
  'replayMessages',
  'splitVote',
  'byzantineTxs',
  'doubleSign',
  'lateCheckpoint',
]);

/**
 * How far a drawn setHead rewinds: at most `maxBlocks` below the head, or to a block up to
 * `maxNumber` no later than `numberBeforeMs` into the run. A deeper rewind takes a producing node
 * below its finality floor, where it seals a fork the finality-floor oracle calls a safety
 * violation: whether an operator's rewind may cross the floor is not settled by the spec, so the
 * explorer stays above it (operator-console's rewinds are of this size).
 */
export const SETHEAD_LIMITS = { maxBlocks: 8, maxNumber: 30, numberBeforeMs: 90_000 } as const;

/** Kinds that may last to the end of the run (no `for`), as suite files have them. */
export const PERMANENT_KINDS: ReadonlySet<FaultKind> = new Set<FaultKind>([
  'crash',
  'offlineProducer',
  'slowProducer',
  'earlySeal',
  'equivocatingProducer',
  'outsiderBlocks',
  'offlineCheckpointProposer',
  'doubleSign',
  'roundShift',
  'replayMessages',
  'splitVote',
  'byzantineTxs',
  'lateCheckpoint',
]);

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

/**
 * The coalition a Byzantine fault may use: validators (1-based) whose stake together stays below
 * a third of the honest-worst-case total (the total less the largest honest stake, as if one honest
 * validator exited). Drawn in a random order; may be empty for a set that has no such validator.
 */
export function drawCoalition(rng: Rng, stakes: readonly bigint[]): number[] {
  const order = rng.shuffle(stakes.map((_, i) => i + 1));
  const size = rng.int(1, 2);
  const out: number[] = [];
  for (const v of order) {
    if (out.length === size) break;
    if (coalitionOk([...out, v], stakes)) out.push(v);
  }
  return out.sort((a, b) => a - b);
}

/** Whether `coalition` holds less than 1/3 of the power even after the largest honest validator exits. */
export function coalitionOk(coalition: readonly number[], stakes: readonly bigint[]): boolean {
  let total = 0n;
  let power = 0n;
  let largestHonest = 0n;
  stakes.forEach((s, i) => {
    total += s;
    if (coalition.includes(i + 1)) power += s;
    else if (s > largestHonest) largestHonest = s;
  });
  return power * 3n < total - largestHonest;
}

export interface DrawContext {
  validatorCount: number;
  stakes: readonly bigint[];
  coalition: readonly number[];
  durationMs: number;
  /** The sprint length (height triggers on the sidechain fire at or after a sprint's start). */
  sprint: number;
}

const svc = (v: number) => `svc-${v}`;
const sc = (v: number) => `sc-${v}`;
const all = (n: number, f: (v: number) => string) => Array.from({ length: n }, (_, i) => f(i + 1));

/** A node of validator `v`: its service node (60%), its sidechain node, or the parent chain. */
function nodeOf(rng: Rng, v: number): string {
  return rng.bool(0.6) ? svc(v) : rng.bool(0.85) ? sc(v) : 'parent';
}

/** A non-empty proper part of `items` (and the rest). */
function split<T>(rng: Rng, items: readonly T[]): [T[], T[]] {
  const order = rng.shuffle(items);
  const cut = rng.int(1, order.length - 1);
  return [order.slice(0, cut), order.slice(cut)];
}

/** The kind's own fields, drawn. */
export function drawFaultFields(rng: Rng, kind: FaultKind, ctx: DrawContext): Record<string, unknown> | null {
  const n = ctx.validatorCount;
  const v = rng.int(1, n);
  const validatorOrInTurn = () => (rng.bool(0.5) ? 'inTurn' : v);
  const coalitionMember = () => (ctx.coalition.length ? ctx.coalition[rng.int(0, ctx.coalition.length - 1)]! : null);
  switch (kind) {
    case 'crash':
    case 'pause':
      return { node: nodeOf(rng, v) };
    case 'partition': {
      const style = rng.int(0, 3);
      if (style === 0) {
        // Service nodes split (consensus without a quorum on one side, or with one).
        const [a, b] = split(rng, all(n, svc));
        return { groups: [a, b] };
      }
      if (style === 1) {
        const [a, b] = split(rng, all(n, sc));
        return { groups: [a, b] };
      }
      if (style === 2) {
        // One validator's two nodes cut off from everyone.
        const me = [svc(v), sc(v)];
        const rest = [...all(n, svc), ...all(n, sc), 'parent'].filter((x) => !me.includes(x));
        return { groups: [me, rest] };
      }
      return faultDef('partition').swarm!.draw(rng, {
        validatorCount: n,
        validator: v,
        stakes: ctx.stakes,
        coalition: ctx.coalition,
      });
    }
    case 'oneWayPartition': {
      const style = rng.int(0, 2);
      if (style === 0) return { from: all(n, sc), to: all(n, svc) };
      if (style === 1) return { from: [svc(v)], to: all(n, svc).filter((x) => x !== svc(v)) };
      return { from: [sc(v)], to: all(n, sc).filter((x) => x !== sc(v)) };
    }
    case 'link': {
      const link: Partial<LinkModel> = {
        loss: rng.int(0, 50) / 100,
        duplicate: rng.int(0, 20) / 100,
        reorder: rng.int(0, 30) / 100,
        reorderMaxMs: rng.pick([0, 500, 2_000]),
        ...(rng.bool(0.3) ? { latencyMinMs: 20, latencyMaxMs: rng.pick([200, 1_000, 3_000]) } : {}),
      };
      const side = rng.bool(0.7) ? svc : sc;
      return { from: [side(v)], to: all(n, side).filter((x) => x !== side(v)), link };
    }
    case 'clockSkew':
      return { node: rng.bool() ? svc(v) : sc(v), skewMs: rng.int(-3000, 3000) };
    case 'offlineProducer':
    case 'isolateProducer':
    case 'earlySeal':
    case 'equivocatingProducer':
      return { validator: validatorOrInTurn() };
    case 'slowProducer':
      return { validator: validatorOrInTurn(), delayS: rng.int(1, 8) };
    case 'offlineCheckpointProposer':
      return {};
    case 'outsiderBlocks':
      return { everyBlocks: rng.int(2, 12) };
    case 'setHead':
      // Small rewinds, or to an early block early in the run (as operator-console does): a rewind
      // below a node's finality floor is a question the spec leaves open (see SETHEAD_LIMITS).
      return rng.bool(0.7)
        ? { node: sc(v), blocks: rng.int(1, SETHEAD_LIMITS.maxBlocks), number: null }
        : { node: sc(v), number: BigInt(rng.int(1, SETHEAD_LIMITS.maxNumber)), blocks: null };
    case 'doubleSign':
    case 'lateCheckpoint': {
      const m = coalitionMember();
      if (m === null) return null;
      return kind === 'doubleSign' ? { validator: m } : { validator: m, length: rng.bool(0.5) ? null : rng.int(2, 16) };
    }
    case 'byzantineValidators':
    case 'roundShift':
    case 'replayMessages':
    case 'splitVote':
      return ctx.coalition.length ? { validators: [...ctx.coalition] } : null;
    case 'byzantineTxs': {
      const m = coalitionMember();
      if (m === null) return null;
      const txs = BYZANTINE_TXS.filter(() => rng.bool(0.5));
      return {
        validator: m,
        txs: txs.length ? txs : [rng.pick(BYZANTINE_TXS) as ByzantineTx],
        everyBlocks: rng.int(1, 8),
        perBlock: rng.int(1, 6),
      };
    }
  }
}

/** Whether a fault of this kind can fire on a height of `chain` (it acts on that side alone). */
export function heightChain(f: FaultSpec): 'service' | 'sidechain' | null {
  const sides = faultDef(f).sides(f as never);
  return sides.size === 1 ? [...sides][0]! : null;
}

/** One fault of `kind` with its timing, or null when the kind cannot be drawn here (no coalition). */
export function drawFault(rng: Rng, kind: FaultKind, ctx: DrawContext): FaultSpec | null {
  const fields = drawFaultFields(rng, kind, ctx);
  if (fields === null) return null;
  const endS = Math.floor(ctx.durationMs / 1000);
  const early = rng.bool(0.15);
  const atMs = (early ? rng.int(0, 20) : rng.int(20, Math.max(21, endS - 40))) * 1000;
  const f = { kind, atMs, ...fields } as FaultSpec;
  if (f.kind === 'setHead' && f.number !== null) f.atMs = rng.int(20, SETHEAD_LIMITS.numberBeforeMs / 1000) * 1000;
  if (kind !== 'setHead' && !(PERMANENT_KINDS.has(kind) && rng.bool(0.15))) f.forMs = rng.int(10, 240) * 1000;
  if (rng.bool(0.15)) {
    const chain = heightChain(f);
    if (chain !== null) {
      delete f.atMs;
      // Heights a run of this length reaches: about one service block a second and one sidechain
      // block every period; sidechain triggers at sprint starts now and then (a producer change).
      const top = Math.max(2, Math.floor(endS / 3));
      const height =
        chain === 'sidechain' && rng.bool(0.5)
          ? ctx.sprint * rng.int(1, Math.max(1, Math.floor(top / ctx.sprint)))
          : rng.int(1, top);
      f.atHeight = { chain, height: Math.max(1, height) };
    }
  }
  return f;
}

/** Structured patterns of several faults that the suite uses together. */
export function drawPattern(rng: Rng, ctx: DrawContext): FaultSpec[] {
  const n = ctx.validatorCount;
  const endS = Math.floor(ctx.durationMs / 1000);
  switch (rng.int(0, 4)) {
    case 0: {
      // The sidechain halts at a sprint start: every producer offline at one height.
      const height = ctx.sprint * rng.int(1, 4);
      const forMs = rng.int(60, 600) * 1000;
      return Array.from(
        { length: n },
        (_, i): FaultSpec => ({
          kind: 'offlineProducer',
          validator: i + 1,
          atHeight: { chain: 'sidechain', height },
          forMs,
        }),
      );
    }
    case 1:
      // The sidechain cannot reach the service for a while (a late first span).
      return [{ kind: 'oneWayPartition', atMs: 0, forMs: rng.int(30, 150) * 1000, from: all(n, sc), to: all(n, svc) }];
    case 2: {
      // A coalition attacks consensus three ways at once.
      if (!ctx.coalition.length) return [];
      const atMs = rng.int(5, 60) * 1000;
      const forMs = rng.bool(0.5) ? undefined : rng.int(60, 300) * 1000;
      return (['roundShift', 'replayMessages', 'splitVote'] as const).map((kind) => ({
        kind,
        atMs,
        validators: [...ctx.coalition],
        ...(forMs !== undefined ? { forMs } : {}),
      }));
    }
    case 3:
      return stallAndRestart(rng, ctx);
    default: {
      // A producer flaps: offline again and again.
      const v: number | 'inTurn' = rng.bool(0.5) ? 'inTurn' : rng.int(1, n);
      const out: FaultSpec[] = [];
      let t = rng.int(20, 60);
      for (let i = 0; i < rng.int(2, 5) && t < endS - 30; i++) {
        const len = rng.int(10, 40);
        out.push({ kind: 'offlineProducer', validator: v, atMs: t * 1000, forMs: len * 1000 });
        t += len + rng.int(10, 40);
      }
      return out;
    }
  }
}

/**
 * Consensus stalls and nodes come back behind (bft-round-skip's shape, for any set): the service
 * nodes split into a group holding more than 2/3 of the power and the rest; a moment later a node
 * of the big group crashes, so no group has a quorum and the rounds go on without commits; at the
 * heal the crashed node and the cut-off group start the height in round 0 while the others are in
 * a later round, on whose votes they must skip ahead.
 */
function stallAndRestart(rng: Rng, ctx: DrawContext): FaultSpec[] {
  const n = ctx.validatorCount;
  let total = 0n;
  for (const x of ctx.stakes) total += x;
  const order = rng.shuffle(Array.from({ length: n }, (_, i) => i + 1));
  const cut: number[] = [];
  let cutPower = 0n;
  for (const v of order) {
    const p = ctx.stakes[v - 1]!;
    if ((cutPower + p) * 3n >= total) continue;
    cut.push(v);
    cutPower += p;
    if (rng.bool(0.5)) break;
  }
  const rest = order.filter((v) => !cut.includes(v));
  if (!cut.length || rest.length < 2) return [];
  const crashed = rest[rng.int(0, rest.length - 1)]!;
  const startS = rng.int(20, 60);
  const lengthS = rng.int(60, 150);
  const lagS = rng.int(5, 30);
  return [
    { kind: 'partition', atMs: startS * 1000, forMs: lengthS * 1000, groups: [cut.map(svc), rest.map(svc)] },
    {
      kind: 'crash',
      node: svc(crashed),
      atMs: (startS + lagS) * 1000,
      forMs: (lengthS - lagS + rng.int(-5, 10)) * 1000,
    },
  ];
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

/** Workload items, each kind present with its own chance (names as WorkloadSpec's). */
export const WORKLOAD_KINDS = [
  'transfers',
  'multiSends',
  'topups',
  'withdrawals',
  'stateSyncs',
  'stakeUpdates',
  'joins',
  'exits',
  'signerChanges',
  'balanceOverrides',
  'sidechainTxs',
] as const;
export type WorkloadKind = (typeof WORKLOAD_KINDS)[number];

/** Draw one workload item of `kind` into `w` (replacing what was there). */
export function drawWorkloadItem(rng: Rng, w: WorkloadSpec, kind: WorkloadKind, ctx: DrawContext): void {
  const n = ctx.validatorCount;
  const endS = Math.max(30, Math.floor(ctx.durationMs / 1000) - 30);
  const at = () => rng.int(10, Math.min(endS, 400)) * 1000;
  const repeat = () => (rng.bool(0.5) ? 1 : rng.int(2, 4));
  const every = () => rng.int(20, 180) * 1000;
  const honest = Array.from({ length: n }, (_, i) => i + 1).filter((v) => !ctx.coalition.includes(v));
  switch (kind) {
    case 'transfers':
      w.transfers = { everyMs: rng.int(2, 30) * 1000, amountWei: 10n ** 15n };
      return;
    case 'multiSends':
      w.multiSends = { everyMs: rng.int(8, 30) * 1000, outputs: rng.int(1, 4), amountWei: 10n ** 15n };
      return;
    case 'topups':
      w.topups = [
        {
          atMs: at(),
          validator: rng.int(1, n),
          amountTokens: BigInt(rng.int(1, 40)),
          repeat: repeat(),
          everyMs: every(),
        },
      ];
      return;
    case 'withdrawals':
      w.withdrawals = [
        {
          atMs: at(),
          validator: rng.int(1, n),
          amountTokens: rng.bool(0.3) ? 0n : BigInt(rng.int(1, 50)),
          repeat: repeat(),
          everyMs: every(),
        },
      ];
      return;
    case 'stateSyncs':
      w.stateSyncs = [{ atMs: at(), count: rng.int(1, 20), repeat: repeat(), everyMs: every() }];
      return;
    case 'stakeUpdates':
      // Stake only outside the coalition: its share of the power never grows.
      w.stakeUpdates = honest.length
        ? [
            {
              atMs: at(),
              validator: rng.pick(honest),
              amountTokens: BigInt(rng.pick([1, 20, 50, 250])),
              repeat: repeat(),
              everyMs: every(),
            },
          ]
        : [];
      return;
    case 'joins':
      w.joins = [{ atMs: at(), stakeTokens: BigInt(rng.pick([1, 2, 5, 20])), repeat: repeat(), everyMs: every() }];
      return;
    case 'exits':
      // At most one honest validator exits (the coalition's budget counts it).
      w.exits = honest.length > 1 ? [{ atMs: at(), validator: rng.pick(honest), repeat: 1, everyMs: 0 }] : [];
      return;
    case 'signerChanges':
      w.signerChanges = [{ atMs: at(), validator: rng.int(1, n), repeat: repeat(), everyMs: every() }];
      return;
    case 'balanceOverrides':
      w.balanceOverrides = [
        {
          atMs: at(),
          target: rng.bool(0.7)
            ? { user: rng.int(1, USER_COUNT) }
            : { address: '0x00000000000000000000000000000000000000aa' },
          balanceWei: rng.pick([1n, 10n ** 15n, 5n * 10n ** 18n]),
          repeat: repeat(),
          everyMs: every(),
        },
      ];
      return;
    case 'sidechainTxs':
      w.sidechainTxs = {
        everyMs: rng.int(2, 10) * 1000,
        ...(rng.bool(0.3) ? { fastSignedEveryMs: rng.int(5, 30) * 1000 } : {}),
      };
      return;
  }
}

/** How often each workload kind is in a fresh draw. */
const WORKLOAD_CHANCE: Record<WorkloadKind, number> = {
  transfers: 0.6,
  multiSends: 0.3,
  topups: 0.4,
  withdrawals: 0.3,
  stateSyncs: 0.4,
  stakeUpdates: 0.3,
  joins: 0.25,
  exits: 0.2,
  signerChanges: 0.3,
  balanceOverrides: 0.15,
  sidechainTxs: 0.4,
};

export function emptyWorkload(): WorkloadSpec {
  return {
    transfers: null,
    multiSends: null,
    topups: [],
    withdrawals: [],
    stateSyncs: [],
    stakeUpdates: [],
    joins: [],
    exits: [],
    signerChanges: [],
    sidechainTxs: null,
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
  if (rng.bool(0.25)) faults.push(...drawPattern(rng, ctx));
  const count = rng.int(0, big ? 2 : 5);
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
