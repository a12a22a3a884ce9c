/** How to run a scenario: the seed, how far, what to watch (trace, records, progress, barriers), where the sidechain domain runs. */
import { type MainDomain } from '../domain/mainDomain';
import { type TraceRecorder, type TraceSink } from '../trace/traceRecorder';
import { type RunRecord } from '../core/record';
import { type SidechainReportQuery } from '../domain/sidechainDomain';
import { type Placement } from './runResult';

export interface RunOptions {
  seed: number;
  untilMs?: number;
  /** The main domain's trace recorder (its sinks see the main domain's lines only; see traceSink). */
  trace?: TraceRecorder;
  /**
   * Every trace line of the run (JSONL), both domains merged in canonical order: by time, main
   * first on ties (a line goes out once both domains have run past its time).
   */
  traceSink?: TraceSink;
  /** Every record (observation) of both domains, in the same canonical order; for oracles. */
  onRecord?: (record: RunRecord) => void;
  /** What the sidechain domain should compute at the end (e.g. checkpoint roots), asked with the main domain's final state. */
  sidechainQuery?: (main: MainDomain) => SidechainReportQuery;
  /** Where the sidechain domain runs (default inline). `runScenario`/`prepareRun` are inline only. */
  placement?: Placement;
  /** Called every `progressEveryMs` of simulated time (for progress bars); return 'stop' to end early. */
  onProgress?: (simulatedMs: number, totalMs: number) => 'stop' | undefined;
  progressEveryMs?: number;
  /**
   * How much simulated time one `step()` covers at most (default: the larger of the sample and
   * progress spacing). A devnet paced to the wall clock takes short steps.
   */
  stepMs?: number;
  /**
   * Called at every window barrier, after both domains ran the window (`barrier` counts them).
   * The only place where input from outside the simulation may enter (`deliverExternal`), so a
   * replay that makes the same calls at the same barriers runs the same events.
   */
  onBarrier?: (barrier: number) => void;
  /** Samples for plots are taken this often (default: 120 samples over the run). */
  sampleEveryMs?: number;
  /**
   * Worker placement only: how long each thread spins on the barrier channel before it sleeps
   * (ms; see sim/workers/barrierChannel.ts). Spinning saves the thread wake-up (~0.1 ms) per
   * barrier but steals cycles where two threads share a loop. Never changes results.
   */
  barrierSpinMs?: { main?: number; worker?: number };
  /**
   * Check every module's invariant at the end of every block the service nodes execute; a broken
   * one ends the run as a crash naming the invariant, the height and the seed (test builds check
   * them always; see src/app/invariantCheck.ts).
   */
  checkInvariants?: boolean;
  /**
   * Share block execution between the service nodes (default on): a node adopts the record of a
   * block another node already applied to the same state (src/app/sharedExecution.ts). Off runs
   * every block on every node; the trace hash is the same either way.
   */
  sharedExecution?: boolean;
}
