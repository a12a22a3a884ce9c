/**
 * When faults were in force, from the simulator's own records (fault.start / fault.end): the
 * progress oracles judge a timing rule only where no fault could excuse a delay.
 */
import { type RunRecord } from '../oracle';

export class FaultWindows {
  private readonly open = new Map<number, number>();
  private readonly closed: Array<{ fromMs: number; toMs: number }> = [];
  private lastEndMs = -Infinity;

  observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind === 'fault.start') {
      if (!this.open.has(o.index)) this.open.set(o.index, r.t);
    } else if (o.kind === 'fault.end') {
      const from = this.open.get(o.index);
      if (from === undefined) return;
      this.open.delete(o.index);
      this.closed.push({ fromMs: from, toMs: r.t });
      if (r.t > this.lastEndMs) this.lastEndMs = r.t;
    }
  }

  /** Whether a fault is in force now. */
  get inForce(): boolean {
    return this.open.size > 0;
  }

  /** When the last fault ended (-Infinity: none did). */
  get lastHealMs(): number {
    return this.lastEndMs;
  }

  /** No fault was in force at any moment of [fromMs - marginMs, toMs]. */
  calm(fromMs: number, toMs: number, marginMs = 0): boolean {
    const from = fromMs - marginMs;
    for (const start of this.open.values()) if (start <= toMs) return false;
    for (const w of this.closed) if (w.fromMs <= toMs && w.toMs >= from) return false;
    return true;
  }
}
