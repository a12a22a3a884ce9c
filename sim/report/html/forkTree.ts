/**
 * One sidechain node's fork tree as SVG: its canonical chain as a horizontal spine (long runs with
 * nothing happening shrink to "… k blocks …"), the side blocks it stored on branches below, blocks
 * coloured by producer, backup (out-of-turn) blocks marked, and its reorgs annotated at their
 * common ancestor. Pure: the same input gives the same markup.
 */
import { type Address } from '../../../src/core/address';
import { compareNumbers, compareStrings } from '../../../src/core/order';
import { type CanonicalBlockInfo, type ReorgRecord, type SideBlockInfo } from '../../domain/sidechainDomain';
import { esc, int, px, seconds, short } from './format';
import { type SignerLabel, inkOn } from './palette';

export interface ForkTreeInput {
  node: string;
  alive: boolean;
  head: { number: bigint; hash: string };
  /** The canonical chain from block 1 (genesis excluded). */
  canonical: CanonicalBlockInfo[];
  side: SideBlockInfo[];
  sideOmitted: number;
  /**
   * A tree several nodes share: who they are (for the hover texts; default the node), when each
   * of the drawn reorgs happened across them, and when a side block was imported across them.
   */
  who?: string;
  reorgWhen?: (r: ReorgRecord) => string;
  importedWhen?: (hash: string) => string;
  /** This node's reorgs (atMs on the node's clock). */
  reorgs: ReorgRecord[];
  epochMs: number;
  producer: (signer: Address) => SignerLabel;
}

/** Blocks shown either side of a fork, a reorg, the chain's start and its head. */
const CONTEXT = 2;
/** A run of at most this many unremarkable canonical blocks is drawn, not shrunk. */
const MAX_DRAWN_GAP = 3;
const BLOCK_W = 30;
const BLOCK_H = 18;
const PITCH = 38;
const GAP_W = 76;
const ROW_H = 28;
const LABEL_H = 14;
const MARGIN_X = 12;

type Column = { kind: 'block'; n: number; x: number } | { kind: 'gap'; from: number; to: number; x: number };

interface Placed {
  n: number;
  hash: string;
  parentHash: string;
  signer: Address;
  difficulty: bigint;
  backup: boolean;
  canonical: boolean;
  importedAtMs: number | null;
  row: number;
}

export function forkTreeSvg(input: ForkTreeInput): {
  svg: string;
  stats: { side: number; forks: number; reorgs: number; deepest: number };
} {
  const head = Number(input.head.number);
  const canonByNumber = new Map<number, CanonicalBlockInfo>(input.canonical.map((b) => [Number(b.number), b]));
  const sideByHash = new Map<string, SideBlockInfo>(input.side.map((b) => [b.hash, b]));
  const canonicalNumber = new Map<string, number>(input.canonical.map((b) => [b.hash, Number(b.number)]));
  const maxSide = input.side.reduce((m, b) => Math.max(m, Number(b.number)), 0);
  const lastNumber = Math.max(head, maxSide);

  // Which block numbers get a column.
  const shown = new Set<number>([0]);
  const show = (from: number, to: number) => {
    for (let k = Math.max(0, from); k <= Math.min(lastNumber, to); k++) shown.add(k);
  };
  show(1, CONTEXT);
  show(head - CONTEXT, head);
  for (const b of input.side) show(Number(b.number) - CONTEXT - 1, Number(b.number) + CONTEXT);
  for (const r of input.reorgs) {
    const anc = Number(r.commonAncestor);
    show(anc - CONTEXT, anc + r.depth + CONTEXT);
  }
  const numbers = [...shown].sort(compareNumbers);
  const columns: Column[] = [];
  const colX = new Map<number, number>();
  let x = MARGIN_X;
  const addBlock = (n: number) => {
    columns.push({ kind: 'block', n, x });
    colX.set(n, x);
    x += PITCH;
  };
  for (let i = 0; i < numbers.length; i++) {
    const n = numbers[i]!;
    const prev = i === 0 ? null : numbers[i - 1]!;
    if (prev !== null && n - prev - 1 > MAX_DRAWN_GAP) {
      columns.push({ kind: 'gap', from: prev + 1, to: n - 1, x });
      x += GAP_W;
    } else if (prev !== null) {
      for (let k = prev + 1; k < n; k++) addBlock(k);
    }
    addBlock(n);
  }
  const width = x + 60;

  // Side branches: split the side forest into paths (the deeper child continues its parent's path).
  const children = new Map<string, SideBlockInfo[]>();
  for (const b of input.side) {
    if (!sideByHash.has(b.parentHash)) continue;
    const list = children.get(b.parentHash) ?? [];
    list.push(b);
    children.set(b.parentHash, list);
  }
  const depthMemo = new Map<string, number>();
  const depthOf = (b: SideBlockInfo): number => {
    // Iterative over the path, so a long branch does not recurse deeply.
    const stack: SideBlockInfo[] = [b];
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      if (depthMemo.has(top.hash)) {
        stack.pop();
        continue;
      }
      const kids = children.get(top.hash) ?? [];
      const pending = kids.filter((k) => !depthMemo.has(k.hash));
      if (pending.length) {
        stack.push(...pending);
        continue;
      }
      depthMemo.set(top.hash, 1 + kids.reduce((m, k) => Math.max(m, depthMemo.get(k.hash)!), 0));
      stack.pop();
    }
    return depthMemo.get(b.hash)!;
  };
  const paths: SideBlockInfo[][] = [];
  const queue: SideBlockInfo[] = input.side.filter((b) => !sideByHash.has(b.parentHash));
  for (let qi = 0; qi < queue.length; qi++) {
    const path: SideBlockInfo[] = [queue[qi]!];
    for (;;) {
      const kids = [...(children.get(path[path.length - 1]!.hash) ?? [])];
      if (kids.length === 0) break;
      kids.sort((a, b) => depthOf(b) - depthOf(a) || compareStrings(a.hash, b.hash));
      path.push(kids[0]!);
      for (const k of kids.slice(1)) queue.push(k);
    }
    paths.push(path);
  }
  paths.sort(
    (a, b) => compareNumbers(Number(a[0]!.number), Number(b[0]!.number)) || compareStrings(a[0]!.hash, b[0]!.hash),
  );

  // Rows: first fit below the parent's row, leaving room for the connector.
  const rowOf = new Map<string, number>();
  const rowEnd: number[] = [Number.POSITIVE_INFINITY];
  for (const path of paths) {
    const startX = colX.get(Number(path[0]!.number)) ?? 0;
    const endX = colX.get(Number(path[path.length - 1]!.number)) ?? startX;
    const parentRow = rowOf.get(path[0]!.parentHash) ?? 0;
    let row = parentRow + 1;
    while (row < rowEnd.length && rowEnd[row]! >= startX - PITCH / 2) row++;
    rowEnd[row] = endX;
    for (const b of path) rowOf.set(b.hash, row);
  }
  const rows = rowEnd.length;

  // Reorg labels above the spine, grouped by common ancestor, stacked where they would overlap.
  const reorgsByAncestor = new Map<number, ReorgRecord[]>();
  for (const r of input.reorgs) {
    const anc = Number(r.commonAncestor);
    reorgsByAncestor.set(anc, [...(reorgsByAncestor.get(anc) ?? []), r]);
  }
  const labelLevels: number[] = [];
  const labels: Array<{ anc: number; x: number; level: number; text: string; title: string }> = [];
  for (const anc of [...reorgsByAncestor.keys()].sort(compareNumbers)) {
    const rs = reorgsByAncestor.get(anc)!;
    const ax = (colX.get(anc) ?? MARGIN_X) + BLOCK_W / 2;
    const deepest = rs.reduce((m, r) => Math.max(m, r.depth), 0);
    const text = `−${deepest}${rs.length > 1 ? `×${rs.length}` : ''}`;
    const textW = text.length * 7 + 6;
    let level = 0;
    while (level < labelLevels.length && labelLevels[level]! > ax - 4) level++;
    labelLevels[level] = ax + textW;
    const title = rs
      .map(
        (r) =>
          `reorg ${input.reorgWhen ? input.reorgWhen(r) : `at ${seconds(r.atMs - input.epochMs)}`}: depth ${r.depth} from #${anc}, head ${short(r.oldHead, 8)} → ${short(r.newHead, 8)}`,
      )
      .join('\n');
    labels.push({ anc, x: ax, level, text, title });
  }
  const topPad = 22 + labelLevels.length * LABEL_H;
  const spineY = topPad;
  const rowY = (row: number) => spineY + row * ROW_H;
  const height = rowY(rows - 1) + BLOCK_H + 12;

  const oldHeads = new Set<string>(input.reorgs.map((r) => r.oldHead));
  const out: string[] = [];
  out.push(
    `<svg class="forktree" data-node="${esc(input.node)}" width="${px(width)}" height="${px(height)}" viewBox="0 0 ${px(width)} ${px(height)}" role="img" aria-label="fork tree of ${esc(input.who ?? input.node)}">`,
  );

  // The spine: a line through every column, dashed across shrunk runs.
  const firstX = columns[0]!.x + BLOCK_W / 2;
  const lastCanonX = (colX.get(head) ?? firstX) + BLOCK_W / 2;
  out.push(
    `<line class="spine" x1="${px(firstX)}" y1="${px(spineY + BLOCK_H / 2)}" x2="${px(lastCanonX)}" y2="${px(spineY + BLOCK_H / 2)}"/>`,
  );
  for (const c of columns) {
    if (c.kind !== 'gap') continue;
    const k = c.to - c.from + 1;
    out.push(
      `<g class="gap"><title>${esc(`blocks ${c.from}–${c.to}: ${k} canonical blocks, no forks`)}</title><rect x="${px(c.x - 4)}" y="${px(spineY + 1)}" width="${px(GAP_W - PITCH + BLOCK_W + 8)}" height="${px(BLOCK_H - 2)}" rx="8"/><text x="${px(c.x + (GAP_W - PITCH + BLOCK_W) / 2)}" y="${px(spineY + BLOCK_H / 2 + 3.5)}">… ${int(k)} …</text></g>`,
    );
  }

  // Connectors from each side path's first block to its parent (canonical or side).
  const positionOf = (hash: string): { x: number; y: number } | null => {
    const s = sideByHash.get(hash);
    if (s) {
      const cx = colX.get(Number(s.number));
      return cx === undefined ? null : { x: cx, y: rowY(rowOf.get(hash) ?? 1) };
    }
    const n = canonicalNumber.get(hash);
    const cx = n === undefined ? undefined : colX.get(n);
    return cx === undefined ? null : { x: cx, y: spineY };
  };
  for (const path of paths) {
    const first = path[0]!;
    const fx = colX.get(Number(first.number));
    if (fx === undefined) continue;
    const fy = rowY(rowOf.get(first.hash)!);
    const n = Number(first.number);
    let parent = positionOf(first.parentHash);
    // A branch off genesis: its parent is the spine's first column.
    if (parent === null && n === 1) parent = { x: colX.get(0)!, y: spineY };
    if (parent === null) {
      out.push(
        `<path class="link orphan" d="M${px(fx - 14)} ${px(fy + BLOCK_H / 2)} H${px(fx)}"><title>parent ${esc(short(first.parentHash, 8))} not in the report</title></path>`,
      );
      continue;
    }
    const px0 = parent.x + BLOCK_W / 2;
    out.push(`<path class="link" d="M${px(px0)} ${px(parent.y + BLOCK_H)} V${px(fy + BLOCK_H / 2)} H${px(fx)}"/>`);
    // Within the path, a straight line.
    const lastX = colX.get(Number(path[path.length - 1]!.number)) ?? fx;
    if (lastX > fx)
      out.push(
        `<line class="link" x1="${px(fx + BLOCK_W)}" y1="${px(fy + BLOCK_H / 2)}" x2="${px(lastX)}" y2="${px(fy + BLOCK_H / 2)}"/>`,
      );
  }

  // Blocks.
  const placed: Placed[] = [];
  for (const c of columns) {
    if (c.kind !== 'block') continue;
    if (c.n === 0) continue;
    const b = canonByNumber.get(c.n);
    if (!b) continue;
    placed.push({
      n: c.n,
      hash: b.hash,
      parentHash: '',
      signer: b.signer,
      difficulty: b.difficulty,
      backup: b.backup,
      canonical: true,
      importedAtMs: null,
      row: 0,
    });
  }
  for (const b of input.side) {
    placed.push({
      n: Number(b.number),
      hash: b.hash,
      parentHash: b.parentHash,
      signer: b.signer,
      difficulty: b.difficulty,
      backup: b.backup,
      canonical: false,
      importedAtMs: b.importedAtMs,
      row: rowOf.get(b.hash) ?? 1,
    });
  }
  const g0 = colX.get(0)!;
  out.push(
    `<g class="blk genesis"><title>genesis (block 0)</title><rect x="${px(g0)}" y="${px(spineY)}" width="${BLOCK_W}" height="${BLOCK_H}" rx="3"/><text x="${px(g0 + BLOCK_W / 2)}" y="${px(spineY + BLOCK_H / 2 + 3.5)}">0</text></g>`,
  );
  for (const p of placed) {
    const bx = colX.get(p.n);
    if (bx === undefined) continue;
    const by = rowY(p.row);
    const prod = input.producer(p.signer);
    const cls = [
      'blk',
      p.canonical ? 'canon' : 'side',
      ...(p.backup ? ['backup'] : []),
      ...(oldHeads.has(p.hash) ? ['oldhead'] : []),
    ].join(' ');
    const title = [
      `block ${p.n} ${p.hash}`,
      `${p.canonical ? 'canonical' : 'side branch (lost the fork choice)'} on ${input.who ?? input.node}`,
      `sealed by ${prod.label} (${p.signer})`,
      `difficulty ${p.difficulty}${p.backup ? ' — backup (out of turn)' : ' — in turn'}`,
      ...(p.importedAtMs !== null
        ? [input.importedWhen ? input.importedWhen(p.hash) : `imported at ${seconds(p.importedAtMs - input.epochMs)}`]
        : []),
      ...(oldHeads.has(p.hash) ? ['a head this node reorged away from'] : []),
    ].join('\n');
    const ink = p.canonical ? inkOn(prod.color) : '#1b1b1b';
    out.push(
      `<g class="${cls}" data-h="${esc(p.hash.slice(0, 18))}"><title>${esc(title)}</title><rect x="${px(bx)}" y="${px(by)}" width="${BLOCK_W}" height="${BLOCK_H}" rx="3" fill="${prod.color}"/>` +
        (p.backup
          ? `<path class="bk" d="M${px(bx + BLOCK_W - 9)} ${px(by)} H${px(bx + BLOCK_W - 3)} Q${px(bx + BLOCK_W)} ${px(by)} ${px(bx + BLOCK_W)} ${px(by + 3)} V${px(by + 9)} Z"/>`
          : '') +
        `<text x="${px(bx + BLOCK_W / 2)}" y="${px(by + BLOCK_H / 2 + 3.5)}" fill="${ink}">${p.n}</text></g>`,
    );
  }
  // The head marker.
  const hx = colX.get(head);
  if (hx !== undefined)
    out.push(`<text class="headmark" x="${px(hx + BLOCK_W + 5)}" y="${px(spineY + BLOCK_H / 2 + 3.5)}">head</text>`);

  // Reorg annotations.
  for (const l of labels) {
    const ly = spineY - 8 - l.level * LABEL_H;
    out.push(
      `<g class="reorg"><title>${esc(l.title)}</title><line x1="${px(l.x)}" y1="${px(ly + 2)}" x2="${px(l.x)}" y2="${px(spineY - 1)}"/><text x="${px(l.x + 3)}" y="${px(ly)}">${esc(l.text)}</text></g>`,
    );
  }
  out.push('</svg>');

  const forkPoints = new Set<string>();
  for (const path of paths) forkPoints.add(path[0]!.parentHash);
  return {
    svg: out.join(''),
    stats: {
      side: input.side.length + input.sideOmitted,
      forks: forkPoints.size,
      reorgs: input.reorgs.length,
      deepest: input.reorgs.reduce((m, r) => Math.max(m, r.depth), 0),
    },
  };
}
