/**
 * Faults that fired together: the same kind, starting and healing at the same times (a wave of
 * crashes, say) are one group with the list of their targets. Pure; groups in the order their
 * first fault fired.
 */
import { nodeRanges } from './nodeRanges';

export interface FaultLike {
  index: number;
  kind: string;
  detail: string;
  startMs: number;
  /** When it heals; null if it lasts to the end. */
  endMs: number | null;
}

export interface FaultGroup {
  kind: string;
  startMs: number;
  endMs: number | null;
  /** The scenario indexes of its faults, in firing order. */
  indexes: number[];
  details: string[];
  /** The targets as short text: the detail itself, or the details as ranges (no count: `indexes.length` is it). */
  text: string;
}

export function faultGroups(faults: readonly FaultLike[], opts: { maxItems?: number } = {}): FaultGroup[] {
  const byKey = new Map<string, FaultGroup>();
  for (const f of faults) {
    const key = `${f.kind}|${f.startMs}|${f.endMs ?? 'end'}`;
    const g = byKey.get(key);
    if (g) {
      g.indexes.push(f.index);
      g.details.push(f.detail);
    } else
      byKey.set(key, {
        kind: f.kind,
        startMs: f.startMs,
        endMs: f.endMs,
        indexes: [f.index],
        details: [f.detail],
        text: '',
      });
  }
  const groups = [...byKey.values()];
  for (const g of groups)
    g.text =
      g.details.length === 1 ? g.details[0]! : nodeRanges(g.details, { countFrom: Number.POSITIVE_INFINITY, ...opts });
  return groups;
}
