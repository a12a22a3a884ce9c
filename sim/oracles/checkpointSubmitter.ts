/**
 * Who sends a checkpoint to the parent chain: only the validator the checkpoint names as its
 * proposer (Heimdall's bridge sends a checkpoint the service agreed on to the root chain from its
 * proposer alone; spec, What the service does 10: checkpoints are submitted to parent-chain
 * contracts once a majority attested them). A validator that is not the proposer and submits
 * anyway pays the parent chain's gas for a checkpoint that is not its own, and every other
 * validator's bridge would do the same: N submissions of one checkpoint.
 *
 * Judged on what the bridge reports it sent (`bridge.parentCall`: the call's sender and the
 * proposer the checkpoint names), so it holds whatever the parent chain does with the call.
 */
import { Oracle, type RunRecord } from './oracle';

export class CheckpointSubmitterOracle extends Oracle {
  readonly name = 'checkpoint-submitter';
  readonly class = 'safety' as const;

  override observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind !== 'bridge.parentCall' || o.method !== 'submitCheckpoint') return;
    this.saw('bridge.checkpoint.proposer-submits');
    if (o.proposer === null || o.from.toLowerCase() !== o.proposer.toLowerCase())
      this.fail(
        r.t,
        r.node,
        `${r.node} sent checkpoint ${o.key} to the parent chain as ${o.from}, but its proposer is ${o.proposer ?? 'not named'}`,
        { key: o.key, from: o.from, proposer: o.proposer },
      );
  }
}
