/**
 * What a scenario uses, item by item (its layout, each parameter's value, the network's, each
 * fault kind with its trigger and whether it lasts to the end, each workload kind, the crypto, the
 * run's length), and whether the explorer's space (space.ts) can draw each item. The scenario suite
 * must be within the explorer's reach, so that a campaign alone can find what the suite finds:
 * `space.test.ts` checks every file of scenarios/ with these.
 */
import { FAULT_KINDS } from '../../faults/registry';
import { DEFAULT_LINK } from '../../core/linkModel';
import { Rng } from '../../env/rng';
import { type Scenario } from '../../scenario/scenario';
import { LAYOUTS, MAX_DURATION_MS, NETWORK_VALUES, PARAM_VALUES } from './space';
import { COALITION_KINDS, PERMANENT_KINDS } from './faultDraws';
import { WORKLOAD_KINDS } from './workloadDraws';

export interface ReachItem {
  /** e.g. `param:sprint=64`, `fault:crash@service`, `workload:balanceOverrides`. */
  item: string;
  reachable: boolean;
}

const stakesText = (s: Scenario) => s.validators.map((v) => v.stakeTokens).join(',');

function layoutReachable(s: Scenario): boolean {
  const text = stakesText(s);
  for (const l of LAYOUTS) {
    if (l.name === 'random') continue;
    if (
      l
        .make(Rng.forSeed('reach'))
        .map((v) => v.stakeTokens)
        .join(',') === text
    )
      return true;
  }
  const n = s.validators.length;
  return n >= 3 && n <= 8 && s.validators.every((v) => v.stakeTokens >= 20n && v.stakeTokens <= 400n);
}

const inList = (list: readonly number[], v: number) => list.includes(v);

function paramReachable(s: Scenario, key: string, v: number | boolean | undefined): boolean {
  const P = PARAM_VALUES;
  const p = s.params;
  const n = s.validators.length;
  switch (key) {
    case 'producerCount':
      return inList(P.producerCount, v as number) || v === Math.min(n, 4);
    case 'spanDuration':
    case 'firstSpanDuration':
      return inList(P.spanBlocks, v as number) || P.spanSprints.some((k) => k * p.sprint === v);
    case 'validatorSlots':
      return v === Math.max(32, n) || ((v as number) >= n && (v as number) <= n + 2);
    case 'jitter':
    case 'sendEnabled':
      return true;
    default: {
      const list = (P as Record<string, readonly number[]>)[key];
      return list !== undefined && inList(list, v as number);
    }
  }
}

function networkReachable(key: string, v: number): boolean {
  if (v === (DEFAULT_LINK as unknown as Record<string, number>)[key] || v === 0) return true;
  if (key === 'latencyMaxMs' && v === 100) return true;
  return inList((NETWORK_VALUES as Record<string, readonly number[]>)[key] ?? [], v);
}

/** Every item the scenario uses, and whether the explorer can draw it. */
export function reachOf(s: Scenario): ReachItem[] {
  const out: ReachItem[] = [];
  const add = (item: string, reachable: boolean) => out.push({ item, reachable });
  add(`layout:${s.validators.length}:${stakesText(s)}`, layoutReachable(s));
  for (const [k, v] of Object.entries(s.params)) add(`param:${k}=${v}`, paramReachable(s, k, v as number));
  for (const [k, v] of Object.entries(s.network)) add(`network:${k}=${v}`, networkReachable(k, v as number));
  add(`duration:${s.durationMs}`, s.durationMs <= MAX_DURATION_MS);
  add(`crypto:${s.crypto}`, true);
  for (const f of s.faults) {
    add(`fault:${f.kind}`, FAULT_KINDS.includes(f.kind));
    if (f.atHeight) add(`fault:${f.kind}@${f.atHeight.chain}`, true);
    if (f.forMs === undefined && f.kind !== 'setHead')
      add(`fault:${f.kind}:permanent`, PERMANENT_KINDS.has(f.kind) || COALITION_KINDS.has(f.kind));
  }
  for (const k of WORKLOAD_KINDS) {
    const w = s.workload[k];
    if (w !== null && w !== undefined && (!Array.isArray(w) || w.length > 0)) add(`workload:${k}`, true);
  }
  if (s.buggify) add('buggify', true);
  return out;
}
