/**
 * Per-run metrics, defined once: each has a name (units last), a unit, a one-line definition and
 * the function that computes it from a finished run's digest (runDigest.ts: the few events the
 * metrics are made of, kept with every sweep run, so a metric added later can be computed from
 * runs already made). Sweeps summarise them per cell, `lockstep run` writes them to metrics.json, `report diff`
 * compares them, and docs/SWEEPS.md shows this table (a test keeps the two equal).
 *
 * A metric is null when the run gives it no value (no checkpoint acked, no state sync emitted);
 * statistics then count the runs that have one. Times are seconds of virtual time.
 */
import { type RunResult } from '../run/runResult';
import { type RunDigest, runDigest } from './runDigest';
import { METRIC_NAMES, type MetricName } from '../core/metricNames';

export type MetricUnit = 'blocks' | 'reorgs' | 'no-acks' | 'spans' | 'checkpoints' | 's' | 'rounds' | 'transactions';

export interface MetricDef {
  name: MetricName;
  unit: MetricUnit;
  definition: string;
  /** From the run's digest alone (runDigest.ts), so a sweep's stored runs can be measured again. */
  compute: (run: RunDigest) => number | null;
}

const mean = (v: readonly number[]): number | null => (v.length ? v.reduce((s, x) => s + x, 0) / v.length : null);
const median = (v: readonly number[]): number | null => {
  if (!v.length) return null;
  const s = v.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const maxOf = (v: readonly number[]): number | null => (v.length ? Math.max(...v) : null);
const seconds = (ms: number | null) => (ms === null ? null : ms / 1000);

/**
 * Sidechain nodes a fired fault named: `sc-N` in its detail, or `validator N` / `validators N, M`
 * (a producer fault, a Byzantine validator: the validator's sidechain node). A crash of `svc-N`
 * leaves sc-N untouched.
 */
export function touchedSidechainNodes(run: { faultsFired: ReadonlyArray<{ detail: string }> }): Set<string> {
  const out = new Set<string>();
  for (const f of run.faultsFired) {
    for (const m of f.detail.matchAll(/\bsc-(\d+)\b/g)) out.add(`sc-${m[1]}`);
    for (const m of f.detail.matchAll(/\bvalidators? ((?:\d+)(?:, \d+)*)/g))
      for (const v of m[1]!.split(', ')) out.add(`sc-${v}`);
  }
  return out;
}

/** Virtual ms from the StateSynced event's parent block to the first import of a canonical block committing it. */
const stateSyncLatenciesMs = (d: RunDigest): number[] =>
  d.stateSyncs.flatMap((s) => (s.landedMs === null ? [] : [s.landedMs - s.emittedMs]));

/** Per service height some node committed: when it first was, and the round. */
function serviceHeights(d: RunDigest): Array<{ t: number; round: number }> {
  const c = d.serviceCommits;
  return c.timesMs.flatMap((t, i) => (t < 0 ? [] : [{ t, round: c.rounds[String(c.firstHeight + i)] ?? 0 }]));
}

/** Virtual ms of each checkpoint ack (first seen), in order. */
function ackTimesMs(d: RunDigest): number[] {
  return d.checkpoints.flatMap((c) => (c.ackedMs === null ? [] : [c.ackedMs])).sort((a, b) => a - b);
}

export const METRICS: readonly MetricDef[] = [
  {
    name: 'reorgDepth',
    unit: 'blocks',
    definition: 'the deepest reorg of any sidechain node (0 when none reorged); the count `reorgDepth` of `expect.max`',
    compute: (d) => d.maxReorgDepth,
  },
  {
    name: 'reorgDepthHealthy',
    unit: 'blocks',
    definition:
      'the deepest reorg of a sidechain node no fault named (not `sc-N`, not validator N): what a user of a healthy node saw',
    compute: (d) => {
      const touched = touchedSidechainNodes(d);
      return d.reorgs.filter((x) => !touched.has(x.node)).reduce((m, x) => Math.max(m, x.depth), 0);
    },
  },
  {
    name: 'reorgDepthMean',
    unit: 'blocks',
    definition: 'the mean depth of all reorgs of all sidechain nodes (null when none)',
    compute: (d) => mean(d.reorgs.map((x) => x.depth)),
  },
  {
    name: 'reorgs',
    unit: 'reorgs',
    definition: 'reorgs, summed over every sidechain node; the count `reorgs`',
    compute: (d) => d.counts.reorgs,
  },
  {
    name: 'backupBlocks',
    unit: 'blocks',
    definition: "blocks sealed out of turn on the best node's canonical chain; the count `backupBlocks`",
    compute: (d) => d.backupBlocks,
  },
  {
    name: 'checkpointLatencyMedianS',
    unit: 's',
    definition: 'median over acked checkpoints of the time from first buffered to first acked (null when none acked)',
    compute: (d) => seconds(median(d.checkpointLatencyMs)),
  },
  {
    name: 'checkpointLatencyMaxS',
    unit: 's',
    definition: 'the longest time from first buffered to first acked of an acked checkpoint (null when none acked)',
    compute: (d) => seconds(maxOf(d.checkpointLatencyMs)),
  },
  {
    name: 'checkpointGapMaxS',
    unit: 's',
    definition:
      'the longest stretch with no new checkpoint acked: from the start to the first ack, between acks, and from the last ack to the end',
    compute: (d) => {
      const acks = [0, ...ackTimesMs(d), d.simulatedMs];
      let gap = 0;
      for (let i = 1; i < acks.length; i++) gap = Math.max(gap, acks[i]! - acks[i - 1]!);
      return gap / 1000;
    },
  },
  {
    name: 'noAcks',
    unit: 'no-acks',
    definition: 'service heights that committed a no-ack; the count `noAcks`',
    compute: (d) => d.counts.noAcks,
  },
  {
    name: 'stateSyncLatencyMedianS',
    unit: 's',
    definition:
      "median over state syncs of the time from the parent block that emitted the event to the first import of a block on the best node's final canonical chain that commits it (null when none landed)",
    compute: (d) => seconds(median(stateSyncLatenciesMs(d))),
  },
  {
    name: 'stateSyncLatencyMaxS',
    unit: 's',
    definition: 'the longest such time of a state sync that landed (null when none landed)',
    compute: (d) => seconds(maxOf(stateSyncLatenciesMs(d))),
  },
  {
    name: 'serviceBlockIntervalMeanS',
    unit: 's',
    definition:
      'the mean time between the first commits of consecutive service heights (null with fewer than two heights)',
    compute: (d) => {
      const h = serviceHeights(d);
      return h.length < 2 ? null : (h.at(-1)!.t - h[0]!.t) / (h.length - 1) / 1000;
    },
  },
  {
    name: 'roundsPerHeightMean',
    unit: 'rounds',
    definition: 'the mean number of consensus rounds a service height took (1 + the round of its first commit)',
    compute: (d) => mean(serviceHeights(d).map((h) => h.round + 1)),
  },
  {
    name: 'serviceBlocks',
    unit: 'blocks',
    definition: 'the highest service height any node committed; the count `serviceBlocks`',
    compute: (d) => d.counts.serviceBlocks,
  },
  {
    name: 'sidechainBlocks',
    unit: 'blocks',
    definition: 'the highest sidechain head any node reached; the count `sidechainBlocks`',
    compute: (d) => d.counts.sidechainBlocks,
  },
  {
    name: 'sidechainTransfers',
    unit: 'transactions',
    definition:
      'user transfers on the canonical sidechain of the node with the highest head at the end; the count `sidechainTransfers`',
    compute: (d) => d.counts.sidechainTransfers,
  },
  {
    name: 'spans',
    unit: 'spans',
    definition: 'spans committed beyond the genesis span; the count `spans`',
    compute: (d) => d.counts.spans,
  },
  {
    name: 'checkpointsAcked',
    unit: 'checkpoints',
    definition: 'checkpoints acknowledged; the count `checkpointsAcked`',
    compute: (d) => d.counts.checkpointsAcked,
  },
];

export function metricDef(name: string): MetricDef | undefined {
  return METRICS.find((m) => m.name === name);
}

/** Every metric of a run, in table order (null: no value). */
export function computeMetrics(run: RunResult, names: readonly string[] = METRIC_NAMES): Record<string, number | null> {
  return metricsOfDigest(runDigest(run), names);
}

/** The metrics from a run's digest (a sweep's stored run, measured again). */
export function metricsOfDigest(
  digest: RunDigest,
  names: readonly string[] = METRIC_NAMES,
): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const name of names) {
    const def = metricDef(name);
    if (!def) throw new RangeError(`unknown metric ${JSON.stringify(name)}`);
    out[name] = def.compute(digest);
  }
  return out;
}

/** The table as Markdown (docs/SWEEPS.md holds it). */
export function metricsMarkdown(): string {
  return [
    '| metric | unit | definition |',
    '| --- | --- | --- |',
    ...METRICS.map((m) => `| \`${m.name}\` | ${m.unit} | ${m.definition} |`),
  ].join('\n');
}
