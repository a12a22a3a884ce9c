/**
 * A list of node ids as short text: runs of consecutive numbers under one prefix become ranges
 * ("sc-1, sc-4–sc-9, svc-2"), long lists are cut with the count ("sc-1, sc-4–sc-9, … (97 nodes)").
 * Pure: the same ids in any order give the same text.
 */
import { compareNumbers, compareStrings } from '../../../src/core/order';

export interface NodeRangeOptions {
  /** At most this many items (a node or a range) before "…" (default: all). */
  maxItems?: number;
  /** Append "(N nodes)" when there are at least this many ids (default 4). */
  countFrom?: number;
}

/** `sc-12` → ["sc-", 12]; an id without a trailing number → [id, null]. */
export function splitNodeId(id: string): [string, number | null] {
  const m = /^(.*?)(\d+)$/.exec(id);
  return m ? [m[1]!, Number(m[2])] : [id, null];
}

/** Node order: by prefix, then by number (sc-2 before sc-10), then as text. */
export function compareNodeIds(a: string, b: string): number {
  const [pa, na] = splitNodeId(a);
  const [pb, nb] = splitNodeId(b);
  return (
    compareStrings(pa, pb) ||
    (na === null || nb === null ? compareNumbers(na === null ? 0 : 1, nb === null ? 0 : 1) : compareNumbers(na, nb)) ||
    compareStrings(a, b)
  );
}

/** The items of the list: "sc-1", "sc-4–sc-9" (three or more consecutive numbers make a range). */
export function nodeRangeItems(ids: readonly string[]): string[] {
  const sorted = [...new Set(ids)].sort(compareNodeIds);
  const items: string[] = [];
  let i = 0;
  while (i < sorted.length) {
    const [prefix, n] = splitNodeId(sorted[i]!);
    let j = i + 1;
    if (n !== null) {
      for (;;) {
        if (j >= sorted.length) break;
        const [p, m] = splitNodeId(sorted[j]!);
        if (p !== prefix || m !== n + (j - i)) break;
        j++;
      }
    }
    if (j - i >= 3) items.push(`${sorted[i]}–${sorted[j - 1]}`);
    else for (let k = i; k < j; k++) items.push(sorted[k]!);
    i = j;
  }
  return items;
}

export function nodeRanges(ids: readonly string[], opts: NodeRangeOptions = {}): string {
  const items = nodeRangeItems(ids);
  const count = new Set(ids).size;
  const max = opts.maxItems ?? Number.POSITIVE_INFINITY;
  const shown = items.length > max ? [...items.slice(0, Math.max(1, max)), '…'] : items;
  const countNote = count >= (opts.countFrom ?? 4) ? ` (${count} nodes)` : '';
  return `${shown.join(', ')}${countNote}`;
}
