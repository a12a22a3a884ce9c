/**
 * A service node's views of the two chains it reads: the parent chain (from its `p.sync` polls)
 * and its local sidechain node (from `sc.getHeaders` polls). They are volatile (a crash loses them;
 * the polls rebuild them) and feed the bridge, the side votes and the REST queries (Observers).
 */
import { ParentView } from '../../bridge/parentView';
import { SidechainView } from '../../bridge/sidechainView';
import { type Observers } from '../../modules/framework/observers';
import { type NodeMessage } from '../messages';

/** After a gap in its sidechain view, the node asks its sidechain node again from this far back. */
export const SIDECHAIN_REFETCH_BLOCKS = 256n;

type HeadersAnswer = Extract<NodeMessage, { kind: 'sc.headers' }>;

export class ChainViews implements Observers {
  readonly parent = new ParentView();
  readonly sidechain = new SidechainView();
  /** Where the next sidechain poll starts after a gap (null: where the view ends). */
  private sidechainFrom: bigint | null = null;

  /** The next parent-chain poll: the blocks and header blocks past what the view holds. */
  parentPoll(): Extract<NodeMessage, { kind: 'p.sync' }> {
    return { kind: 'p.sync', fromBlock: this.parent.nextFrom(), fromHeaderBlock: this.parent.lastHeaderBlock() + 1n };
  }

  /** The next sidechain poll: past the view's end, or from further back after a gap. */
  sidechainPoll(): Extract<NodeMessage, { kind: 'sc.getHeaders' }> {
    return { kind: 'sc.getHeaders', from: this.sidechainFrom ?? this.sidechain.nextFrom() };
  }

  /** The sidechain node's answer: extend the view, or refetch from SIDECHAIN_REFETCH_BLOCKS before its anchor. */
  onHeaders(msg: HeadersAnswer): void {
    const ok = this.sidechain.update(msg.anchor, msg.headers, msg.head);
    const back =
      msg.anchor && msg.anchor.number > SIDECHAIN_REFETCH_BLOCKS ? msg.anchor.number - SIDECHAIN_REFETCH_BLOCKS : 0n;
    this.sidechainFrom = ok ? null : back;
  }
}
