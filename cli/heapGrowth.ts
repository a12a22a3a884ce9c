/**
 * How far V8 lets the heap grow past what its last full collection kept: the `lockstep` command
 * sets it once at start (a process-wide V8 flag, read at every collection, so the worker threads
 * of a campaign or of the worker placement follow it too).
 *
 * Why: a run keeps a history that only grows (each height's block with its commit, each node's
 * chain, the records for the report), and V8's default lets the heap reach up to four times what
 * is live between two full collections. At 105 validators over a simulated hour some 460 MB are
 * live at the end, and the process peaked at 1.5–1.6 GB. A factor of 2 held the same run at
 * 1.04–1.05 GB (two runs). Its CPU cost is small but not pinned down on this noisy VM: 167 s
 * against 164 s without it in one pair; 188 s against 155 s in two scale bench runs, where the
 * unchanged "before" build took 184 s and 181 s. 20 simulated minutes, three runs each: 570 MB
 * instead of 790 MB for 1.04x the CPU (0.94–1.15); at 7 validators the CPU did not change.
 * (bench/scaleRun.ts.)
 */
import { setFlagsFromString } from 'node:v8';

/** The heap may grow to (1 + this / 100) times what the last full collection kept. */
const HEAP_GROWING_PERCENT = 100;

/** Set the factor for this process (idempotent). */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
