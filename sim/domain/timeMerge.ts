/**
 * Merge two time-ordered streams that arrive window by window (one per domain) into one stream in
 * canonical order: by time, the first stream (main) first on ties, each stream in its own order.
 * An item is released once both domains have run past its time, so the merged order does not
 * depend on where the barriers fell, nor on the placement.
 */
export class TimeMerge<T> {
  private readonly queues: [T[], T[]] = [[], []];
  private readonly heads: [number, number] = [0, 0];

  constructor(private readonly timeOf: (item: T) => number) {}

  push(stream: 0 | 1, items: readonly T[]): void {
    const q = this.queues[stream];
    for (const it of items) q.push(it);
  }

  /** Everything at or before `upToMs` (all of it when `upToMs` is Infinity), in canonical order. */
  release(upToMs: number): T[] {
    const [a, b] = this.queues;
    let i = this.heads[0];
    let j = this.heads[1];
    const out: T[] = [];
    for (;;) {
      const x = i < a.length && this.timeOf(a[i]!) <= upToMs ? a[i]! : undefined;
      const y = j < b.length && this.timeOf(b[j]!) <= upToMs ? b[j]! : undefined;
      if (x === undefined && y === undefined) break;
      if (y === undefined || (x !== undefined && this.timeOf(x) <= this.timeOf(y))) {
        out.push(x!);
        i++;
      } else {
        out.push(y);
        j++;
      }
    }
    this.heads[0] = i;
    this.heads[1] = j;
    // Drop what was released once it is a good part of the queue (amortised O(1) per item).
    for (const k of [0, 1] as const) {
      if (this.heads[k] > 1024 && this.heads[k] * 2 > this.queues[k].length) {
        this.queues[k].splice(0, this.heads[k]);
        this.heads[k] = 0;
      }
    }
    return out;
  }
}

/** The time of a trace line: every line starts with `{"t":<ms>,`. */
export function traceLineTimeMs(line: string): number {
  return parseInt(line.slice(5), 10);
}
