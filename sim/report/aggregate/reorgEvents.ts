/**
 * Reorgs across nodes as events: the nodes that left the same block for the same new head, as
 * deep, are one event (a returning producer's catch-up, a healed partition), with when the first
 * and the last node made the switch. Pure.
 */
import { compareNumbers, compareStrings } from '../../../src/core/order';
import { compareNodeIds } from './nodeRanges';

export interface ReorgLike {
  node: string;
  /** Virtual ms on the run's clock. */
  atMs: number;
  depth: number;
  ancestor: string;
  newHead?: string;
}

export interface ReorgEvent {
  depth: number;
  ancestor: string;
  firstMs: number;
  lastMs: number;
  /** In node order, each once (a node that made the same switch twice counts once). */
  newHead: string;
  nodes: string[];
  count: number;
}

export function reorgEvents(reorgs: readonly ReorgLike[]): ReorgEvent[] {
  const byKey = new Map<string, ReorgEvent>();
  for (const r of reorgs) {
    const key = `${r.ancestor}/${r.depth}/${r.newHead ?? ''}`;
    const e = byKey.get(key);
    if (!e) {
      byKey.set(key, {
        depth: r.depth,
        ancestor: r.ancestor,
        newHead: r.newHead ?? '',
        firstMs: r.atMs,
        lastMs: r.atMs,
        nodes: [r.node],
        count: 1,
      });
      continue;
    }
    e.firstMs = Math.min(e.firstMs, r.atMs);
    e.lastMs = Math.max(e.lastMs, r.atMs);
    if (!e.nodes.includes(r.node)) e.nodes.push(r.node);
    e.count++;
  }
  const events = [...byKey.values()];
  for (const e of events) e.nodes.sort(compareNodeIds);
  return events.sort(
    (a, b) =>
      compareNumbers(a.firstMs, b.firstMs) ||
      b.depth - a.depth ||
      compareStrings(a.ancestor, b.ancestor) ||
      compareStrings(a.newHead, b.newHead),
  );
}
