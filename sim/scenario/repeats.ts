/** How a scheduled workload item repeats, and how a scenario file writes that. */
import { durationText } from '../../src/core/duration';

/**
 * How a scheduled workload item repeats: `repeat` times in all, `everyMs` apart (0: all at once,
 * at `atMs`). Both are optional in a spec built in code (1 and 0); the decoder fills them.
 */
export interface Repeats {
  repeat?: number;
  everyMs?: number;
}

/** `repeat` and `every` as a file writes them: only when they differ from the defaults. */
export function encodeRepeats(t: Repeats): Record<string, unknown> {
  return { ...((t.repeat ?? 1) !== 1 ? { repeat: t.repeat } : {}), ...encodeEvery(t) };
}

export function encodeEvery(t: Repeats): Record<string, unknown> {
  return (t.everyMs ?? 0) !== 0 ? { every: durationText(t.everyMs!) } : {};
}
