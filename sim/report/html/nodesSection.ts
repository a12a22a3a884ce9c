/**
 * Per-node detail on demand: one closed <details> per sidechain node (its summary is one line:
 * head, how far and how often it was behind, reorgs, faults), opened by a click, by the node
 * picker, or by a link to `#node-<id>` (a row of the lag heat map). Inside: when it was behind the
 * highest head (a strip and its periods), its reorgs, the faults that named it or its validator's
 * service node, and where its fork tree is.
 */
import { compareNumbers } from '../../../src/core/order';
import { type RunResult } from '../../run/run';
import { type Scenario } from '../../scenario/scenario';
import { type HeightBand, type NodeLag, OUTLIER_LAG } from '../aggregate/heightBand';
import { esc, int, px, seconds, short, timeLabel, timeTicks } from './format';
import { type TimelineFault } from './timeline';

/** At most this many periods behind the head are listed per node (the first ones). */
const MAX_PERIODS = 12;
const W = 540;
const H = 46;
const L = 46;
const R = 14;

export function nodeAnchor(node: string): string {
  return `node-${node}`;
}

/** Does a fault's detail name this sidechain node, its validator's service node, or its validator? */
export function faultNames(detail: string, node: string, validator: number): boolean {
  const tokens = detail.split(/[\s,+|]+/);
  const ids = new Set([node, `svc-${validator}`]);
  if (tokens.some((t) => ids.has(t))) return true;
  // "validator 3", "validator 3 +5s", "validators 1, 4".
  const listed = /^validators? ([\d, ]+)/.exec(detail);
  return listed !== null && listed[1]!.split(/[, ]+/).includes(String(validator));
}

/** Runs of samples behind the highest head: from the first such sample to the next sample at the head. */
export function behindPeriods(timeMs: readonly number[], lag: readonly number[], endMs: number) {
  const out: Array<{ fromMs: number; toMs: number; most: number; samples: number }> = [];
  let i = 0;
  while (i < lag.length) {
    if ((lag[i] ?? 0) === 0) {
      i++;
      continue;
    }
    let j = i;
    let most = 0;
    while (j < lag.length && (lag[j] ?? 0) > 0) most = Math.max(most, lag[j++]!);
    out.push({ fromMs: timeMs[i]!, toMs: timeMs[j] ?? endMs, most, samples: j - i });
    i = j;
  }
  return out;
}

function lagStrip(l: NodeLag, timeMs: readonly number[], endMsIn: number, faults: TimelineFault[]): string {
  const endMs = Math.max(1, endMsIn);
  const X = (ms: number) => L + (Math.max(0, Math.min(endMs, ms)) / endMs) * (W - L - R);
  const top = 4;
  const base = H - 16;
  const Y = (v: number) => base - (v / Math.max(1, l.maxLag)) * (base - top);
  const out: string[] = [
    `<svg class="strip" viewBox="0 0 ${W} ${H}" role="img" aria-label="blocks behind, ${esc(l.node)}">`,
  ];
  for (const f of faults)
    out.push(
      `<rect class="band" x="${px(X(f.startMs))}" y="${top}" width="${px(Math.max(1, X(f.endMs ?? endMs) - X(f.startMs)))}" height="${base - top}"/>`,
    );
  for (const t of timeTicks(endMs)) out.push(`<text class="tick" x="${px(X(t))}" y="${H - 4}">${timeLabel(t)}</text>`);
  out.push(
    `<line class="axis" x1="${L}" y1="${base}" x2="${W - R}" y2="${base}"/><text class="ytick" x="${L - 5}" y="${px(top + 8)}">${l.maxLag}</text><text class="ytick" x="${L - 5}" y="${base}">0</text>`,
  );
  // A step line: each sample's lag holds until the next sample; equal runs are one segment.
  let d = `M${px(X(timeMs[0] ?? 0))} ${px(Y(0))}`;
  let prev = -1;
  timeMs.forEach((t, i) => {
    const v = l.lag[i] ?? 0;
    if (v !== prev) d += `H${px(X(t))}V${px(Y(v))}`;
    prev = v;
  });
  d += `H${px(X(endMs))}V${px(Y(0))}Z`;
  out.push(
    `<path class="lag" d="${d}"><title>${esc(`${l.node}: blocks behind the highest head, sampled; at most ${l.maxLag}${l.maxLagAtMs !== null ? ` at ${seconds(l.maxLagAtMs)}` : ''}`)}</title></path>`,
  );
  out.push('</svg>');
  return out.join('');
}

export interface NodesSectionInput {
  scenario: Scenario;
  result: RunResult;
  band: HeightBand;
  faults: TimelineFault[];
  trees: Map<string, { id: string; shared: number }>;
}

export function nodesSection(p: NodesSectionInput): string {
  const r = p.result;
  const nodes = r.sidechain.nodes;
  const lagOf = new Map(p.band.nodes.map((l) => [l.node, l]));
  const samples = p.band.timeMs.length;
  const parts: string[] = ['<section id="nodes"><h2>Nodes</h2>'];
  parts.push(
    `<p class="desc">One line per sidechain node (sidechain node <i>i</i> belongs to validator <i>i</i>); open one for when it was behind the highest head, its reorgs, the faults that named it and its fork tree. <label>Open a node: <select id="nodepick"><option value="">pick…</option>${nodes.map((n) => `<option value="${esc(n.node)}">${esc(n.node)}</option>`).join('')}</select></label></p>`,
  );
  parts.push('<div class="nodes">');
  nodes.forEach((n, i) => {
    const validator = i + 1;
    const l = lagOf.get(n.node)!;
    const reorgs = r.reorgs.filter((x) => x.node === n.node).sort((a, b) => compareNumbers(a.atMs, b.atMs));
    const faults = p.faults.filter((f) => faultNames(f.detail, n.node, validator));
    const tree = p.trees.get(n.node);
    const deepest = reorgs.reduce((m, x) => Math.max(m, x.depth), 0);
    const line = [
      `validator ${validator}`,
      `head #${n.head.number}${n.alive ? '' : ', down at the end'}`,
      l.maxLag === 0
        ? 'never behind'
        : l.maxLag < OUTLIER_LAG
          ? `at most ${int(l.maxLag)} block behind (at ${l.behindSamples} of ${samples} samples)`
          : `at most ${int(l.maxLag)} blocks behind (${OUTLIER_LAG}+ at ${l.farSamples} of ${samples} samples)`,
      reorgs.length ? `${reorgs.length} reorg${reorgs.length === 1 ? '' : 's'} (deepest ${deepest})` : 'no reorg',
      ...(faults.length ? [`${faults.length} fault${faults.length === 1 ? '' : 's'}`] : []),
    ].join(' · ');
    const body: string[] = [];
    if (l.maxLag > 0) {
      body.push(lagStrip(l, p.band.timeMs, r.simulatedMs, faults));
      // A single sample one block behind is a block on its way; longer or deeper periods are listed.
      const all = behindPeriods(p.band.timeMs, l.lag, r.simulatedMs);
      const periods = all.filter((x) => x.most >= OUTLIER_LAG || x.samples > 1);
      const blips = all.length - periods.length;
      if (blips)
        body.push(
          `<p>${int(blips)} single sample${blips === 1 ? '' : 's'} one block behind (a new block on its way).</p>`,
        );
      if (periods.length)
        body.push(
          `<table><tr><th>behind from</th><th>to</th><th>at most</th></tr>${periods
            .slice(0, MAX_PERIODS)
            .map(
              (x) =>
                `<tr><td class="num">${esc(seconds(x.fromMs))}</td><td class="num">${esc(seconds(x.toMs))}</td><td class="num">${int(x.most)}</td></tr>`,
            )
            .join(
              '',
            )}${periods.length > MAX_PERIODS ? `<tr><td colspan="3">… ${periods.length - MAX_PERIODS} more</td></tr>` : ''}</table>`,
        );
    } else body.push('<p>At the highest head at every sample.</p>');
    if (reorgs.length)
      body.push(
        `<table><tr><th>reorg at</th><th>depth</th><th>from block</th><th>old head → new head</th></tr>${reorgs
          .map(
            (x) =>
              `<tr><td class="num">${esc(seconds(x.atMs - p.scenario.epochMs))}</td><td class="num">${x.depth}</td><td class="num">${esc(x.commonAncestor)}</td><td class="mono">${esc(short(x.oldHead, 8))} → ${esc(short(x.newHead, 8))}</td></tr>`,
          )
          .join('')}</table>`,
      );
    if (faults.length)
      body.push(
        `<table><tr><th>fault</th><th>target</th><th>from</th><th>to</th></tr>${faults
          .map(
            (f) =>
              `<tr><td>${esc(f.kind)}</td><td>${esc(f.detail)}</td><td class="num">${esc(seconds(f.startMs))}</td><td class="num">${f.endMs === null ? 'end' : esc(seconds(f.endMs))}</td></tr>`,
          )
          .join('')}</table>`,
      );
    if (tree)
      body.push(
        `<p>Fork tree: <a href="#${esc(tree.id)}">${tree.shared > 1 ? `shared with ${int(tree.shared - 1)} other node${tree.shared === 2 ? '' : 's'}` : 'its own'}</a> · ${int(n.side.length + n.sideOmitted)} side block${n.side.length + n.sideOmitted === 1 ? '' : 's'} · head <span class="mono">${esc(short(n.head.hash, 10))}</span></p>`,
      );
    parts.push(
      `<details class="node" id="${esc(nodeAnchor(n.node))}"><summary><b>${esc(n.node)}</b> ${esc(line)}</summary><div class="nd">${body.join('')}</div></details>`,
    );
  });
  parts.push('</div></section>');
  return parts.join('\n');
}
