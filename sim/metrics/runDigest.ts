/**
 * A run's digest: the few events a metric is made of, kept compactly with each sweep run (a few
 * kilobytes for a 20-minute run), so that a metric added later is computed from the runs already
 * made (`lockstep sweep FILE --metrics-only`) instead of running them again. Every metric of
 * metrics.ts is a function of the digest alone; a new metric should be too, and when it needs an
 * event the digest lacks, the digest grows a field (and DIGEST_VERSION a step: older journals
 * then say that their runs must be made again).
 *
 * Plain JSON: numbers (virtual ms, heights as numbers), strings, arrays; no bigint.
 */
import { type Counts } from '../scenario/scenario';
import { type RunResult } from '../run/runResult';

export const DIGEST_VERSION = 1;

export interface RunDigest {
  version: typeof DIGEST_VERSION;
  simulatedMs: number;
  events: number;
  counts: Counts;
  maxReorgDepth: number;
  backupBlocks: number;
  /** Every reorg of every sidechain node: node, time (the node's clock), depth. */
  reorgs: Array<{ node: string; atMs: number; depth: number }>;
  /** Faults that fired, in firing order: scenario index, kind, time, what they resolved to (`svc-2`, `validator 3`). */
  faultsFired: Array<{ index: number; kind: string; atMs: number; detail: string }>;
  /** Per checkpoint, in the order first buffered: when first buffered and first acked (null: never). */
  checkpoints: Array<{ bufferedMs: number | null; ackedMs: number | null }>;
  /** Milliseconds from buffered to acked, per acked checkpoint (the run's own figure). */
  checkpointLatencyMs: number[];
  /**
   * Service heights by their first commit on any node: `firstHeight` and, from it on, each
   * height's time (ms; −1 for a height no node committed) and the nonzero rounds by height.
   */
  serviceCommits: { firstHeight: number; timesMs: number[]; rounds: Record<string, number> };
  /** State syncs: when the parent block emitted each, and when a block of the final canonical chain first carried it (null: never). */
  stateSyncs: Array<{ id: number; emittedMs: number; landedMs: number | null }>;
  /** Each sidechain node's head at the end. */
  sidechainHeads: Record<string, number>;
  network: RunResult['network'];
}

/** The digest of a finished run. */
export function runDigest(run: RunResult): RunDigest {
  const first = new Map<number, { t: number; round: number }>();
  for (const r of run.main.records) {
    const o = r.obs;
    if (o.kind !== 'service.commit') continue;
    const h = Number(o.height);
    if (!first.has(h)) first.set(h, { t: r.t, round: o.commit.round });
  }
  const heights = [...first.keys()].sort((a, b) => a - b);
  const firstHeight = heights[0] ?? 0;
  const timesMs: number[] = [];
  const rounds: Record<string, number> = {};
  for (let h = firstHeight; heights.length && h <= heights.at(-1)!; h++) {
    const c = first.get(h);
    timesMs.push(c ? c.t : -1);
    if (c && c.round !== 0) rounds[String(h)] = c.round;
  }

  const best = run.sidechain.nodes.find((n) => n.node === run.sidechain.bestNode);
  const canonical = new Set(best?.canonical.map((b) => b.hash) ?? []);
  const emitted = new Map<bigint, number>();
  const landed = new Map<bigint, number>();
  for (const r of [...run.main.records, ...run.sidechainRecords]) {
    const o = r.obs;
    if (o.kind === 'parent.block') {
      for (const e of o.events) if (e.event === 'StateSynced' && !emitted.has(e.id)) emitted.set(e.id, r.t);
    } else if (o.kind === 'sidechain.imported' && canonical.has(o.block.hash)) {
      for (const s of o.block.stateSyncs) if (!landed.has(s.id)) landed.set(s.id, r.t);
    }
  }

  return {
    version: DIGEST_VERSION,
    simulatedMs: run.simulatedMs,
    events: run.events,
    counts: { ...run.counts },
    maxReorgDepth: run.maxReorgDepth,
    backupBlocks: run.backupBlocks,
    reorgs: run.reorgs.map((x) => ({ node: x.node, atMs: x.atMs, depth: x.depth })),
    faultsFired: run.faultsFired.map((f) => ({ index: f.index, kind: f.kind, atMs: f.atMs, detail: f.detail })),
    checkpoints: run.main.checkpointTimes.map((c) => ({
      bufferedMs: c.bufferedMs ?? null,
      ackedMs: c.ackedMs ?? null,
    })),
    checkpointLatencyMs: run.checkpointLatencyMs.slice(),
    serviceCommits: { firstHeight, timesMs, rounds },
    stateSyncs: [...emitted].map(([id, t]) => ({ id: Number(id), emittedMs: t, landedMs: landed.get(id) ?? null })),
    sidechainHeads: Object.fromEntries(run.sidechain.nodes.map((n) => [n.node, Number(n.head.number)])),
    network: { ...run.network },
  };
}
