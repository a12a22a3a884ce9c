/**
 * Who sends a checkpoint to the parent chain: only the validator the checkpoint names as its
 * proposer (Heimdall's bridge sends a checkpoint the service agreed on to the root chain only when
 * it is the current proposer, `IsCurrentProposer`; spec, What the service does 10: checkpoints are
 * submitted to parent-chain contracts once a majority attested them). A validator that is not the
 * proposer and submits anyway pays the parent chain's gas for a checkpoint that is not its own,
 * and every other validator's bridge would do the same: N submissions of one checkpoint.
 *
 * The proposer is a validator, not a key: a validator whose signer changed after its checkpoint
 * was buffered submits (or resubmits) it from its new signer, as the reference's current proposer
 * would. So a call is judged against the signers the proposer's validator has had on the
 * submitting node's own state (its genesis and committed validator records).
 *
 * Judged on what the bridge reports it sent (`bridge.parentCall`: the call's sender and the
 * proposer the checkpoint names), so it holds whatever the parent chain does with the call.
 */
import { Oracle, type RunRecord } from './oracle';

export class CheckpointSubmitterOracle extends Oracle {
  readonly name = 'checkpoint-submitter';
  readonly class = 'safety' as const;
  readonly reads = ['service.genesis', 'service.commit', 'bridge.parentCall'] as const;
  /** Per node: every signer each validator id has had on that node's state. */
  private readonly signers = new Map<string, Map<bigint, Set<string>>>();

  override observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind === 'service.genesis' || o.kind === 'service.commit') {
      for (const w of o.kind === 'service.genesis' ? o.state : o.writes)
        if (w.what === 'validator') this.signerOf(r.node, w.id).add(w.signer.toLowerCase());
      return;
    }
    if (o.kind !== 'bridge.parentCall' || o.method !== 'submitCheckpoint') return;
    this.saw('bridge.checkpoint.proposer-submits');
    const from = o.from.toLowerCase();
    const proposer = o.proposer?.toLowerCase() ?? null;
    if (proposer !== null && (from === proposer || this.sameValidator(r.node, from, proposer))) return;
    this.fail(
      r.t,
      r.node,
      `${r.node} sent checkpoint ${o.key} to the parent chain as ${o.from}, but its proposer is ${o.proposer ?? 'not named'}`,
      { key: o.key, from: o.from, proposer: o.proposer },
    );
  }

  private signerOf(node: string, id: bigint): Set<string> {
    const byId = this.signers.get(node) ?? new Map<bigint, Set<string>>();
    this.signers.set(node, byId);
    const set = byId.get(id) ?? new Set<string>();
    byId.set(id, set);
    return set;
  }

  /** Whether one validator has had both addresses as its signer (a signer change in between). */
  private sameValidator(node: string, a: string, b: string): boolean {
    for (const set of this.signers.get(node)?.values() ?? []) if (set.has(a) && set.has(b)) return true;
    return false;
  }
}
