/**
 * The run's timeline for report.html: faults (start to end), span commits, checkpoints (buffered
 * to acked), no-acks and sidechain reorgs on one time axis. `timelineData` picks the events out of
 * a run (deduplicated: every service node records the same commit); `timelineSvg` draws them.
 */
import { compareBig, compareNumbers, compareStrings } from '../../../src/core/order';
import { type RunResult } from '../../run/run';
import { type Scenario } from '../../scenario/scenario';
import { mainFacts } from '../mainFacts';
import { faultGroups } from '../aggregate/faultGroups';
import { nodeRanges } from '../aggregate/nodeRanges';
import { reorgEvents } from '../aggregate/reorgEvents';
import { esc, px, seconds, timeLabel, timeTicks } from './format';

export interface TimelineFault {
  index: number;
  kind: string;
  detail: string;
  startMs: number;
  /** When it healed; null if it lasts to the end of the scenario. */
  endMs: number | null;
}

export interface TimelineData {
  endMs: number;
  faults: TimelineFault[];
  spans: Array<{ id: string; start: string; end: string; atMs: number }>;
  checkpoints: Array<{
    number: string | null;
    start: string;
    end: string | null;
    bufferedMs: number | null;
    ackedMs: number | null;
  }>;
  noAcks: Array<{ height: string; atMs: number }>;
  /** atMs on the run's clock (the node's clock minus the epoch). */
  reorgs: Array<{ node: string; atMs: number; depth: number; ancestor: string; newHead: string }>;
}

const str = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : '';

export function timelineData(scenario: Scenario, r: RunResult): TimelineData {
  const faults = r.faultsFired.map((f) => {
    const spec = scenario.faults[f.index];
    return {
      index: f.index,
      kind: f.kind,
      detail: f.detail,
      startMs: f.atMs,
      endMs: spec?.forMs !== undefined ? f.atMs + spec.forMs : null,
    };
  });
  // The first record of each span, checkpoint and no-ack (every service node records it).
  const spans = new Map<string, { id: string; start: string; end: string; atMs: number }>();
  const acks = new Map<string, { number: string; end: string; atMs: number }>();
  const noAcks = new Map<string, { height: string; atMs: number }>();
  const main = mainFacts(r);
  for (const rec of main.records) {
    const o = rec.obs;
    if (o.kind !== 'service.commit') continue;
    for (const w of o.writes) {
      if (w.what === 'span' && w.id > 0n) {
        const id = str(w.id);
        if (!spans.has(id)) spans.set(id, { id, start: str(w.startBlock), end: str(w.endBlock), atMs: rec.t });
      } else if (w.what === 'checkpoint') {
        const start = str(w.startBlock);
        if (!acks.has(start)) acks.set(start, { number: str(w.number), end: str(w.endBlock), atMs: rec.t });
      }
    }
    for (const t of o.txs) {
      if (t.code !== 0 || t.msg?.type !== 'checkpoint/MsgCheckpointNoACK') continue;
      const height = str(o.height);
      if (!noAcks.has(height)) noAcks.set(height, { height, atMs: rec.t });
    }
  }
  const checkpointTimes = new Map(main.checkpointTimes.map((c) => [c.startBlock, c]));
  const starts = new Set<string>([...checkpointTimes.keys(), ...acks.keys()]);
  const checkpoints = [...starts]
    .sort((a, b) => compareBig(BigInt(a || '0'), BigInt(b || '0')) || compareStrings(a, b))
    .map((start) => {
      const times = checkpointTimes.get(start);
      const ack = acks.get(start);
      return {
        number: ack?.number ?? null,
        start,
        end: ack?.end ?? null,
        bufferedMs: times?.bufferedMs ?? null,
        ackedMs: times?.ackedMs ?? ack?.atMs ?? null,
      };
    });
  const byId = (a: { id: string }, b: { id: string }) => compareBig(BigInt(a.id || '0'), BigInt(b.id || '0'));
  return {
    endMs: r.simulatedMs,
    faults,
    spans: [...spans.values()].sort((a, b) => a.atMs - b.atMs || byId(a, b)),
    checkpoints,
    noAcks: [...noAcks.values()].sort(
      (a, b) => a.atMs - b.atMs || compareBig(BigInt(a.height || '0'), BigInt(b.height || '0')),
    ),
    reorgs: r.reorgs
      .map((x) => ({
        node: x.node,
        atMs: x.atMs - scenario.epochMs,
        depth: x.depth,
        ancestor: x.commonAncestor,
        newHead: x.newHead,
      }))
      .sort((a, b) => compareNumbers(a.atMs, b.atMs) || compareStrings(a.node, b.node) || a.depth - b.depth),
  };
}

const WIDTH = 1120;
const GUTTER = 112;
const RIGHT = 24;
const SUB_H = 20;
const CHAR_W = 6.3;

/** Greedy rows for intervals [x0, x1] (pixels): the first row where it does not overlap. */
function pack(items: Array<{ x0: number; x1: number }>): number[] {
  const ends: number[] = [];
  return items.map((it) => {
    let row = 0;
    while (row < ends.length && ends[row]! > it.x0 - 6) row++;
    ends[row] = it.x1;
    return row;
  });
}

/**
 * `aggregate`: reorgs as events across nodes on one lane (many nodes) rather than a row per node
 * that reorged. Faults that fired and healed together are always one row.
 */
export function timelineSvg(
  data: TimelineData,
  nodeColor: (node: string) => string,
  nodeOrder: (node: string) => number,
  aggregate = false,
): string {
  const endMs = Math.max(1, data.endMs);
  const plotW = WIDTH - GUTTER - RIGHT;
  const X = (ms: number) => GUTTER + (Math.max(0, Math.min(endMs, ms)) / endMs) * plotW;
  const body: string[] = [];
  const lanes: Array<{ name: string; y: number; h: number }> = [];
  let y = 26;

  const lane = (name: string, rows: number, draw: (top: number) => void) => {
    const h = Math.max(1, rows) * SUB_H + 8;
    lanes.push({ name, y, h });
    draw(y + 4);
    y += h;
  };
  // A label right of x, or left of it when it would run off the plot.
  const label = (x: number, width: number) =>
    x + 6 + width > WIDTH - RIGHT ? { x: x - 6, anchor: 'end' } : { x: x + 6, anchor: 'start' };

  // Faults: one row each; faults of one kind that fired and healed together share a row.
  const faults = faultGroups(data.faults, { maxItems: 6 });
  lane('faults', faults.length, (top) => {
    if (faults.length === 0) body.push(`<text class="none" x="${GUTTER + 6}" y="${top + 13}">no faults fired</text>`);
    faults.forEach((f, i) => {
      const x0 = X(f.startMs);
      const healed = f.endMs !== null && f.endMs <= endMs;
      const x1 = f.endMs === null ? X(endMs) : X(f.endMs);
      const ry = top + i * SUB_H + 3;
      const many = f.indexes.length > 1;
      const text = `${f.kind}${many ? ` ×${f.indexes.length}` : ''} ${f.text}`;
      const tw = text.length * CHAR_W;
      const what = many
        ? `faults ${nodeRanges(f.indexes.map(String), { maxItems: 8, countFrom: Number.POSITIVE_INFINITY })}: ${f.kind} on ${nodeRanges(f.details)}`
        : `fault ${f.indexes[0]}: ${f.kind} (${f.text})`;
      const title = `${what}\nfrom ${seconds(f.startMs)} ${f.endMs === null ? 'to the end (permanent)' : `to ${seconds(f.endMs)}${healed ? '' : ' (after the run ended)'}`}`;
      const inside = x1 - x0 > tw + 10;
      const l = inside ? { x: x0 + 5, anchor: 'start' } : label(x1, tw);
      body.push(
        `<g class="fault"><title>${esc(title)}</title><rect x="${px(x0)}" y="${px(ry)}" width="${px(Math.max(2, x1 - x0))}" height="${SUB_H - 6}" rx="3"${healed ? '' : ' class="open"'}/>` +
          `<text x="${px(l.x)}" y="${px(ry + 10.5)}" text-anchor="${l.anchor}"${inside ? ' class="in"' : ''}>${esc(text)}</text></g>`,
      );
    });
  });

  // Spans: a tick at the first commit of each, labels packed.
  const spanItems = data.spans.map((s) => {
    const x = X(s.atMs);
    const text = `span ${s.id} [${s.start}–${s.end}]`;
    return { x, text, x0: x, x1: x + 8 + text.length * CHAR_W, s };
  });
  const spanRows = pack(spanItems);
  lane('spans', Math.max(1, ...spanRows.map((r) => r + 1)), (top) => {
    if (spanItems.length === 0)
      body.push(`<text class="none" x="${GUTTER + 6}" y="${top + 13}">no span committed</text>`);
    spanItems.forEach((it, i) => {
      const ry = top + spanRows[i]! * SUB_H;
      body.push(
        `<g class="span"><title>${esc(`span ${it.s.id}: blocks ${it.s.start}–${it.s.end}, committed at ${seconds(it.s.atMs)}`)}</title><line x1="${px(it.x)}" y1="${px(top - 2)}" x2="${px(it.x)}" y2="${px(ry + SUB_H - 4)}"/><circle cx="${px(it.x)}" cy="${px(ry + 8)}" r="3.5"/><text x="${px(it.x + 6)}" y="${px(ry + 11.5)}">${esc(it.text)}</text></g>`,
      );
    });
  });

  // Checkpoints: buffered to acked, packed.
  const cpItems = data.checkpoints.map((c) => {
    const x0 = X(c.bufferedMs ?? c.ackedMs ?? 0);
    const x1 = c.ackedMs !== null ? X(c.ackedMs) : X(endMs);
    const text = c.number !== null ? `#${c.number}` : `from ${c.start}, not acked`;
    const tw = 7 + text.length * CHAR_W;
    // The label goes right of the bar, or left of it where it would run off the plot.
    const left = x1 + tw > WIDTH - RIGHT;
    return { c, x0, x1, text, left, lx0: left ? x0 - tw : x0, lx1: left ? x1 : x1 + tw };
  });
  const cpRows = pack(cpItems.map((it) => ({ x0: it.lx0, x1: it.lx1 })));
  lane('checkpoints', Math.max(1, ...cpRows.map((r) => r + 1)), (top) => {
    if (cpItems.length === 0)
      body.push(`<text class="none" x="${GUTTER + 6}" y="${top + 13}">no checkpoint proposed</text>`);
    cpItems.forEach((it, i) => {
      const ry = top + cpRows[i]! * SUB_H;
      const c = it.c;
      const title = [
        c.number !== null
          ? `checkpoint ${c.number}: blocks ${c.start}–${c.end ?? '?'}`
          : `checkpoint from block ${c.start}`,
        c.bufferedMs !== null ? `buffered at ${seconds(c.bufferedMs)}` : 'buffered before the run (or not seen)',
        c.ackedMs !== null ? `acked at ${seconds(c.ackedMs)}` : 'not acked by the end',
        ...(c.bufferedMs !== null && c.ackedMs !== null ? [`latency ${seconds(c.ackedMs - c.bufferedMs)}`] : []),
      ].join('\n');
      body.push(
        `<g class="cp${c.ackedMs === null ? ' pending' : ''}"><title>${esc(title)}</title><line x1="${px(it.x0)}" y1="${px(ry + 8)}" x2="${px(it.x1)}" y2="${px(ry + 8)}"/><circle class="buf" cx="${px(it.x0)}" cy="${px(ry + 8)}" r="3"/>` +
          (c.ackedMs !== null ? `<path class="ack" d="M${px(it.x1)} ${px(ry + 3)} l5 5 l-5 5 l-5 -5 Z"/>` : '') +
          (it.left
            ? `<text x="${px(it.x0 - 6)}" y="${px(ry + 11.5)}" text-anchor="end">${esc(it.text)}</text>`
            : `<text x="${px(it.x1 + 7)}" y="${px(ry + 11.5)}">${esc(it.text)}</text>`) +
          '</g>',
      );
    });
  });

  // No-acks.
  const naItems = data.noAcks.map((n) => {
    const x = X(n.atMs);
    const text = `no-ack @h${n.height}`;
    return { n, x, x0: x - 5, x1: x + 8 + text.length * CHAR_W, text };
  });
  const naRows = pack(naItems);
  lane('no-acks', Math.max(1, ...naRows.map((r) => r + 1)), (top) => {
    if (naItems.length === 0) body.push(`<text class="none" x="${GUTTER + 6}" y="${top + 13}">no no-ack</text>`);
    naItems.forEach((it, i) => {
      const ry = top + naRows[i]! * SUB_H;
      const l = label(it.x, it.text.length * CHAR_W);
      body.push(
        `<g class="noack"><title>${esc(`no-ack committed at service height ${it.n.height}, ${seconds(it.n.atMs)}`)}</title><path d="M${px(it.x - 4)} ${px(ry + 4)} l8 8 m0 -8 l-8 8"/><text x="${px(l.x)}" y="${px(ry + 11.5)}" text-anchor="${l.anchor}">${esc(it.text)}</text></g>`,
      );
    });
  });

  if (aggregate) {
    // Reorgs as events: the nodes that made the same switch are one dot (sized by depth) with their count.
    const events = reorgEvents(data.reorgs);
    const items = events.map((e) => {
      const x = X(e.firstMs);
      const text = `−${e.depth}${e.nodes.length > 1 ? ` ×${e.nodes.length}` : ` ${e.nodes[0]}`}`;
      return { e, x, x0: x - 8, x1: x + 12 + text.length * CHAR_W, text };
    });
    const rows = pack(items);
    lane('reorgs', Math.max(1, ...rows.map((k) => k + 1)), (top) => {
      if (items.length === 0) body.push(`<text class="none" x="${GUTTER + 6}" y="${top + 13}">no reorg</text>`);
      items.forEach((it, i) => {
        const ry = top + rows[i]! * SUB_H;
        const e = it.e;
        const when = e.firstMs === e.lastMs ? seconds(e.firstMs) : `${seconds(e.firstMs)}–${seconds(e.lastMs)}`;
        const title = `reorg of depth ${e.depth} from block ${e.ancestor} on ${nodeRanges(e.nodes)}, at ${when} (node clocks)${e.count > e.nodes.length ? `; ${e.count} reorgs in all` : ''}`;
        body.push(
          `<g class="reorgev"><title>${esc(title)}</title><circle class="reorgdot" cx="${px(it.x)}" cy="${px(ry + 8)}" r="${px(Math.min(8, 2.5 + e.depth / 2))}" fill="#57606a"/><text x="${px(it.x + 10)}" y="${px(ry + 11.5)}">${esc(it.text)}</text></g>`,
        );
      });
    });
  } else {
    // Reorgs: a row per node that reorged, a dot per reorg sized by its depth.
    const reorgNodes = [...new Set(data.reorgs.map((x) => x.node))];
    reorgNodes.sort((a, b) => nodeOrder(a) - nodeOrder(b) || compareStrings(a, b));
    lane('reorgs', reorgNodes.length, (top) => {
      if (data.reorgs.length === 0) body.push(`<text class="none" x="${GUTTER + 6}" y="${top + 13}">no reorg</text>`);
      reorgNodes.forEach((node, i) => {
        const ry = top + i * SUB_H;
        body.push(`<text class="sublane" x="${GUTTER - 8}" y="${px(ry + 11.5)}">${esc(node)}</text>`);
        for (const re of data.reorgs) {
          if (re.node !== node) continue;
          body.push(
            `<circle class="reorgdot" data-series="${esc(re.node)}" cx="${px(X(re.atMs))}" cy="${px(ry + 8)}" r="${px(Math.min(8, 2.5 + re.depth / 2))}" fill="${nodeColor(re.node)}"><title>${esc(`${re.node}: reorg of depth ${re.depth} from block ${re.ancestor} at ${seconds(re.atMs)} (node clock)`)}</title></circle>`,
          );
        }
      });
    });
  }

  const height = y + 22;
  const out: string[] = [];
  out.push(
    `<svg class="timeline" viewBox="0 0 ${WIDTH} ${px(height)}" width="${WIDTH}" height="${px(height)}" role="img" aria-label="timeline">`,
  );
  lanes.forEach((l, i) => {
    out.push(
      `<rect class="lane${i % 2 ? ' odd' : ''}" x="0" y="${px(l.y)}" width="${WIDTH}" height="${px(l.h)}"/><text class="lanename" x="8" y="${px(l.y + 17)}">${esc(l.name)}</text>`,
    );
  });
  // Fault periods, shaded across every lane.
  for (const f of faults) {
    const x0 = X(f.startMs);
    const x1 = f.endMs === null ? X(endMs) : X(f.endMs);
    out.push(`<rect class="band" x="${px(x0)}" y="20" width="${px(Math.max(1, x1 - x0))}" height="${px(y - 20)}"/>`);
  }
  for (const t of timeTicks(endMs)) {
    const x = X(t);
    out.push(
      `<line class="grid" x1="${px(x)}" y1="20" x2="${px(x)}" y2="${px(y)}"/><text class="tick" x="${px(x)}" y="14">${timeLabel(t)}</text><text class="tick" x="${px(x)}" y="${px(y + 14)}">${timeLabel(t)}</text>`,
    );
  }
  out.push(...body);
  out.push('</svg>');
  return out.join('');
}
