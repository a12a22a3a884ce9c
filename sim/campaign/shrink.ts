/**
 * Shrinking a failing run (delta debugging, Zeller's ddmin): remove faults, then workload items,
 * then calm the network and cut the duration (with the faults that would start after the new
 * end), keeping each reduction only if the run still fails the same oracle. What remains is a
 * scenario a person can read, and one `decodeScenario` accepts.
 */
import { type Scenario, type WorkloadSpec } from '../scenario/scenario';

/** The oracle the run of `scenario` fails first, or null when it passes. */
export type FailureCheck = (scenario: Scenario) => string | null;

export interface ShrinkStats {
  runs: number;
  faultsBefore: number;
  faultsAfter: number;
  durationBeforeMs: number;
  durationAfterMs: number;
}

/** ddmin: the smallest subset of `items` (1-minimal) for which `fails` holds. */
export function ddmin<T>(items: readonly T[], fails: (subset: T[]) => boolean): T[] {
  let current = [...items];
  let n = 2;
  while (current.length >= 2) {
    const chunk = Math.ceil(current.length / n);
    const subsets: T[][] = [];
    for (let i = 0; i < current.length; i += chunk) subsets.push(current.slice(i, i + chunk));
    let reduced = false;
    for (const subset of subsets) {
      if (fails(subset)) {
        current = subset;
        n = 2;
        reduced = true;
        break;
      }
    }
    if (!reduced) {
      for (let i = 0; i < subsets.length; i++) {
        const complement = subsets.filter((_, j) => j !== i).flat();
        if (complement.length && fails(complement)) {
          current = complement;
          n = Math.max(n - 1, 2);
          reduced = true;
          break;
        }
      }
    }
    if (!reduced) {
      if (n >= current.length) break;
      n = Math.min(current.length, n * 2);
    }
  }
  if (current.length === 1 && fails([])) return [];
  return current;
}

type WorkloadList = 'topups' | 'withdrawals' | 'stateSyncs' | 'stakeUpdates' | 'joins' | 'exits' | 'signerChanges';
const LISTS: WorkloadList[] = [
  'topups',
  'withdrawals',
  'stateSyncs',
  'stakeUpdates',
  'joins',
  'exits',
  'signerChanges',
];

export function shrinkScenario(
  original: Scenario,
  oracle: string,
  check: FailureCheck,
  onStep?: (what: string, s: Scenario) => void,
): { scenario: Scenario; stats: ShrinkStats } {
  let runs = 0;
  const fails = (s: Scenario): boolean => {
    runs++;
    return check(s) === oracle;
  };
  let s: Scenario = { ...original };
  if (!fails(s)) throw new Error(`the original run does not fail ${oracle}`);

  // 1. Faults.
  const faults = ddmin(s.faults, (subset) => fails({ ...s, faults: subset }));
  s = { ...s, faults };
  onStep?.('faults', s);

  // 2. Workload: each list, then the periodic traffic.
  for (const key of LISTS) {
    const items = (s.workload[key] ?? []) as unknown[];
    if (items.length === 0) continue;
    const kept = ddmin(items, (subset) => fails({ ...s, workload: { ...s.workload, [key]: subset } as WorkloadSpec }));
    s = { ...s, workload: { ...s.workload, [key]: kept } as WorkloadSpec };
  }
  for (const key of ['transfers', 'multiSends', 'sidechainTxs'] as const) {
    if ((s.workload[key] ?? null) === null) continue;
    const candidate = { ...s, workload: { ...s.workload, [key]: null } };
    if (fails(candidate)) s = candidate;
  }
  // The sidechain wallets' extras: the fast-signed transfers, the pool probes.
  for (const extra of ['fastSignedEveryMs', 'probeEveryMs'] as const) {
    const txs = s.workload.sidechainTxs;
    if (!txs || txs[extra] === undefined) continue;
    const { [extra]: _dropped, ...rest } = txs;
    const candidate = { ...s, workload: { ...s.workload, sidechainTxs: rest } };
    if (fails(candidate)) s = candidate;
  }
  onStep?.('workload', s);

  // 3. The network: no loss, duplication or reordering if the failure does not need them.
  if (s.network.loss || s.network.duplicate || s.network.reorder) {
    const calm = { ...s, network: { ...s.network, loss: 0, duplicate: 0, reorder: 0, reorderMaxMs: 0 } };
    if (fails(calm)) s = calm;
  }

  // 4. Duration: the shortest run (to 10 s) that still fails, by bisection. A cut run drops the
  // faults that would start at or after its end (they never fire, and a scenario file may not
  // hold them), and every candidate is checked in exactly the form it would be written.
  const cut = (x: Scenario, durationMs: number): Scenario => ({
    ...x,
    durationMs,
    faults: x.faults.filter((f) => f.atMs === undefined || f.atMs < durationMs),
  });
  let lo = 10_000;
  let hi = s.durationMs;
  while (hi - lo > 10_000) {
    const mid = Math.floor((lo + hi) / 2 / 10_000) * 10_000;
    if (mid <= lo || mid >= hi) break;
    if (fails(cut(s, mid))) hi = mid;
    else lo = mid;
  }
  s = cut(s, hi);
  onStep?.('duration', s);

  return {
    scenario: s,
    stats: {
      runs,
      faultsBefore: original.faults.length,
      faultsAfter: s.faults.length,
      durationBeforeMs: original.durationMs,
      durationAfterMs: s.durationMs,
    },
  };
}
