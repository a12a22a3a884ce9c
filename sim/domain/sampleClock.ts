/**
 * When a domain takes its plot samples: every `everyMs` of virtual time and once at the end of the
 * run (`untilMs`), never after. The domain takes each one when its engine passes that time inside
 * a window, so sampling never moves a barrier (and never changes a trace hash).
 */
export class SampleClock {
  private nextMs: number;

  constructor(
    private readonly untilMs: number,
    private readonly everyMs: number,
  ) {
    this.nextMs = Math.min(everyMs, untilMs);
  }

  /** The next sample time if it falls in the window `(ranToMs, windowEndMs]`, else null. */
  dueIn(ranToMs: number, windowEndMs: number): number | null {
    return this.nextMs <= windowEndMs && this.nextMs > ranToMs ? this.nextMs : null;
  }

  /** The sample at the current time was taken: move to the next one. */
  advance(): void {
    this.nextMs = this.nextMs >= this.untilMs ? Infinity : Math.min(this.nextMs + this.everyMs, this.untilMs);
  }
}
