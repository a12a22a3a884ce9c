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
    assert(Number.isSafeInteger(timeMs) && timeMs >= this.now, 'virtual time must be an integer that never goes back', {
      now: this.now,
      to: timeMs,
    });
    this.now = timeMs;
  }
}
