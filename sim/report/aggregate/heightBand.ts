/**
 * The sidechain heights of many nodes as one band: at each sample the lowest, median and highest
 * head, each node's lag behind the highest, and the nodes that fell behind (the outliers, named).
 * Pure: a function of the samples and the node order.
 */

/**
 * A node is an outlier when it was at least this many blocks behind the highest head at a sample.
 * One block behind is what a sample taken while a new block is on its way shows (every node, now
 * and then), so it takes two.
 */
export const OUTLIER_LAG = 2;

export interface NodeLag {
  node: string;
  /** Blocks behind the highest head, per sample. */
  lag: number[];
  /** The largest lag, and the first sample time it was reached (null when never behind). */
  maxLag: number;
  maxLagAtMs: number | null;
  /** Samples at which the node was behind at all, and OUTLIER_LAG or more blocks behind. */
  behindSamples: number;
  farSamples: number;
}

export interface HeightBand {
  timeMs: number[];
  min: number[];
  /** The lower median (a height some node had). */
  median: number[];
  max: number[];
  /** In node order. */
  nodes: NodeLag[];
  /** Nodes with maxLag >= OUTLIER_LAG, furthest behind first (ties in node order). */
  outliers: NodeLag[];
}

/** `nodes` gives the order; a node with no samples counts as height 0. */
export function heightBand(timeMs: readonly number[], heights: Record<string, number[]>, nodes: readonly string[]) {
  const series = nodes.map((n) => heights[n] ?? []);
  const min: number[] = [];
  const median: number[] = [];
  const max: number[] = [];
  for (let i = 0; i < timeMs.length; i++) {
    const at = series.map((s) => s[i] ?? 0).sort((a, b) => a - b);
    min.push(at[0] ?? 0);
    median.push(at[Math.floor((at.length - 1) / 2)] ?? 0);
    max.push(at[at.length - 1] ?? 0);
  }
  const lags: NodeLag[] = nodes.map((node, k) => {
    const lag = timeMs.map((_, i) => max[i]! - (series[k]![i] ?? 0));
    let maxLag = 0;
    let maxLagAtMs: number | null = null;
    let behindSamples = 0;
    let farSamples = 0;
    lag.forEach((v, i) => {
      if (v > 0) behindSamples++;
      if (v >= OUTLIER_LAG) farSamples++;
      if (v > maxLag) {
        maxLag = v;
        maxLagAtMs = timeMs[i]!;
      }
    });
    return { node, lag, maxLag, maxLagAtMs, behindSamples, farSamples };
  });
  const outliers = lags
    .map((l, k) => ({ l, k }))
    .filter((x) => x.l.maxLag >= OUTLIER_LAG)
    .sort((a, b) => b.l.maxLag - a.l.maxLag || a.k - b.k)
    .map((x) => x.l);
  return { timeMs: [...timeMs], min, median, max, nodes: lags, outliers } satisfies HeightBand;
}
