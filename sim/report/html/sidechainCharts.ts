/**
 * The sidechain charts of report.html. A few nodes: a height line per node, a lag row per node,
 * a reorg stem per reorg coloured by node. Many nodes: the band of heights (lowest to highest,
 * the median as a line) with the nodes that fell behind named, a compact lag heat map whose rows
 * open the node's detail, and one stem per reorg event (the nodes that made the same switch).
 */
import { type RunResult } from '../../run/run';
import { type HeightBand, type NodeLag, OUTLIER_LAG } from '../aggregate/heightBand';
import { nodeRanges } from '../aggregate/nodeRanges';
import { reorgEvents } from '../aggregate/reorgEvents';
import { type Band, HEAT_LEVELS, heatOpacity, timeChart, type TimeSeries } from './charts';
import { esc, int, seconds } from './format';
import { nodeAnchor } from './nodesSection';
import { type TimelineData } from './timeline';

/** The chart's note names the nodes of the few deepest lags. */
const NAMED_LEVELS = 3;

/** The outliers grouped by their largest lag, deepest first, the first `n` groups. */
export function worstLevels(outliers: readonly NodeLag[], n: number) {
  const byLag = new Map<number, NodeLag[]>();
  for (const l of outliers) byLag.set(l.maxLag, [...(byLag.get(l.maxLag) ?? []), l]);
  return [...byLag.entries()]
    .sort((a, b) => b[0] - a[0])
    .slice(0, n)
    .map(([lag, ls]) => {
      const times = ls.map((l) => l.maxLagAtMs ?? 0);
      const lo = Math.min(...times);
      const hi = Math.max(...times);
      return { lag, nodes: ls.map((l) => l.node), atText: lo === hi ? seconds(lo) : `${seconds(lo)}–${seconds(hi)}` };
    });
}

const unit = (v: number) => `${v} block${v === 1 ? '' : 's'} behind`;

export function heightChart(
  r: RunResult,
  band: HeightBand,
  nodeColor: (node: string) => string,
  bands: Band[],
  aggregate: boolean,
): string {
  const t = band.timeMs;
  if (!aggregate) {
    const heightSeries: TimeSeries[] = band.nodes.map((l) => ({
      key: l.node,
      name: l.node,
      color: nodeColor(l.node),
      kind: 'line',
      points: (r.samples.sidechainHeight[l.node] ?? []).map((h, i): [number, number] => [t[i] ?? 0, h]),
    }));
    return timeChart({
      title: 'Sidechain height per node',
      note: 'head block number, sampled',
      endMs: r.simulatedMs,
      bands,
      panels: [
        { yName: 'block', series: heightSeries, integer: true },
        {
          caption: 'blocks behind the highest head (darker = further behind)',
          timeMs: t,
          rows: band.nodes.map((l) => ({ key: l.node, name: l.node, values: l.lag })),
          unit,
        },
      ],
    });
  }
  const at = (xs: number[]) => xs.map((v, i): [number, number] => [t[i] ?? 0, v]);
  const series: TimeSeries[] = [
    {
      key: 'band',
      name: 'lowest to highest head',
      color: '#0969da',
      kind: 'area',
      points: at(band.max),
      floor: at(band.min),
    },
    { key: 'median', name: 'median head', color: '#0969da', kind: 'line', points: at(band.median) },
  ];
  const byNode = new Map(band.nodes.map((l) => [l.node, l]));
  const outliers = band.outliers;
  // The furthest behind, by how far: "67 blocks: sc-88–sc-105 (at 365.0 s)".
  const levels = worstLevels(outliers, NAMED_LEVELS);
  const named = levels
    .map(
      (x) =>
        `${int(x.lag)} block${x.lag === 1 ? '' : 's'}: ${x.nodes.length === 1 ? `<a href="#${esc(nodeAnchor(x.nodes[0]!))}">${esc(x.nodes[0]!)}</a>` : esc(nodeRanges(x.nodes, { maxItems: 4, countFrom: Number.POSITIVE_INFINITY }))} at ${esc(x.atText)}`,
    )
    .join('; ');
  const footer = outliers.length
    ? `<p class="outliers">${int(outliers.length)} node${outliers.length === 1 ? '' : 's'} fell ${OUTLIER_LAG} or more blocks behind the highest head: ${esc(
        nodeRanges(
          outliers.map((l) => l.node),
          { countFrom: Number.POSITIVE_INFINITY },
        ),
      )}. Furthest behind: ${named}${new Set(outliers.map((l) => l.maxLag)).size > NAMED_LEVELS ? '; …' : ''}.</p>`
    : `<p class="outliers">No node fell ${OUTLIER_LAG} or more blocks behind the highest head at a sample.</p>`;
  const swatches = [1, 2, 3, HEAT_LEVELS]
    .map(
      (v) =>
        `<span class="key"><i style="background:#cf222e;opacity:${heatOpacity(v)}"></i>${v}${v === HEAT_LEVELS ? '+' : ''}</span>`,
    )
    .join('');
  return timeChart({
    title: `Sidechain height across ${int(band.nodes.length)} nodes`,
    note: 'head block number, sampled: the band from the lowest to the highest head, the median as a line',
    endMs: r.simulatedMs,
    bands,
    panels: [
      { yName: 'block', series, integer: true },
      {
        caption: 'blocks behind the highest head, a row per node (click a row for the node)',
        timeMs: t,
        rows: band.nodes.map((l) => ({ key: l.node, name: l.node, values: l.lag })),
        unit,
        compact: {
          href: (row) => `#${nodeAnchor(row.key)}`,
          rowTitle: (row) => {
            const l = byNode.get(row.key)!;
            return l.maxLag === 0
              ? `${row.name}: at the highest head at every sample`
              : `${row.name}: behind at ${l.behindSamples} of ${t.length} samples, at most ${unit(l.maxLag)} (at ${seconds(l.maxLagAtMs ?? 0)})`;
          },
        },
      },
    ],
    footer: `<div class="keys heatkeys">blocks behind: ${swatches}</div>${footer}`,
  });
}

export function reorgChart(
  timeline: TimelineData,
  nodeIds: readonly string[],
  nodeColor: (node: string) => string,
  bands: Band[],
  endMs: number,
  aggregate: boolean,
): string {
  if (!aggregate) {
    const series: TimeSeries[] = nodeIds.map((id, i) => ({
      key: id,
      name: id,
      color: nodeColor(id),
      kind: 'stem',
      dx: (i - (nodeIds.length - 1) / 2) * 2.5,
      points: timeline.reorgs.filter((x) => x.node === id).map((x): [number, number] => [x.atMs, x.depth]),
    }));
    return timeChart({
      title: 'Reorg depth',
      note: 'one stem per reorg, by node (node clock)',
      endMs,
      bands,
      panels: [{ yName: 'depth', series, integer: true }],
    });
  }
  const events = reorgEvents(timeline.reorgs);
  const series: TimeSeries = {
    key: 'reorgs',
    name: 'reorgs',
    color: '#57606a',
    kind: 'stem',
    points: events.map((e): [number, number] => [e.firstMs, e.depth]),
    stemTitle: (_, i) => {
      const e = events[i]!;
      const when = e.firstMs === e.lastMs ? seconds(e.firstMs) : `${seconds(e.firstMs)}–${seconds(e.lastMs)}`;
      return `depth ${e.depth} from block ${e.ancestor}: ${nodeRanges(e.nodes)} at ${when}`;
    },
  };
  return timeChart({
    title: 'Reorg depth',
    note: 'one stem per reorg event: the nodes that left the same block for the same head (node clocks)',
    endMs,
    bands,
    panels: [{ yName: 'depth', series: [series], integer: true }],
  });
}
