/**
 * The fork trees of report.html. Up to EVERY_NODE_UP_TO nodes, each node's tree on its own (open);
 * above it, nodes with identical trees (same head, side blocks and reorgs) share one drawing with
 * their list, the largest groups first, and at most MAX_DRAWN_TREES distinct trees are drawn (the
 * rest are listed with their figures).
 */
import { type ReorgRecord } from '../../domain/sidechainDomain';
import { type RunResult } from '../../run/run';
import { type Scenario } from '../../scenario/scenario';
import { type ForkTreeGroup, groupForkTrees, reorgShape } from '../aggregate/forkTreeGroups';
import { nodeRanges } from '../aggregate/nodeRanges';
import { esc, int, seconds, short } from './format';
import { type ForkTreeInput, forkTreeSvg } from './forkTree';
import { inkOn } from './palette';

/** Distinct trees drawn at most (each can hold hundreds of blocks); the others are listed. */
export const MAX_DRAWN_TREES = 24;
/** The largest groups' trees start open; the others are one click away. */
const OPEN_TREES = 4;
const NEUTRAL = '#57606a';

export interface ForkTreesOptions {
  producer: ForkTreeInput['producer'];
  nodeColor: (node: string) => string;
  aggregate: boolean;
}

/** Where each node's tree is on the page (its group's, when trees are shared), and how many nodes share it. */
export function treeAnchors(r: RunResult, aggregate: boolean): Map<string, { id: string; shared: number }> {
  const out = new Map<string, { id: string; shared: number }>();
  if (!aggregate) {
    for (const n of r.sidechain.nodes) out.set(n.node, { id: `tree-${n.node}`, shared: 1 });
    return out;
  }
  groupForkTrees(r.sidechain.nodes, r.reorgs).forEach((g, k) => {
    for (const node of g.nodes) out.set(node, { id: `tree-${k + 1}`, shared: g.nodes.length });
  });
  return out;
}

function span(times: number[]): string {
  const lo = Math.min(...times);
  const hi = Math.max(...times);
  return lo === hi ? seconds(lo) : `${seconds(lo)}–${seconds(hi)}`;
}

function legendHtml(r: RunResult, producer: ForkTreesOptions['producer']): string {
  const seen = new Map<number, string>();
  for (const n of r.sidechain.nodes) {
    for (const b of n.canonical) seen.set(producer(b.signer).index ?? 0, producer(b.signer).color);
    for (const b of n.side) seen.set(producer(b.signer).index ?? 0, producer(b.signer).color);
  }
  const legendKeys = [...seen.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(
      ([index, color]) =>
        `<span class="key"><i style="background:${color}"></i>${index === 0 ? 'other signer' : `validator ${index}`}</span>`,
    );
  return `<div class="keys">${legendKeys.join('')}<span class="key"><svg width="22" height="12"><rect x="1" y="1" width="20" height="10" rx="2" fill="#8c959f" stroke="#24292f"/><path d="M14 1 H19 Q21 1 21 3 V7 Z" fill="#24292f"/></svg> backup (out of turn)</span><span class="key"><svg width="22" height="12"><rect x="1" y="1" width="20" height="10" rx="2" fill="#8c959f" fill-opacity=".4" stroke="#cf222e" stroke-dasharray="3 2"/></svg> side block (lost the fork choice)</span><span class="key" style="color:#cf222e"><b>−d</b> a reorg of depth d off this block (×n: n reorgs)</span><span class="key"><svg width="22" height="12"><rect x="1" y="1" width="20" height="10" rx="2" fill="#8c959f" fill-opacity=".4" stroke="#cf222e" stroke-width="2.5"/></svg> a head the node reorged away from</span><span class="key">… k … : canonical blocks with no fork, folded</span></div>`;
}

function statsText(n: ForkTreeGroup['first'], s: { side: number; forks: number; reorgs: number; deepest: number }) {
  return [
    `head #${n.head.number}`,
    `${int(s.side)} side block${s.side === 1 ? '' : 's'}${n.sideOmitted ? ` (${int(n.sideOmitted)} oldest not shown)` : ''}`,
    `${s.forks} fork${s.forks === 1 ? '' : 's'}`,
    `${s.reorgs} reorg${s.reorgs === 1 ? '' : 's'}${s.reorgs ? `, deepest ${s.deepest}` : ''}`,
  ];
}

export function forkTreesSection(scenario: Scenario, r: RunResult, opts: ForkTreesOptions): string {
  const parts: string[] = ['<section id="forks"><h2>Sidechain fork trees</h2>', legendHtml(r, opts.producer)];
  if (!opts.aggregate) {
    parts.push(
      '<p class="desc">Hover a block for its hash, producer and difficulty; the same block lights up in every node’s tree.</p>',
    );
    for (const n of r.sidechain.nodes) {
      const tree = forkTreeSvg({
        node: n.node,
        alive: n.alive,
        head: n.head,
        canonical: n.canonical,
        side: n.side,
        sideOmitted: n.sideOmitted,
        reorgs: r.reorgs.filter((x) => x.node === n.node),
        epochMs: scenario.epochMs,
        producer: opts.producer,
      });
      const summary = [...statsText(n, tree.stats), ...(n.alive ? [] : ['down at the end'])].join(' · ');
      const color = opts.nodeColor(n.node);
      parts.push(
        `<details class="tree" id="tree-${esc(n.node)}" open><summary><h3><span class="verdict" style="background:${color};color:${inkOn(color)}">${esc(n.node)}</span></h3>${esc(summary)} <span class="mono">${esc(short(n.head.hash, 10))}</span></summary><div class="scroll">${tree.svg}</div></details>`,
      );
    }
    parts.push('</section>');
    return parts.join('\n');
  }

  const groups = groupForkTrees(r.sidechain.nodes, r.reorgs);
  const byNode = new Map(r.sidechain.nodes.map((n) => [n.node, n]));
  parts.push(
    `<p class="desc">${int(r.sidechain.nodes.length)} nodes, ${int(groups.length)} distinct tree${groups.length === 1 ? '' : 's'}: nodes with the same head, the same side blocks and the same reorgs share one drawing (the largest groups first${groups.length > MAX_DRAWN_TREES ? `; the first ${MAX_DRAWN_TREES} are drawn, the others listed below them` : ''}). Hover a block for its hash, producer and difficulty; the same block lights up in every tree.</p>`,
  );
  const rest: string[] = [];
  groups.forEach((g, k) => {
    const id = `tree-${k + 1}`;
    const who = nodeRanges(g.nodes, { maxItems: 6, countFrom: Number.POSITIVE_INFINITY });
    const fullList = nodeRanges(g.nodes);
    const n = g.first;
    // When the members made each drawn reorg, and imported each side block.
    const reorgWhen = (x: ReorgRecord) => {
      const shape = reorgShape(x);
      const times: number[] = [];
      for (const list of g.reorgsOf.values())
        for (const y of list) if (reorgShape(y) === shape) times.push(y.atMs - scenario.epochMs);
      return g.nodes.length === 1 ? `at ${span(times)}` : `on each of the ${g.nodes.length} nodes, at ${span(times)}`;
    };
    const imported = new Map<string, number[]>();
    for (const node of g.nodes)
      for (const b of byNode.get(node)?.side ?? [])
        imported.set(b.hash, [...(imported.get(b.hash) ?? []), b.importedAtMs]);
    const importedWhen = (hash: string) =>
      `imported at ${span((imported.get(hash) ?? [0]).map((t) => t - scenario.epochMs))}${g.nodes.length > 1 ? ' (first to last node)' : ''}`;
    const down = g.down.length ? [`${nodeRanges(g.down, { maxItems: 4 })} down at the end`] : [];
    const tree = forkTreeSvg({
      node: n.node,
      alive: n.alive,
      head: n.head,
      canonical: n.canonical,
      side: n.side,
      sideOmitted: n.sideOmitted,
      reorgs: g.reorgs,
      epochMs: scenario.epochMs,
      producer: opts.producer,
      who: g.nodes.length === 1 ? n.node : `${who}`,
      reorgWhen,
      importedWhen,
    });
    const summary = [...statsText(n, tree.stats), ...down].join(' · ');
    if (k >= MAX_DRAWN_TREES) {
      rest.push(
        `<tr id="${id}"><td class="num">${k + 1}</td><td>${esc(fullList)}</td><td>${esc(summary)}</td><td class="mono">${esc(short(n.head.hash, 10))}</td></tr>`,
      );
      return;
    }
    const chip = `${g.nodes.length === 1 ? esc(n.node) : `${int(g.nodes.length)} nodes`}`;
    parts.push(
      `<details class="tree" id="${id}" data-nodes="${esc(g.nodes.join(' '))}"${k < OPEN_TREES ? ' open' : ''}><summary><h3><span class="verdict" style="background:${NEUTRAL};color:#ffffff">${chip}</span></h3>${g.nodes.length === 1 ? '' : `${esc(who)} · `}${esc(summary)} <span class="mono">${esc(short(n.head.hash, 10))}</span></summary>` +
        (who.includes('…') ? `<p class="members">${esc(fullList)}</p>` : '') +
        `<div class="scroll">${tree.svg}</div></details>`,
    );
  });
  if (rest.length)
    parts.push(
      `<details class="tree"><summary><h3>${int(rest.length)} more distinct tree${rest.length === 1 ? '' : 's'}, not drawn</h3></summary><table><tr><th>#</th><th>nodes</th><th>tree</th><th>head</th></tr>${rest.join('')}</table></details>`,
    );
  parts.push('</section>');
  return parts.join('\n');
}
