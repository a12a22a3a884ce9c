/**
 * Mutation operators: a new run from one the corpus kept, by small changes (as coverage-guided
 * fuzzers mutate their inputs, and as ByzzFuzz and Mallory mutate schedules): a fault added,
 * removed, moved, lengthened or shortened, retargeted or switched to a height trigger; the
 * network's delay, loss, duplication or reordering; a parameter; a workload item; the run's
 * length; the BUGGIFY knobs; the validator layout; faults or workload spliced in from another
 * kept run; the crypto. A few operators are stacked at a time.
 *
 * Every result is put back within the space's rules (`fitScenario`: indexes within the set, the
 * coalition below a third of the power, spans in whole sprints, faults before the end) and checked
 * by the scenario decoder itself: what the explorer runs is exactly what its repro file replays.
 */
import { type Rng } from '../../env/rng';
import { type FaultSpec, FAULT_KINDS } from '../../faults/registry';
import { type Scenario } from '../../scenario/scenario';
import { decodeScenario } from '../../scenario/decodeScenario';
import { encodeScenario } from '../../scenario/encodeScenario';
import {
  LAYOUTS,
  MAX_DURATION_MS,
  MIN_DURATION_MS,
  PARAM_VALUES,
  drawBuggify,
  drawNetwork,
  drawParams,
  explorerMaxEvents,
  weighted,
} from './space';
import {
  COALITION_KINDS,
  type DrawContext,
  SETHEAD_LIMITS,
  coalitionOk,
  drawCoalition,
  drawFault,
  drawFaultFields,
  drawPattern,
  heightChain,
} from './faultDraws';
import { WORKLOAD_KINDS, drawWorkloadItem } from './workloadDraws';
import { emptyWorkload } from '../../scenario/scenario';

export const MUTATORS = [
  'faultAdd',
  'faultRemove',
  'faultShift',
  'faultLength',
  'faultRetarget',
  'faultTrigger',
  'faultRepeat',
  'network',
  'param',
  'workload',
  'duration',
  'buggify',
  'layout',
  'splice',
  'crypto',
] as const;
export type Mutator = (typeof MUTATORS)[number];

const WEIGHTS: ReadonlyArray<{ op: Mutator; weight: number }> = [
  { op: 'faultAdd', weight: 4 },
  { op: 'faultRemove', weight: 2 },
  { op: 'faultShift', weight: 3 },
  { op: 'faultLength', weight: 2 },
  { op: 'faultRetarget', weight: 2 },
  { op: 'faultTrigger', weight: 1 },
  { op: 'faultRepeat', weight: 1 },
  { op: 'network', weight: 2 },
  { op: 'param', weight: 3 },
  { op: 'workload', weight: 3 },
  { op: 'duration', weight: 1.5 },
  { op: 'buggify', weight: 1 },
  { op: 'layout', weight: 1 },
  { op: 'splice', weight: 1.5 },
  { op: 'crypto', weight: 0.3 },
];

/** The coalition a scenario's Byzantine faults use (their validators, sorted). */
export function coalitionOf(s: Scenario): number[] {
  const out = new Set<number>();
  for (const f of s.faults) {
    if (!COALITION_KINDS.has(f.kind)) continue;
    if ('validators' in f) for (const v of f.validators) out.add(v);
    else if ('validator' in f && typeof f.validator === 'number') out.add(f.validator);
  }
  return [...out].sort((a, b) => a - b);
}

function contextOf(s: Scenario, rng: Rng): DrawContext {
  const stakes = s.validators.map((v) => v.stakeTokens);
  const kept = coalitionOf(s);
  return {
    validatorCount: s.validators.length,
    stakes,
    coalition: kept.length ? kept : drawCoalition(rng, stakes),
    durationMs: s.durationMs,
    sprint: s.params.sprint,
  };
}

const pickIndex = (rng: Rng, n: number): number => rng.int(0, n - 1);

/** Apply one operator in place; false when it had nothing to act on. */
function apply(op: Mutator, rng: Rng, s: Scenario, donor: Scenario | null): boolean {
  const ctx = contextOf(s, rng);
  const faults = s.faults;
  switch (op) {
    case 'faultAdd': {
      if (rng.bool(0.2)) {
        const p = drawPattern(rng, ctx);
        faults.push(...p);
        return p.length > 0;
      }
      const f = drawFault(rng, rng.pick(FAULT_KINDS), ctx);
      if (f) faults.push(f);
      return f !== null;
    }
    case 'faultRemove':
      if (!faults.length) return false;
      faults.splice(pickIndex(rng, faults.length), 1);
      return true;
    case 'faultShift': {
      if (!faults.length) return false;
      const f = faults[pickIndex(rng, faults.length)]!;
      if (f.atHeight) f.atHeight = { ...f.atHeight, height: Math.max(1, f.atHeight.height + rng.int(-30, 30)) };
      else f.atMs = Math.max(0, (f.atMs ?? 0) + rng.int(-120, 120) * 1000);
      return true;
    }
    case 'faultLength': {
      if (!faults.length) return false;
      const f = faults[pickIndex(rng, faults.length)]!;
      if (f.kind === 'setHead') return false;
      f.forMs =
        f.forMs === undefined
          ? rng.int(10, 240) * 1000
          : Math.max(1000, Math.round(f.forMs * rng.pick([0.25, 0.5, 2, 3])));
      return true;
    }
    case 'faultRetarget': {
      if (!faults.length) return false;
      const i = pickIndex(rng, faults.length);
      const f = faults[i]!;
      const fields = drawFaultFields(rng, f.kind, ctx);
      if (fields === null) return false;
      faults[i] = {
        kind: f.kind,
        ...(f.atMs !== undefined ? { atMs: f.atMs } : {}),
        ...(f.atHeight ? { atHeight: f.atHeight } : {}),
        ...(f.atRound !== undefined ? { atRound: f.atRound } : {}),
        ...(f.forMs !== undefined ? { forMs: f.forMs } : {}),
        ...fields,
      } as FaultSpec;
      return true;
    }
    case 'faultTrigger': {
      if (!faults.length) return false;
      const f = faults[pickIndex(rng, faults.length)]!;
      if (f.atRound !== undefined) {
        delete f.atRound;
        return true;
      }
      if (f.atHeight) {
        // About a block a second on the service, one a period on the sidechain.
        f.atMs = Math.min(
          s.durationMs - 1000,
          f.atHeight.height * 1000 * (f.atHeight.chain === 'sidechain' ? s.params.periodS : 1),
        );
        delete f.atHeight;
        return true;
      }
      const chain = heightChain(f);
      if (chain === null) return false;
      // A service-side fault may instead wait from its time for a round past 0 (an awkward step).
      if (chain === 'service' && rng.bool(0.25)) {
        f.atRound = rng.int(1, 2);
        return true;
      }
      const secs = Math.max(1, Math.floor((f.atMs ?? 0) / 1000));
      delete f.atMs;
      f.atHeight = { chain, height: Math.max(1, chain === 'sidechain' ? Math.floor(secs / s.params.periodS) : secs) };
      return true;
    }
    case 'faultRepeat': {
      if (!faults.length) return false;
      const f = structuredClone(faults[pickIndex(rng, faults.length)]!);
      if (f.atHeight) f.atHeight = { ...f.atHeight, height: f.atHeight.height + rng.int(5, 60) };
      else f.atMs = (f.atMs ?? 0) + (f.forMs ?? 30_000) + rng.int(5, 60) * 1000;
      faults.push(f);
      return true;
    }
    case 'network': {
      const fresh = drawNetwork(rng);
      const key = rng.pick(['latency', 'loss', 'duplicate', 'reorder', 'all'] as const);
      if (key === 'all') s.network = fresh;
      else if (key === 'latency')
        s.network = { ...s.network, latencyMinMs: fresh.latencyMinMs, latencyMaxMs: fresh.latencyMaxMs };
      else if (key === 'reorder')
        s.network = { ...s.network, reorder: fresh.reorder, reorderMaxMs: fresh.reorderMaxMs };
      else s.network = { ...s.network, [key]: s.network[key] > 0 ? 0 : fresh[key] || 0.03 };
      if (s.network.latencyMaxMs < s.network.latencyMinMs) s.network.latencyMaxMs = s.network.latencyMinMs;
      return true;
    }
    case 'param': {
      const fresh = drawParams(rng, s.validators.length);
      const key = rng.pick([...Object.keys(fresh), 'sendEnabled'] as Array<keyof typeof fresh>);
      if (key === 'sendEnabled') {
        if (s.params.sendEnabled === false) delete s.params.sendEnabled;
        else s.params.sendEnabled = false;
      } else if (key === 'sprint') {
        s.params.sprint = rng.pick(PARAM_VALUES.sprint);
      } else (s.params as unknown as Record<string, unknown>)[key] = fresh[key];
      return true;
    }
    case 'workload': {
      const kind = rng.pick(WORKLOAD_KINDS);
      const w = s.workload;
      const present =
        kind === 'transfers' || kind === 'multiSends' || kind === 'sidechainTxs'
          ? w[kind] != null
          : (w[kind]?.length ?? 0) > 0;
      if (present && rng.bool(0.4)) {
        const empty = emptyWorkload();
        (w as unknown as Record<string, unknown>)[kind] = kind === 'balanceOverrides' ? [] : empty[kind];
      } else drawWorkloadItem(rng, w, kind, ctx);
      return true;
    }
    case 'duration': {
      const factor = rng.pick([0.5, 0.75, 1.5, 2]);
      s.durationMs = Math.min(
        MAX_DURATION_MS,
        Math.max(MIN_DURATION_MS, Math.round((s.durationMs * factor) / 60_000) * 60_000),
      );
      return true;
    }
    case 'buggify': {
      const b = rng.bool(0.3) ? undefined : drawBuggify(rng);
      if (b) s.buggify = b;
      else delete s.buggify;
      return true;
    }
    case 'layout': {
      const layout = weighted(
        rng,
        LAYOUTS.filter((l) => l.name !== 'mainnet-105'),
      );
      s.validators = layout.make(rng.fork('layout'));
      return true;
    }
    case 'splice': {
      if (donor === null) return false;
      if (rng.bool(0.6)) {
        const take = donor.faults.filter(() => rng.bool(0.5));
        s.faults = [...s.faults.filter(() => rng.bool(0.5)), ...structuredClone(take)];
      } else s.workload = structuredClone(donor.workload);
      return true;
    }
    case 'crypto':
      s.crypto = s.crypto === 'fast' ? 'real' : 'fast';
      return true;
  }
}

/** Map a validator index into 1..n. */
const wrap = (v: number, n: number): number => ((v - 1) % n) + 1;

/** A node id of this set (svc-k and sc-k wrapped into 1..n). */
function fitNode(id: string, n: number): string {
  const m = /^(svc|sc)-(\d+)$/.exec(id);
  return m ? `${m[1]}-${wrap(Number(m[2]), n)}` : id;
}

function fitNodes(ids: readonly string[], n: number): string[] {
  return [...new Set(ids.map((x) => fitNode(x, n)))];
}

/**
 * Put a scenario back within the space's rules (in place): validator indexes and node ids within
 * the set, the Byzantine faults' coalition below a third of the power (a fault that would break it
 * is dropped), stake only outside the coalition and at most one exit, spans in whole sprints,
 * faults before the end, height triggers only on one side, the runaway guard for its size and
 * length.
 */
export function fitScenario(s: Scenario): Scenario {
  const n = s.validators.length;
  const p = s.params;
  p.producerCount = Math.max(1, Math.min(p.producerCount, n));
  p.validatorSlots = Math.max(p.validatorSlots, n);
  p.spanDuration = Math.max(p.sprint, Math.ceil(p.spanDuration / p.sprint) * p.sprint);
  p.firstSpanDuration = Math.max(p.sprint, Math.ceil(p.firstSpanDuration / p.sprint) * p.sprint);
  p.producerDelayS = Math.max(p.producerDelayS, p.periodS);
  const stakes = s.validators.map((v) => v.stakeTokens);
  const coalition: number[] = [];
  const faults: FaultSpec[] = [];
  for (const f0 of s.faults) {
    const f = f0 as FaultSpec & Record<string, unknown>;
    if ('node' in f && typeof f.node === 'string') f.node = fitNode(f.node, n);
    if (f.kind === 'setHead') {
      if (!f.node.startsWith('sc-')) f.node = `sc-${wrap(Number(/\d+/.exec(f.node)?.[0] ?? 1), n)}`;
      if (f.blocks !== null) f.blocks = Math.min(f.blocks, SETHEAD_LIMITS.maxBlocks);
      if (f.number !== null) {
        delete f.atHeight;
        f.atMs = Math.min(f.atMs ?? 0, SETHEAD_LIMITS.numberBeforeMs);
        if (f.number > BigInt(SETHEAD_LIMITS.maxNumber)) f.number = BigInt(SETHEAD_LIMITS.maxNumber);
      }
    }
    if (f.kind === 'partition') {
      // A node in one group only (the first that names it).
      const seen = new Set<string>();
      const groups: string[][] = [];
      for (const g of f.groups) {
        const mine = fitNodes(g, n).filter((x) => !seen.has(x));
        for (const x of mine) seen.add(x);
        if (mine.length) groups.push(mine);
      }
      f.groups = groups;
      if (f.groups.length < 2) continue;
    }
    if (f.kind === 'link' || f.kind === 'oneWayPartition') {
      f.from = fitNodes(f.from, n);
      f.to = fitNodes(f.to, n);
    }
    if ('validator' in f && typeof f.validator === 'number') f.validator = wrap(f.validator, n);
    if ('validators' in f && Array.isArray(f.validators))
      f.validators = [...new Set((f.validators as number[]).map((v) => wrap(v, n)))].sort((a, b) => a - b);
    if (COALITION_KINDS.has(f.kind)) {
      const members = 'validators' in f ? (f.validators as number[]) : [f.validator as number];
      const next = [...new Set([...coalition, ...members])];
      if (!coalitionOk(next, stakes)) continue;
      coalition.splice(0, coalition.length, ...next);
    }
    if (f.atRound !== undefined && (f.atHeight || heightChain(f) !== 'service')) delete f.atRound;
    if (f.atHeight && heightChain(f) !== f.atHeight.chain) {
      f.atMs = Math.min(s.durationMs - 1000, f.atHeight.height * 1000);
      delete f.atHeight;
    }
    if (f.atMs !== undefined && f.atMs >= s.durationMs) f.atMs = Math.max(0, s.durationMs - 30_000);
    faults.push(f);
  }
  s.faults = faults;
  const w = s.workload;
  for (const k of ['topups', 'withdrawals', 'stakeUpdates', 'exits', 'signerChanges'] as const) {
    const items = (w[k] ?? []) as Array<{ validator: number }>;
    for (const item of items) item.validator = wrap(item.validator, n);
  }
  w.stakeUpdates = w.stakeUpdates.filter((u) => !coalition.includes(u.validator));
  w.exits = w.exits.slice(0, 1).map((e) => ({ ...e, repeat: 1, everyMs: 0 }));
  if (w.exits.length && n < 2) w.exits = [];
  s.maxEvents = explorerMaxEvents(n, s.durationMs);
  return s;
}

/** A scenario as its repro file gives it back (null when the decoder refuses it). */
export function checked(s: Scenario): Scenario | null {
  try {
    return decodeScenario(JSON.parse(JSON.stringify(encodeScenario(s))));
  } catch {
    return null;
  }
}

export interface Mutation {
  scenario: Scenario;
  /** The operators applied, in order. */
  ops: Mutator[];
}

/**
 * One to three operators on a copy of `parent` (`donor`: another kept run, for splicing), fitted
 * and checked; null when no operator applied or the result does not decode (the explorer then
 * draws again).
 */
export function mutateScenario(rng: Rng, parent: Scenario, donor: Scenario | null): Mutation | null {
  const m = mutateFitted(rng, parent, donor);
  const out = m && checked(m.scenario);
  return m && out ? { scenario: out, ops: m.ops } : null;
}

/** The operators' result, fitted but not yet through the decoder (the property test's subject). */
export function mutateFitted(rng: Rng, parent: Scenario, donor: Scenario | null): Mutation | null {
  const s = structuredClone(parent);
  const count = rng.pick([1, 1, 1, 2, 2, 3]);
  const ops: Mutator[] = [];
  // An operator with nothing to act on (no fault to move) gives way to another draw.
  for (let tries = 0; ops.length < count && tries < 4 * count; tries++) {
    const { op } = weighted(rng, WEIGHTS);
    if (apply(op, rng, s, donor)) ops.push(op);
  }
  return ops.length ? { scenario: fitScenario(s), ops } : null;
}
