/**
 * Liveness after faults heal: within a bound after the last fault ended (or after the start, when
 * there were none), service blocks commit and sidechain blocks are produced again, and checkpoints
 * resume within the buffer time plus a checkpoint interval. Checked only when the run goes on long
 * enough after the heal; a permanent fault (no end) disables it.
 */
import { Oracle, type RunRecord } from './oracle';

export interface LivenessBounds {
  serviceMs: number;
  sidechainMs: number;
  /** Checkpoints: buffer time + interval + slack; null to skip. */
  checkpointMs: number | null;
}

type Kind = 'service block' | 'sidechain block' | 'checkpoint ack';

export class LivenessOracle extends Oracle {
  readonly name = 'liveness-after-heal';
  readonly class = 'liveness' as const;
  readonly reads = ['fault.start', 'fault.end', 'service.commit', 'sidechain.imported'] as const;
  private healedAt = 0;
  private openFaults = 0;
  private permanent = false;
  private firstAfter = new Map<Kind, number>();

  constructor(private readonly bounds: LivenessBounds) {
    super();
  }

  private seen(kind: Kind, t: number): void {
    if (this.openFaults === 0 && t >= this.healedAt && !this.firstAfter.has(kind)) this.firstAfter.set(kind, t);
  }

  override observe(r: RunRecord): void {
    const o = r.obs;
    switch (o.kind) {
      case 'fault.start':
        this.openFaults++;
        if (o.permanent) this.permanent = true;
        break;
      case 'fault.end':
        this.openFaults = Math.max(0, this.openFaults - 1);
        if (this.openFaults === 0) {
          this.healedAt = r.t;
          this.firstAfter = new Map();
        }
        break;
      case 'service.commit':
        this.seen('service block', r.t);
        if (o.writes.some((w) => w.what === 'checkpoint')) this.seen('checkpoint ack', r.t);
        break;
      case 'sidechain.imported':
        this.seen('sidechain block', r.t);
        break;
    }
  }

  /** At the end of the run (virtual ms since start). */
  finish(endMs: number): void {
    if (this.openFaults > 0 || this.permanent) return;
    const check = (kind: Kind, bound: number) => {
      if (endMs - this.healedAt < bound) return;
      if (kind === 'service block') this.saw('consensus.liveness.after-heal');
      else if (kind === 'sidechain block') this.saw('sidechain.liveness.after-heal');
      else this.saw('bridge.checkpoint.acks-resume');
      const first = this.firstAfter.get(kind);
      if (first === undefined || first - this.healedAt > bound) {
        this.fail(
          endMs,
          '',
          `no ${kind} within ${bound / 1000} s after ${this.healedAt === 0 ? 'the start' : `the faults healed at ${this.healedAt / 1000} s`}`,
          {
            healedAtMs: this.healedAt,
            firstAfterMs: first ?? null,
            boundMs: bound,
          },
        );
      }
    };
    check('service block', this.bounds.serviceMs);
    check('sidechain block', this.bounds.sidechainMs);
    if (this.bounds.checkpointMs !== null) check('checkpoint ack', this.bounds.checkpointMs);
  }
}
