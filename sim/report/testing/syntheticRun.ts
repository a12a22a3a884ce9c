/**
 * A RunResult-shaped run of any size for the report tests, built without running anything (a
 * 105-node run takes a minute): the shape of mainnet-105. A third of the nodes crash in three
 * waves (service and sidechain node alike) and return; the first wave's producer sealed a stale
 * branch that the nodes which saw it keep as side blocks, and that wave reorgs off it on return;
 * the third wave reorgs off a second branch; one node ends a block ahead. So at 105 nodes there
 * are five distinct fork trees:
 *
 *   sc-4–sc-70 (67)  both branches as side blocks, no reorg
 *   sc-88–sc-105 (18) no side block (down while the branches were sealed)
 *   sc-71–sc-81, sc-83–sc-87 (16) the first branch, one reorg of depth 35
 *   sc-1–sc-3 (3)    both branches, one reorg of depth 18
 *   sc-82 (1)        as its wave, a block ahead
 *
 * The node counts scale with `nodes` (at least 8); with `quiet`, nothing fails and every tree is
 * the same.
 */
import { type Address } from '../../../src/core/address';
import { type Hex } from '../../../src/core/bytes';
import { type CanonicalBlockInfo, type ReorgRecord, type SideBlockInfo } from '../../domain/sidechainDomain';
import { type RunResult } from '../../run/run';
import { type FaultSpec, type Scenario } from '../../scenario/scenario';

const EPOCH_MS = 1_700_000_000_000;
const DURATION_MS = 600_000;
const BLOCK_MS = 2_000;
const SAMPLE_MS = 5_000;

const hash = (tag: string, n: number): Hex => `0x${tag}${n.toString(16).padStart(8, '0')}`.padEnd(66, '0') as Hex;
const signer = (validator: number): Address => `0x${validator.toString(16).padStart(40, '0')}` as Address;

export interface SyntheticRun {
  scenario: Scenario;
  result: RunResult;
}

export function syntheticRun(nodes: number, opts: { quiet?: boolean } = {}): SyntheticRun {
  if (nodes < 8) throw new Error('syntheticRun: at least 8 nodes');
  const ids = Array.from({ length: nodes }, (_, i) => `sc-${i + 1}`);
  const third = Math.max(1, Math.round(nodes * 0.03));
  const wave1 = { from: Math.round(nodes * 0.67) + 1, to: Math.round(nodes * 0.83), atMs: 150_000, forMs: 180_000 };
  const wave2 = { from: wave1.to + 1, to: nodes, atMs: 170_000, forMs: 195_000 };
  const wave3 = { from: 1, to: third, atMs: 200_000, forMs: 160_000 };
  const waves = opts.quiet ? [] : [wave1, wave2, wave3];
  const faults: FaultSpec[] = waves.flatMap((w) =>
    Array.from({ length: w.to - w.from + 1 }, (_, k) => w.from + k).flatMap((v) => [
      { kind: 'crash' as const, node: `svc-${v}`, atMs: w.atMs, forMs: w.forMs },
      { kind: 'crash' as const, node: `sc-${v}`, atMs: w.atMs, forMs: w.forMs },
    ]),
  );
  const waveOf = (i: number) => waves.find((w) => i >= w.from && i <= w.to) ?? null;
  const ahead = opts.quiet ? -1 : wave1.from + Math.floor((wave1.to - wave1.from) / 2);

  // The canonical chain: validators 1-4 take turns; a block every 2 s.
  const head = DURATION_MS / BLOCK_MS - 44;
  const canonical: CanonicalBlockInfo[] = Array.from({ length: head + 1 }, (_, k) => ({
    number: BigInt(k + 1),
    hash: hash('c', k + 1),
    signer: signer((k % 4) + 1),
    difficulty: 4n,
    time: BigInt((EPOCH_MS + (k + 1) * BLOCK_MS) / 1000),
    producers: 4,
    backup: false,
  }));
  const branch = (tag: string, from: number, length: number, by: number, atMs: number): SideBlockInfo[] =>
    Array.from({ length }, (_, k) => ({
      number: BigInt(from + 1 + k),
      hash: hash(tag, from + 1 + k),
      parentHash: k === 0 ? hash('c', from) : hash(tag, from + k),
      signer: signer(by),
      difficulty: 1n,
      backup: true,
      importedAtMs: EPOCH_MS + atMs + k * BLOCK_MS,
    }));
  // The first wave's producer seals 35 blocks off block 70; the third wave's, 18 off block 94.
  const branch1 = branch('a', 70, 35, wave1.from, 150_000);
  const branch2 = branch('b', 94, 18, 1, 200_000);
  const reorgs: ReorgRecord[] = [];
  const reorg = (node: string, atMs: number, from: number, side: SideBlockInfo[]) =>
    reorgs.push({
      node,
      atMs: EPOCH_MS + atMs,
      depth: side.length,
      oldHead: side[side.length - 1]!.hash,
      newHead: hash('c', from + side.length + 1),
      commonAncestor: String(from),
    });

  const report = ids.map((node, k) => {
    const i = k + 1;
    const w = waveOf(i);
    const side = opts.quiet ? [] : w === wave2 ? [] : w === wave1 ? [...branch1] : [...branch1, ...branch2];
    if (w === wave1) reorg(node, 337_000 + (i % 7) * 13, 70, branch1);
    if (w === wave3) reorg(node, 303_000 + (i % 5) * 11, 94, branch2);
    const top = i === ahead ? head + 1 : head;
    return {
      node,
      alive: true,
      head: { number: BigInt(top), hash: hash('c', top), td: BigInt(top * 4) },
      canonical: canonical.slice(0, top),
      side: side.sort((a, b) => Number(a.number - b.number) || (a.hash < b.hash ? -1 : 1)),
      sideOmitted: 0,
    };
  });

  // Heights: the chain grows by a block every 2 s; a crashed node stands still, and catches up
  // 15 s after it returns. A node that sealed the newest block is one ahead at every other sample.
  const timeMs = Array.from({ length: DURATION_MS / SAMPLE_MS + 1 }, (_, k) => k * SAMPLE_MS);
  const best = (t: number) => Math.min(head, Math.floor(t / BLOCK_MS));
  const heights: Record<string, number[]> = {};
  ids.forEach((node, k) => {
    const w = waveOf(k + 1);
    heights[node] = timeMs.map((t, s) => {
      const h = best(t) - (s % 2 === 1 && (k + s) % 4 !== 0 ? 1 : 0);
      if (!w || t < w.atMs) return Math.max(0, h);
      const back = w.atMs + w.forMs;
      if (t < back) return best(w.atMs);
      return t < back + 15_000 ? best(w.atMs) + Math.floor(((t - back) / 15_000) * (best(t) - best(w.atMs))) : h;
    });
  });

  const scenario: Scenario = {
    name: `synthetic-${nodes}`,
    description: `A synthetic ${nodes}-node run for the report tests. Nothing ran.`,
    crypto: 'fast',
    durationMs: DURATION_MS,
    maxEvents: 1e9,
    epochMs: EPOCH_MS,
    validators: ids.map(() => ({ stakeTokens: 1000n, balanceTokens: 1000n })),
    params: {} as Scenario['params'],
    network: {} as Scenario['network'],
    faults,
    workload: {} as Scenario['workload'],
    expect: { verdict: 'pass', min: { sidechainBlocks: 200 }, max: { reorgDepth: 64 } },
  };
  const validators = ids.map((_, k) => ({ index: k + 1, signer: signer(k + 1) }));
  const faultsFired = faults.map((f, index) => ({
    index,
    kind: f.kind,
    atMs: f.atMs!,
    detail: 'node' in f && f.node ? f.node : f.kind,
  }));
  const result = {
    scenario: scenario.name,
    seed: 1,
    crypto: 'fast',
    placement: 'inline',
    simulatedMs: DURATION_MS,
    traceHash: `0x${'ab'.repeat(32)}`,
    traceDigests: { main: `0x${'00'.repeat(32)}`, sidechain: `0x${'00'.repeat(32)}` },
    verdict: 'pass',
    message: 'completed',
    counts: {
      serviceBlocks: 240,
      sidechainBlocks: head + 1,
      spans: 2,
      checkpointsAcked: 0,
      noAcks: 0,
      reorgs: reorgs.length,
    },
    maxReorgDepth: reorgs.reduce((m, r) => Math.max(m, r.depth), 0),
    backupBlocks: 0,
    reorgs,
    events: 1_000_000,
    faultsFired,
    network: { sent: 10, delivered: 10, dropped: 0, blocked: 0, duplicated: 0 },
    // What the report reads of the main domain (through mainFacts): the validators, no records,
    // no checkpoints.
    main: { validators, checkpointTimes: [], records: [] },
    sidechain: { nodes: report, bestNode: ids[0], reorgs, maxReorgDepth: 0, backupBlocks: 0 },
    sidechainRecords: [],
    engine: { reason: 'until', events: 1_000_000, nowMs: DURATION_MS, runaway: false, message: '' },
    samples: { timeMs, serviceHeight: timeMs.map((t) => Math.floor(t / 2500)), sidechainHeight: heights },
    checkpointLatencyMs: [],
    windows: { barriers: 0, crossMessages: 0, crossLatencyMs: 0 },
    interrupted: false,
    violation: null,
    violations: [],
    rulesExercised: [],
  } as unknown as RunResult;
  return { scenario, result };
}
