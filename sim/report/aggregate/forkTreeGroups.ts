/**
 * Sidechain nodes whose fork trees would be drawn the same: the same head (so the same canonical
 * chain), the same side blocks, and the same reorgs (from the same block, as deep, between the same
 * heads; when they happened may differ). A group is drawn once, with the list of its nodes. Pure.
 */
import { compareNumbers } from '../../../src/core/order';
import { type ReorgRecord, type SidechainReport } from '../../domain/sidechainDomain';

export type SidechainNodeReport = SidechainReport['nodes'][number];

export interface ForkTreeGroup {
  /** The group's nodes, in node order; the first one's report is the one drawn. */
  nodes: string[];
  first: SidechainNodeReport;
  /** The first node's reorgs (the ones drawn), in the order they happened. */
  reorgs: ReorgRecord[];
  /** Every member's reorgs, by node. */
  reorgsOf: Map<string, ReorgRecord[]>;
  /** Members that were down at the end of the run. */
  down: string[];
}

/** Same value = same drawing (times aside). */
export function reorgShape(r: ReorgRecord): string {
  return `${r.commonAncestor}/${r.depth}/${r.oldHead}/${r.newHead}`;
}

function treeKey(n: SidechainNodeReport, reorgs: readonly ReorgRecord[]): string {
  return [
    n.head.hash,
    String(n.sideOmitted),
    n.side.map((b) => b.hash).join(','),
    reorgs
      .map(reorgShape)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .join(','),
  ].join('|');
}

/**
 * Groups in a stable order: the largest first, ties by their first node's position. `nodes` is in
 * node order (the sidechain report's order).
 */
export function groupForkTrees(nodes: readonly SidechainNodeReport[], reorgs: readonly ReorgRecord[]): ForkTreeGroup[] {
  const reorgsByNode = new Map<string, ReorgRecord[]>();
  for (const r of reorgs) {
    const list = reorgsByNode.get(r.node) ?? [];
    list.push(r);
    reorgsByNode.set(r.node, list);
  }
  const byKey = new Map<string, { group: ForkTreeGroup; at: number }>();
  nodes.forEach((n, at) => {
    const own = reorgsByNode.get(n.node) ?? [];
    const key = treeKey(n, own);
    const found = byKey.get(key);
    if (found) {
      found.group.nodes.push(n.node);
      found.group.reorgsOf.set(n.node, own);
      if (!n.alive) found.group.down.push(n.node);
    } else {
      byKey.set(key, {
        at,
        group: {
          nodes: [n.node],
          first: n,
          reorgs: own,
          reorgsOf: new Map([[n.node, own]]),
          down: n.alive ? [] : [n.node],
        },
      });
    }
  });
  return [...byKey.values()]
    .sort((a, b) => b.group.nodes.length - a.group.nodes.length || compareNumbers(a.at, b.at))
    .map((x) => x.group);
}
