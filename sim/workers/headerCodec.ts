/**
 * Header answers across the worker boundary, without re-sending what was sent before.
 *
 * Every service node polls its sidechain node every couple of seconds and gets the headers from
 * 32 blocks back (to notice short reorgs): most of each answer went across in an earlier one, and
 * structured-cloning them again is most of the bytes a barrier moves. The worker's encoder replaces
 * a header it already sent (same block hash, same fields) by its index in the order of first
 * sending; the main thread's decoder, which sees the same messages in the same order, swaps the
 * index back for the header it received then. Headers are immutable summaries, so handing the same
 * object to several messages is like handing fresh copies; the messages themselves are unchanged.
 */
import { type Hex } from '../../src/core/bytes';
import { type HeaderSummary } from '../../src/bridge/sidechainView';
import { type CrossMessage } from '../domain/windowProtocol';

/** An encoded `sc.headers` answer: each header is either new (sent in full) or the index of one sent before. */
interface EncodedHeaders {
  kind: 'sc.headers#refs';
  anchor: { number: bigint; hash: Hex } | null;
  refs: Array<number | HeaderSummary>;
  head: bigint;
}

/** The worker's end: one per run. */
export class HeaderEncoder {
  private readonly sent = new Map<Hex, { index: number; header: HeaderSummary }>();
  private count = 0;

  /** The outbound messages with their header answers encoded (the originals are not touched). */
  encode(outbound: CrossMessage[]): CrossMessage[] {
    if (!outbound.some((m) => m.msg.kind === 'sc.headers')) return outbound;
    return outbound.map((m) => {
      if (m.msg.kind !== 'sc.headers') return m;
      const refs = m.msg.headers.map((h): number | HeaderSummary => {
        const prior = this.sent.get(h.hash);
        if (prior && sameHeader(prior.header, h)) return prior.index;
        this.sent.set(h.hash, { index: this.count++, header: h });
        return h;
      });
      const msg: EncodedHeaders = { kind: 'sc.headers#refs', anchor: m.msg.anchor, refs, head: m.msg.head };
      return { ...m, msg: msg as unknown as CrossMessage['msg'] };
    });
  }
}

/** The main thread's end: one per run, fed every result in order. */
export class HeaderDecoder {
  private readonly known: HeaderSummary[] = [];

  /** Decode in place (the messages came out of a structured clone and belong to the caller). */
  decode(outbound: CrossMessage[]): CrossMessage[] {
    for (const m of outbound) {
      const msg = m.msg as unknown as EncodedHeaders;
      if (msg.kind !== 'sc.headers#refs') continue;
      const headers = msg.refs.map((r) => {
        if (typeof r !== 'number') {
          this.known.push(r);
          return r;
        }
        const h = this.known[r];
        if (h === undefined) throw new Error(`header codec: unknown header index ${r}`);
        return h;
      });
      m.msg = { kind: 'sc.headers', anchor: msg.anchor, headers, head: msg.head };
    }
    return outbound;
  }
}

function sameHeader(a: HeaderSummary, b: HeaderSummary): boolean {
  return (
    a.number === b.number &&
    a.hash === b.hash &&
    a.time === b.time &&
    a.txHash === b.txHash &&
    a.receiptHash === b.receiptHash
  );
}
