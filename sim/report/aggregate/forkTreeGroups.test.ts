import { describe, expect, it } from 'vitest';
import { syntheticRun } from '../testing/syntheticRun';
import { groupForkTrees } from './forkTreeGroups';

describe('fork tree groups', () => {
  const { result: r } = syntheticRun(105);

  it('nodes with the same head, side blocks and reorgs share a group; each node is in exactly one', () => {
    const groups = groupForkTrees(r.sidechain.nodes, r.reorgs);
    expect(groups.map((g) => g.nodes.length)).toEqual([67, 18, 16, 3, 1]);
    expect(groups[0]!.nodes[0]).toBe('sc-4');
    expect(groups[3]!.nodes).toEqual(['sc-1', 'sc-2', 'sc-3']);
    const all = groups.flatMap((g) => g.nodes);
    expect(new Set(all).size).toBe(105);
    expect(all).toHaveLength(105);
    // A group's nodes really have the same tree: same head, same side blocks, reorgs of the same shape.
    const byNode = new Map(r.sidechain.nodes.map((n) => [n.node, n]));
    for (const g of groups)
      for (const node of g.nodes) {
        const n = byNode.get(node)!;
        expect(n.head.hash).toBe(g.first.head.hash);
        expect(n.side.map((b) => b.hash)).toEqual(g.first.side.map((b) => b.hash));
        expect(g.reorgsOf.get(node)!.map((x) => [x.commonAncestor, x.depth, x.newHead])).toEqual(
          g.reorgs.map((x) => [x.commonAncestor, x.depth, x.newHead]),
        );
      }
  });

  it('when a reorg happened does not split a group; a different head, side block or reorg does', () => {
    const nodes = r.sidechain.nodes.slice(0, 3); // sc-1..sc-3: one reorg each, at different times
    expect(new Set(r.reorgs.filter((x) => nodes.some((n) => n.node === x.node)).map((x) => x.atMs)).size).toBe(3);
    expect(groupForkTrees(nodes, r.reorgs)).toHaveLength(1);
    const deeper = r.reorgs.map((x) => (x.node === 'sc-2' ? { ...x, depth: x.depth + 1 } : x));
    expect(groupForkTrees(nodes, deeper).map((g) => g.nodes)).toEqual([['sc-1', 'sc-3'], ['sc-2']]);
    const oneSideLess = nodes.map((n) => (n.node === 'sc-3' ? { ...n, side: n.side.slice(1) } : n));
    expect(groupForkTrees(oneSideLess, r.reorgs).map((g) => g.nodes)).toEqual([['sc-1', 'sc-2'], ['sc-3']]);
    // Down at the end does not change the tree; the group says who.
    const down = nodes.map((n) => (n.node === 'sc-2' ? { ...n, alive: false } : n));
    const [g] = groupForkTrees(down, r.reorgs);
    expect(g!.nodes).toHaveLength(3);
    expect(g!.down).toEqual(['sc-2']);
  });

  it('the same input gives the same groups in the same order', () => {
    const a = groupForkTrees(r.sidechain.nodes, r.reorgs).map((g) => g.nodes.join(','));
    const b = groupForkTrees([...r.sidechain.nodes], [...r.reorgs].reverse()).map((g) => g.nodes.join(','));
    expect(b).toEqual(a);
  });
});
