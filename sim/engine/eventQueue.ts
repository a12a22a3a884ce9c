/**
 * A binary min-heap of events ordered by (timeMs, seq). `seq` is unique and increasing in the
 * order events were scheduled, so the order is total and independent of heap internals.
 */
export interface QueuedEvent {
  readonly timeMs: number;
  readonly seq: number;
}

export class EventQueue<E extends QueuedEvent> {
  private heap: E[] = [];

  get size(): number {
    return this.heap.length;
  }

  peek(): E | undefined {
    return this.heap[0];
  }

  push(ev: E): void {
    const heap = this.heap;
    let i = heap.length;
    heap.push(ev);
    // sift up
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent]!;
      if (p.timeMs < ev.timeMs || (p.timeMs === ev.timeMs && p.seq < ev.seq)) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = ev;
  }

  pop(): E | undefined {
    const heap = this.heap;
    const n = heap.length;
    if (n === 0) return undefined;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (n === 1) return top;
    // sift down
    const size = n - 1;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      let c = l;
      let ce = heap[l]!;
      if (r < size) {
        const re = heap[r]!;
        if (re.timeMs < ce.timeMs || (re.timeMs === ce.timeMs && re.seq < ce.seq)) {
          c = r;
          ce = re;
        }
      }
      if (last.timeMs < ce.timeMs || (last.timeMs === ce.timeMs && last.seq < ce.seq)) break;
      heap[i] = ce;
      i = c;
    }
    heap[i] = last;
    return top;
  }

  clear(): void {
    this.heap = [];
  }
}
