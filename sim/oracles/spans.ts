/**
 * Span proposals: a validator votes yes only when the sidechain head n it observes satisfies the
 * spec's window `span.StartBlock <= n < span.EndBlock`; recorded spans are continuous (id + 1,
 * start = previous end + 1) and one span duration long.
 */
import { Oracle, big, str, type Observation } from './oracle';

export class SpanOracle extends Oracle {
  readonly name = 'span-window-and-continuity';
  readonly class = 'safety' as const;

  override observe(o: Observation): void {
    if (o.kind === 'side.vote' && o.data.type === 'sidechain/MsgProposeSpan' && o.data.result === 'yes') {
      const head = big(o.data.head);
      const start = big(o.data.currentStart);
      const end = big(o.data.currentEnd);
      if (!(start <= head && head < end)) {
        this.fail(o.t, o.node, `voted yes on span ${o.data.spanId} with head ${head} outside [${start}, ${end})`, {
          spanId: str(o.data.spanId),
          head: head.toString(),
          start: start.toString(),
          end: end.toString(),
        });
      }
    }
    if (o.kind === 'service.span') {
      const id = big(o.data.id);
      const start = big(o.data.start);
      const end = big(o.data.end);
      if (id !== big(o.data.prevId) + 1n || start !== big(o.data.prevEnd) + 1n) {
        this.fail(
          o.t,
          o.node,
          `span ${id} (${start}..${end}) does not continue span ${o.data.prevId} ending at ${o.data.prevEnd}`,
          { ...o.data },
        );
      } else if (end - start + 1n !== big(o.data.spanDuration)) {
        this.fail(o.t, o.node, `span ${id} is ${end - start + 1n} blocks, not ${o.data.spanDuration}`, { ...o.data });
      }
    }
  }
}
