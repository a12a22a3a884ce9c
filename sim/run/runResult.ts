/**
 * A run's result: plain data only, assembled once at the end from the two domains' reports, the
 * window loop's numbers and the oracles' verdict. It holds no live node or network (a devnet that
 * needs the live network keeps the explicit handle PreparedRun.main).
 */
import { type Hex, concatBytes, fromHex, toHex } from '../../src/core/bytes';
import { keccak256Bytes } from '../../src/core/hash';
import { type RunVerdict } from '../engine/engine';
import { type IndexedFaultFired } from '../domain/faultBook';
import { type RunRecord } from '../core/record';
import { type WindowEnd } from '../domain/windowProtocol';
import { type MainReport } from '../domain/mainReport';
import { type ReorgRecord, type SidechainReport } from '../domain/sidechainDomain';
import { type Violation } from '../oracles/oracle';
import { type RuleId } from '../oracles/ruleId';
import { type Counts, type Scenario, type Verdict } from '../scenario/scenario';
import { type MessageReach, messageReach } from './messageReach';

export type Placement = 'inline' | 'worker';

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
  placement: Placement;
  simulatedMs: number;
  /** keccak(main domain trace digest ‖ sidechain domain trace digest). */
  traceHash: string;
  traceDigests: { main: Hex; sidechain: Hex };
  verdict: Verdict;
  message: string;
  counts: Counts;
  /** The service's messages the run reached: delivered, accepted, refused by code; the Byzantine kinds. */
  reach: MessageReach;
  maxReorgDepth: number;
  backupBlocks: number;
  /** Every reorg any sidechain node went through (atMs on the node's clock: epoch-based). */
  reorgs: ReorgRecord[];
  events: number;
  /** Faults that fired (in either domain), by time then scenario index; `index` is the fault's index in the scenario. */
  faultsFired: IndexedFaultFired[];
  network: { sent: number; delivered: number; dropped: number; blocked: number; duplicated: number };
  /** The main domain's end-of-run report (service nodes, their records, the validators' keys). */
  main: MainReport;
  /** The sidechain domain's end-of-run report (plain data, whichever thread it ran in). */
  sidechain: SidechainReport;
  /** What the sidechain nodes recorded, the records a run keeps (the main domain's are `main.records`; domain/keptRecords.ts). */
  sidechainRecords: RunRecord[];
  engine: RunVerdict;
  samples: Samples;
  /** Milliseconds from buffering to ack, per acked checkpoint. */
  checkpointLatencyMs: number[];
  /** Window barriers passed and cross-domain messages exchanged (for benchmarks). */
  windows: { barriers: number; crossMessages: number; crossLatencyMs: number };
  interrupted: boolean;
  /** The first oracle violation (it decides a failing verdict), and all of them. */
  violation: Violation | null;
  violations: Violation[];
  /** The rules of the inventory (docs/RULES.md) some oracle judged on at least one event, sorted. */
  rulesExercised: RuleId[];
}

/** What the window loop knows at the end of a run. */
export interface LoopOutcome {
  simulatedMs: number;
  /** How the loop ended early (null: it reached its end). */
  endKind: WindowEnd['kind'] | null;
  /** 'crash' when a window ended on a broken invariant or runaway bound, else 'pass' (oracles decide). */
  verdict: Verdict;
  message: string;
  interrupted: boolean;
  windows: RunResult['windows'];
  sidechainRecords: RunRecord[];
}

/** The oracles' end-of-run verdict. */
export interface OracleOutcome {
  verdict: Verdict;
  first: Violation | null;
  all: Violation[];
  /** The rules the oracles judged (sorted). */
  exercised: RuleId[];
}

export function assembleResult(
  scenario: Scenario,
  run: { seed: number; placement: Placement },
  main: MainReport,
  sc: SidechainReport,
  loop: LoopOutcome,
  oracles: OracleOutcome,
): RunResult {
  let verdict = loop.verdict;
  let message = loop.message;
  // A crash or an interruption decides the verdict; otherwise the first oracle violation does.
  if (verdict === 'pass' && !loop.interrupted && oracles.first) {
    verdict = oracles.verdict;
    message = `${oracles.first.oracle}: ${oracles.first.message}`;
  }
  const traceHash = toHex(keccak256Bytes(concatBytes(fromHex(main.traceDigest), fromHex(sc.traceDigest))));
  const events = main.events + sc.events;
  const simulatedMs = loop.simulatedMs;
  return {
    scenario: scenario.name,
    seed: run.seed,
    crypto: scenario.crypto,
    placement: run.placement,
    simulatedMs,
    traceHash,
    traceDigests: { main: main.traceDigest, sidechain: sc.traceDigest },
    verdict,
    message,
    counts: {
      serviceBlocks: main.serviceBlocks,
      sidechainBlocks: sc.sidechainBlocks,
      spans: main.spans,
      checkpointsAcked: main.checkpointsAcked,
      noAcks: main.noAcks,
      reorgs: sc.reorgs.length,
      sidechainTransfers: sc.sidechainTransfers,
    },
    reach: messageReach(main.records),
    maxReorgDepth: sc.maxReorgDepth,
    backupBlocks: sc.backupBlocks,
    reorgs: sc.reorgs,
    events,
    faultsFired: mergeFaults(main.faultsFired, sc.faultsFired),
    network: {
      sent: main.network.sent + sc.network.sent,
      delivered: main.network.delivered + sc.network.delivered,
      dropped: main.network.dropped + sc.network.dropped,
      blocked: main.network.blocked + sc.network.blocked,
      duplicated: main.network.duplicated + sc.network.duplicated,
    },
    main,
    sidechain: sc,
    sidechainRecords: loop.sidechainRecords,
    engine: {
      reason: loop.endKind === null ? 'until' : loop.endKind === 'runaway' ? 'max-events' : 'stopped',
      events,
      nowMs: simulatedMs,
      runaway: loop.endKind === 'runaway',
      message: loop.endKind === null ? `reached ${simulatedMs} ms` : message,
    },
    samples: {
      timeMs: main.samples.timeMs,
      serviceHeight: main.samples.serviceHeight,
      sidechainHeight: sc.samples.height,
    },
    checkpointLatencyMs: main.checkpointTimes.flatMap((c) =>
      c.bufferedMs !== undefined && c.ackedMs !== undefined ? [c.ackedMs - c.bufferedMs] : [],
    ),
    windows: loop.windows,
    interrupted: loop.interrupted,
    violation: verdict === 'safety' || verdict === 'liveness' ? oracles.first : null,
    violations: oracles.all,
    rulesExercised: oracles.exercised,
  };
}

/** Faults fired in either domain, in firing order (time, then scenario index). */
function mergeFaults(a: IndexedFaultFired[], b: IndexedFaultFired[]): IndexedFaultFired[] {
  return [...a, ...b].sort((x, y) => x.atMs - y.atMs || x.index - y.index);
}
