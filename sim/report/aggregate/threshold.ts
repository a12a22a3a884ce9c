/**
 * Up to this many sidechain nodes, the reports show every node on its own (a line, a fork tree, a
 * timeline row each); above it they aggregate: a band of heights with the outliers named, a lag
 * heat map, identical fork trees drawn once with their node list, reorgs as events across nodes,
 * per-node detail on demand. Sixteen lines on one chart are still told apart; a hundred are not.
 */
export const EVERY_NODE_UP_TO = 16;

export function aggregateNodes(nodeCount: number): boolean {
  return nodeCount > EVERY_NODE_UP_TO;
}
