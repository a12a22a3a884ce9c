/**
 * What the live devnet's parts share, and the narrow views its helpers get of the network: node
 * access (the run as it is now and its nodes), the devnet's state, its setting, and the inbox
 * through which inputs from outside reach the journal. LiveNetwork (liveNetwork.ts) implements
 * them; the helpers beside it (serviceTxs.ts, sidechainTxs.ts, catchUpGate.ts) take only what
 * they read, so none of them needs the network itself.
 */
import { type Hex } from '../../src/core/bytes';
import { type OperatorResult } from '../../src/rpc/ports';
import { type ServiceNode } from '../../src/node/service/serviceNode';
import { type SidechainNode } from '../../src/node/sidechain/sidechainNode';
import { type PreparedRun } from '../../sim/run/run';
import { type JournalInputBody } from './journal';
import { type DevnetConfig } from './home';

export interface LiveOptions {
  /** Simulated seconds per wall second (default 1). */
  speed?: number;
  /** Wall ms a block-mode broadcast waits for its tx to commit (default 60 s). */
  blockTimeoutMs?: number;
  /** Where the node's records go, by service log (the caller writes them to files). */
  log?: (service: 'daemon' | 'bridge' | 'sidechain', line: string) => void;
  /** Progress while replaying the journal (virtual ms done, of total). */
  onReplayProgress?: (done: number, total: number) => void;
  /** Wall ms a read waits at the catch-up gate before it is answered with an error (default 30 s). */
  catchUpWaitMs?: number;
  /** Replay only, up to this barrier (a report of the run so far); writes nothing to the home. */
  readOnly?: { untilBarrier: number };
}

/** What an input became once journaled: the fault it started, or the node's answer to a setHead. */
export interface InputDone {
  fault: InjectedFault | null;
  setHead?: OperatorResult;
}

/** An input from outside waiting for a window barrier, and how its caller hears back. */
export interface WaitingInput {
  input: JournalInputBody;
  /** Journaled and entered at the barrier (a setHead: once the node has done it). */
  journaled(done: InputDone): void;
  /** Never journaled (the devnet stopped first): nothing was applied. */
  refused(message: string): void;
}

export interface InjectedFault {
  index: number;
  kind: string;
  /** The fault as the scenario format writes it. */
  fault: Record<string, unknown>;
  description: string;
  barrier: number;
  atMs: number;
  endsAtMs: number | null;
}

export interface SnapshotInfo {
  id: string;
  name: string;
  barrier: number;
  timeMs: number;
  /** Its line in the journal (0-based): the position a revert truncates at. */
  line: number;
}

/** Where the first start of a home that opens a run at a time stopped. */
export interface OpenedAt {
  timeMs: number;
  barrier: number;
  pauseBeforeMs: number;
}

/** Node access: the run as it is now (a revert replaces it) and its nodes by validator index (1-based). */
export interface LiveNodes {
  readonly run: PreparedRun;
  readonly nodeCount: number;
  serviceNode(i: number): ServiceNode;
  sidechainNode(i: number): SidechainNode;
}

/** Where the devnet stands. */
export interface LiveState {
  /** Until the journal has been replayed (and a run opened at a time has reached its time). */
  readonly replaying: boolean;
  readonly isPaused: boolean;
  readonly isStopped: boolean;
}

/** The devnet's home and options. */
export interface LiveSetting {
  readonly config: DevnetConfig;
  readonly opts: LiveOptions;
}

/** The way in for inputs from outside: each is journaled, then enters at the next window barrier. */
export interface LiveInbox {
  enqueue(w: WaitingInput): void;
  /** The service transactions waiting for a barrier (journaled or about to be), as tx bytes. */
  waitingServiceTxs(): Hex[];
}

/** Where a started devnet's servers listen (data/ports.json). */
export interface ServerPorts {
  rest: number;
  status: number;
  jsonRpc: number;
  ws: number;
  /** The operator console's socket path (validator node_index's). */
  console: string;
}
