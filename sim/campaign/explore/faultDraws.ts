/**
 * The explorer's fault draws: one fault of a kind with its fields and timing, the suite's
 * structured patterns of several faults, and the Byzantine coalition they act through (below a
 * third of the power, also after the worst the workload can do to the honest validators).
 * space.ts draws a whole scenario with them; mutate.ts adds and changes faults with them.
 */
import { type Rng } from '../../env/rng';
import { type LinkModel } from '../../core/linkModel';
import { type FaultKind, type FaultSpec, faultDef } from '../../faults/registry';
import { BYZANTINE_TXS, type ByzantineTx } from '../../faults/byzantineTxs';
import { BYZANTINE_BLOCKS } from '../../faults/byzantineBlocks';

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
  'byzantineBlocks',
  'offlineCheckpointProposer',
  'doubleSign',
  'roundShift',
  'replayMessages',
  'splitVote',
  'byzantineTxs',
  'lateCheckpoint',
]);

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
    case 'byzantineBlocks': {
      const blocks = BYZANTINE_BLOCKS.filter(() => rng.bool(0.5));
      return {
        validator: v,
        blocks: blocks.length ? blocks : [rng.pick(BYZANTINE_BLOCKS)],
        everyBlocks: rng.int(1, 8),
      };
    }
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
  // The stall is drawn twice as often as each other pattern: it is the only way a run gets a
  // height stuck past round 0 with nodes behind it.
  switch (rng.int(0, 5)) {
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
    case 4:
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
 * Consensus stalls and nodes come back behind (bft-round-skip's shape, for any set): validators
 * holding more than a third of the power crash while the others are past round 0, so those stay
 * stuck in their round (no quorum); at the heal the crashed come back in round 0 and must skip
 * ahead on the stuck ones' votes (more than 1/3 of the power), or the height never ends. Drawn
 * aimed where the set allows it (`roundAimedStall`), else timed (`timedStall`).
 */
function stallAndRestart(rng: Rng, ctx: DrawContext): FaultSpec[] {
  const aimed = roundAimedStall(rng, ctx);
  return aimed.length ? aimed : timedStall(rng, ctx);
}

/**
 * The validators in a drawn order, split greedily into a group holding as much as it can below 1/3
 * of the power (`cut`) and the others (`rest`, in the same order).
 */
function cutBelowThird(rng: Rng, ctx: DrawContext): { total: bigint; cut: number[]; rest: number[] } {
  let total = 0n;
  for (const x of ctx.stakes) total += x;
  const order = rng.shuffle(Array.from({ length: ctx.validatorCount }, (_, i) => i + 1));
  const cut: number[] = [];
  let cutPower = 0n;
  for (const v of order) {
    const p = ctx.stakes[v - 1]!;
    if ((cutPower + p) * 3n >= total) continue;
    cut.push(v);
    cutPower += p;
  }
  return { total, cut, rest: order.filter((v) => !cut.includes(v)) };
}

/**
 * A group C (just under 1/3 of the power) is cut off, so the heights it proposes fail rounds; at
 * the first round past 0 from the cut on (`atRound`: round 2 where C may hold two proposers in a
 * row), C and a group K of the others crash, leaving the rest S (more than 1/3, less than 2/3)
 * stuck in that round. The crashes outlast the cut and end together: C and K come back at once,
 * in round 0, on a calm network, and must skip to S's round. Walking there on timeouts takes a
 * precommit timeout per round, so round 2 tells a missing skip from a slow one better than round 1.
 * (C is crashed rather than cut a second time: two partitions over the same links do not stack,
 * the first one's end would heal both.)
 */
function roundAimedStall(rng: Rng, ctx: DrawContext): FaultSpec[] {
  const endS = Math.floor(ctx.durationMs / 1000);
  const { total, cut, rest } = cutBelowThird(rng, ctx);
  const power = (vs: readonly number[]) => vs.reduce((sum, v) => sum + ctx.stakes[v - 1]!, 0n);
  const stuck: number[] = [];
  for (const v of rest) {
    if (power(stuck) * 3n > total) break;
    stuck.push(v);
  }
  const crashed = rest.filter((v) => !stuck.includes(v));
  if (!cut.length || !crashed.length || power(stuck) * 3n <= total || power(stuck) * 3n >= total * 2n) return [];
  const startS = rng.int(20, 60);
  const lengthS = rng.int(40, 120);
  const lagS = rng.int(0, 10);
  if (startS + lengthS + 40 > endS - 30) return [];
  const atRound = cut.length > 1 && rng.bool(0.7) ? 2 : 1;
  // One length for every crash, past the cut's end: C and K come back together, or the first back
  // make a quorum with S and the height ends without anyone having to skip.
  const atMs = (startS + lagS) * 1000;
  const forMs = (lengthS - lagS + rng.int(5, 20)) * 1000;
  return [
    { kind: 'partition', atMs: startS * 1000, forMs: lengthS * 1000, groups: [cut.map(svc), rest.map(svc)] },
    ...[...cut, ...crashed].map((v): FaultSpec => ({ kind: 'crash', node: svc(v), atMs, atRound, forMs })),
  ];
}

/**
 * The stall by the clock, in one to four episodes: the service nodes split into a group holding
 * just under 1/3 of the power and the rest; a moment later a node of the rest crashes, and both
 * end together. The crash lands past round 0 only when a cut-off proposer made the rest's height
 * fail a round (about one episode in six); the cut is as large as it can be below 1/3, so that a
 * crash mostly takes the rest below 2/3.
 */
function timedStall(rng: Rng, ctx: DrawContext): FaultSpec[] {
  const endS = Math.floor(ctx.durationMs / 1000);
  const { cut, rest } = cutBelowThird(rng, ctx);
  if (!cut.length || rest.length < 2) return [];
  const out: FaultSpec[] = [];
  let startS = rng.int(20, 60);
  const episodes = rng.int(1, 4);
  for (let e = 0; e < episodes; e++) {
    const lengthS = rng.int(40, 120);
    const lagS = rng.int(5, 30);
    if (startS + lengthS + 10 > endS - 30) break;
    const crashed = rest[rng.int(0, rest.length - 1)]!;
    out.push(
      { kind: 'partition', atMs: startS * 1000, forMs: lengthS * 1000, groups: [cut.map(svc), rest.map(svc)] },
      {
        kind: 'crash',
        node: svc(crashed),
        atMs: (startS + lagS) * 1000,
        forMs: (lengthS - lagS + rng.int(-5, 10)) * 1000,
      },
    );
    startS += lengthS + rng.int(20, 60);
  }
  return out;
}
