/**
 * Round proposers (Tendermint; heimdall.md §4.4 for the priority arithmetic): the proposer of
 * round r at height h is the height's validator set after r further proposer-priority rotations,
 * and a height's set is the previous one with the block's validator updates applied and one
 * rotation. Judged on every proposal a node makes itself (a proposal another node passes on may
 * be a Byzantine one in a round it does not own, which consensus refuses): its maker must be the
 * proposer of its round by the oracles' own priority model (model/consensusSets.ts).
 */
import { Oracle, type RunRecord } from './oracle';
import { ConsensusSets } from './model/consensusSets';

export class RoundProposerOracle extends Oracle {
  readonly name = 'round-proposer';
  readonly class = 'safety' as const;
  readonly reads = ['consensus.setChange', 'service.commit', 'consensus.proposal'] as const;
  readonly sets = new ConsensusSets();

  constructor(
    /** The address a service node signs with (by node id), if known. */
    private readonly addressOf: (node: string) => string | undefined,
  ) {
    super();
  }

  override observe(r: RunRecord): void {
    const o = r.obs;
    this.sets.observe(r);
    if (o.kind !== 'consensus.proposal') return;
    const me = this.addressOf(r.node)?.toLowerCase();
    if (me === undefined || o.proposer.toLowerCase() !== me) return;
    const expected = this.sets.proposerOf(o.height, o.round);
    if (expected === undefined) return;
    this.saw('consensus.proposer.round-rotation');
    if (expected !== me)
      this.fail(
        r.t,
        r.node,
        `proposed at height ${o.height} round ${o.round}, whose proposer by priority is ${expected}`,
        { height: o.height, round: o.round, proposer: me, expected },
      );
  }
}
