/**
 * Virtual time: integer milliseconds since the start of a run. The engine advances it; nodes read
 * it through this port (never the wall clock). A node's skewed view is `nowMs + skewMs`.
 */
import { assert } from '../../src/core/errors';

export interface Clock {
  nowMs(): number;
}

export class VirtualClock implements Clock {
  private now = 0;

  nowMs(): number {
    return this.now;
  }

  /** Only the engine moves time, and only forward. */
  advanceTo(timeMs: number): void {
    // Checked before building the assert's context: this runs for every event.
    if (!(Number.isSafeInteger(timeMs) && timeMs >= this.now))
      assert(false, 'virtual time must be an integer that never goes back', { now: this.now, to: timeMs });
    this.now = timeMs;
  }
}
