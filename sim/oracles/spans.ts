/**
 * Span proposals (spec item 7, README item 2): a validator votes yes on a span proposal only when
 * the sidechain head n it sees satisfies the current span's `StartBlock <= n < EndBlock`; the
 * spans the service stores continue one another (id + 1, start = previous end + 1) and are one
 * span duration long. Both checked from raw facts: the head the node saw, the span as stored.
 */
import { Oracle, type RunRecord } from './oracle';

export class SpanOracle extends Oracle {
  readonly name = 'span-window-and-continuity';
  readonly class = 'safety' as const;
  readonly reads = ['service.genesis', 'side.vote', 'service.commit'] as const;
  private spanDuration: bigint | null = null;
  /** Per node: the last span it stored. */
  private readonly last = new Map<string, { id: bigint; endBlock: bigint }>();

  override observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind === 'side.vote' && o.vote === 'yes') {
      this.saw('span.proposal.window');
      this.saw('bridge.span.proposes-in-window');
      const head = o.head;
      if (head === null || !(o.currentStart <= head && head < o.currentEnd)) {
        this.fail(
          r.t,
          r.node,
          `voted yes on span ${o.spanId} with head ${head ?? 'unknown'} outside [${o.currentStart}, ${o.currentEnd})`,
          { spanId: o.spanId, head, start: o.currentStart, end: o.currentEnd },
        );
      }
      return;
    }
    if (o.kind === 'service.genesis') {
      this.spanDuration ??= o.params.spanDuration;
      for (const w of o.state)
        if (w.what === 'span' && w.id > (this.last.get(r.node)?.id ?? -1n))
          this.last.set(r.node, { id: w.id, endBlock: w.endBlock });
      return;
    }
    if (o.kind !== 'service.commit') return;
    for (const w of o.writes) {
      if (w.what !== 'span') continue;
      const prev = this.last.get(r.node);
      this.last.set(r.node, { id: w.id, endBlock: w.endBlock });
      if (!prev) continue;
      this.saw('span.store.continuous');
      this.saw('span.store.duration');
      if (w.id !== prev.id + 1n || w.startBlock !== prev.endBlock + 1n) {
        this.fail(
          r.t,
          r.node,
          `span ${w.id} (${w.startBlock}..${w.endBlock}) does not continue span ${prev.id} ending at ${prev.endBlock}`,
          { id: w.id, start: w.startBlock, end: w.endBlock, prevId: prev.id, prevEnd: prev.endBlock },
        );
      } else if (this.spanDuration !== null && w.endBlock - w.startBlock + 1n !== this.spanDuration) {
        this.fail(r.t, r.node, `span ${w.id} is ${w.endBlock - w.startBlock + 1n} blocks, not ${this.spanDuration}`, {
          id: w.id,
          start: w.startBlock,
          end: w.endBlock,
        });
      }
    }
  }
}
