/**
 * Run a scenario with a seed: build the cluster, run the engine to the scenario's duration (or
 * `untilMs`), and summarise what happened. Wall time is measured by the caller (the CLI); nothing
 * here reads a clock.
 */
import { InvariantError } from '../src/core/errors';
import { getAckCount } from '../src/modules/checkpoint/ackCount';
import { getLastSpan } from '../src/modules/sidechain/keeper';
import { Cluster } from './cluster';
import { type Counts, type Scenario, type Verdict } from './scenario/scenario';
import { type RunVerdict } from './engine/engine';
import { TraceRecorder } from './trace/traceRecorder';

export interface RunOptions {
  seed: number;
  untilMs?: number;
  trace?: TraceRecorder;
  /** Called every `progressEveryMs` of simulated time (for progress bars); return 'stop' to end early. */
  onProgress?: (simulatedMs: number, totalMs: number) => void | 'stop';
  progressEveryMs?: number;
  /** Samples for plots are taken this often (default: 120 samples over the run). */
  sampleEveryMs?: number;
}

/** What the plots show, sampled over the run. */
export interface Samples {
  timeMs: number[];
  serviceHeight: number[];
  /** Sidechain head per node, by node id. */
  sidechainHeight: Record<string, number[]>;
}

export interface RunResult {
  scenario: string;
  seed: number;
  crypto: string;
  simulatedMs: number;
  traceHash: string;
  verdict: Verdict;
  message: string;
  counts: Counts;
  maxReorgDepth: number;
  backupBlocks: number;
  events: number;
  faultsFired: Array<{ kind: string; atMs: number; detail: string }>;
  network: { sent: number; delivered: number; dropped: number; blocked: number; duplicated: number };
  cluster: Cluster;
  engine: RunVerdict;
  samples: Samples;
  /** Milliseconds from buffering to ack, per acked checkpoint. */
  checkpointLatencyMs: number[];
  interrupted: boolean;
}

export function runScenario(scenario: Scenario, opts: RunOptions): RunResult {
  const run = prepareRun(scenario, opts);
  while (run.step() === 'more');
  return run.finish();
}

/** A run in steps, so that a caller with a real event loop can yield between them (Ctrl-C, progress). */
export function prepareRun(scenario: Scenario, opts: RunOptions): { step(): 'more' | 'done'; finish(): RunResult } {
  const cluster = new Cluster(scenario, opts.seed, opts.trace ? { trace: opts.trace } : {});
  const untilMs = opts.untilMs ?? scenario.durationMs;
  let verdict: Verdict = 'pass';
  let message = 'completed';
  let interrupted = false;
  let engineVerdict: RunVerdict = { reason: 'until', events: 0, nowMs: 0, runaway: false, message: '' };
  const sampleEvery = Math.max(1000, opts.sampleEveryMs ?? Math.floor(untilMs / 120));
  const step = Math.max(sampleEvery, opts.progressEveryMs ?? sampleEvery);
  const samples: Samples = { timeMs: [], serviceHeight: [], sidechainHeight: Object.fromEntries(cluster.sidechainNodes.map((n) => [n.id, []])) };
  const sample = () => {
    samples.timeMs.push(cluster.engine.nowMs());
    samples.serviceHeight.push(Math.max(...cluster.serviceNodes.map((n) => Number(n.app.height))));
    for (const n of cluster.sidechainNodes) samples.sidechainHeight[n.id]!.push(Number(n.chain.head().block.header.number));
  };
  let events = 0;
  let t = 0;
  let done = false;
  try {
    cluster.start();
    sample();
  } catch (e) {
    if (!(e instanceof InvariantError)) throw e;
    verdict = 'crash';
    message = `${e.message} [scenario ${scenario.name}, seed ${opts.seed}]`;
    done = true;
  }
  let nextProgress = step;
  return {
    step() {
      if (done) return 'done';
      t = Math.min(t + sampleEvery, untilMs);
      try {
        const v = cluster.engine.run({ untilMs: t, maxEvents: scenario.maxEvents - events });
        events += v.events;
        engineVerdict = { ...v, events };
        sample();
        if (v.runaway) {
          verdict = 'crash';
          message = v.message;
          done = true;
        } else if (t >= untilMs || v.reason === 'stopped') done = true;
      } catch (e) {
        if (!(e instanceof InvariantError)) throw e;
        verdict = 'crash';
        message = `${e.message} [scenario ${scenario.name}, seed ${opts.seed}, at ${cluster.engine.nowMs()} ms]`;
        done = true;
      }
      if (cluster.engine.nowMs() >= nextProgress || done) {
        nextProgress += step;
        if (opts.onProgress?.(cluster.engine.nowMs(), untilMs) === 'stop' && !done) {
          interrupted = true;
          message = `interrupted at ${cluster.engine.nowMs()} ms`;
          done = true;
        }
      }
      return done ? 'done' : 'more';
    },
    finish(): RunResult {
      return {
        ...summarise(cluster),
        scenario: scenario.name,
        seed: opts.seed,
        crypto: scenario.crypto,
        verdict,
        message,
        events: engineVerdict.events,
        engine: engineVerdict,
        cluster,
        samples,
        checkpointLatencyMs: cluster.checkpointLatencyMs(),
        interrupted,
      };
    },
  };
}

function summarise(c: Cluster) {
  let serviceBlocks = 0;
  let spans = 0;
  let acked = 0;
  for (const n of c.serviceNodes) {
    serviceBlocks = Math.max(serviceBlocks, Number(n.app.height));
    spans = Math.max(spans, Number(getLastSpan(n.app.store)?.id ?? 0n));
    acked = Math.max(acked, Number(getAckCount(n.app.store)));
  }
  let sidechainBlocks = 0;
  let reorgs = 0;
  let maxReorgDepth = 0;
  let best = c.sidechainNodes[0]!;
  for (const n of c.sidechainNodes) {
    const h = Number(n.chain.head().block.header.number);
    if (h > sidechainBlocks) {
      sidechainBlocks = h;
      best = n;
    }
    reorgs += n.chain.reorgs.length;
    for (const r of n.chain.reorgs) maxReorgDepth = Math.max(maxReorgDepth, r.depth);
  }
  let backupBlocks = 0;
  for (const b of best.chain.canonicalRange(1n)) {
    const parent = best.chain.get(b.block.header.parentHash);
    if (parent && b.block.header.difficulty < BigInt(parent.snapshot.validatorSet.size)) backupBlocks++;
  }
  return {
    simulatedMs: c.engine.nowMs(),
    traceHash: c.trace.digest(),
    counts: { serviceBlocks, sidechainBlocks, spans, checkpointsAcked: acked, noAcks: c.noAckHeights.size, reorgs },
    maxReorgDepth,
    backupBlocks,
    faultsFired: c.faultsFired,
    network: { ...c.network.stats },
  };
}
