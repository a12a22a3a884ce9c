/**
 * Bor's checkpoint whitelisting (sidechain.md §3.2, borVerify): the acked checkpoint's end block
 * becomes the finality floor only if this node's canonical chain has the checkpoint's root hash
 * over its range. A node still below the end waits (errChainOutOfSync). On a mismatch the node is
 * on a losing fork: it switches to the checkpointed fork if it stores it; otherwise it rewinds to
 * its floor (else the block before the range), at most 126 blocks below its head, and its peers
 * bring the checkpointed chain back.
 */
import { type Hex } from '../../core/bytes';
import { isPlanted } from '../../core/plants';
import { type Reorg, type SidechainChain } from '../../sidechain/chain';
import { type Observation } from '../observations';
import { headFact, reorgObservation } from './sidechainFacts';

/** Bor's cap on a rewind after a checkpoint mismatch (`maxRewindLen`). */
export const MAX_REWIND = 126n;
/** Bor's checkpoint fetch-and-verify period: at most one mismatch rewind per this long. */
export const CHECKPOINT_RECHECK_MS = 100_000;

/** What the whitelist may make its node do. */
export interface WhitelistActions {
  observe(o: Observation): void;
  /** Plan production again (the head moved under the plan, to another branch when `reorg`). */
  replan(reorg: Reorg | null): void;
  /** Forget the blocks above `n`, keeping the blocks waiting for parents (they came from peers). */
  rewind(n: bigint): { ok: true; removed: number } | { ok: false; error: string };
}

export class CheckpointWhitelist {
  private lastMismatchRewindMs = -Infinity;

  /** After a crash: the recheck period starts afresh. */
  reset(): void {
    this.lastMismatchRewindMs = -Infinity;
  }

  apply(
    chain: SidechainChain,
    cp: { start: bigint; end: bigint; rootHash: Hex },
    nowMs: number,
    act: WhitelistActions,
  ): void {
    const floor = chain.finalityFloor();
    if (floor && floor.number >= cp.end) return;
    const head = chain.head().block.header.number;
    if (head < cp.end) return;
    const local = chain.rootHash(cp.start, cp.end);
    // A root this node cannot compute (a range over Bor's limit) is neither whitelisted nor a mismatch.
    if (!local.ok) return;
    const root = cp.rootHash.replace(/^0x/i, '').toLowerCase();
    if (local.root === root) {
      if (!isPlanted('floor-unmoved')) chain.setFinalized(cp.end);
      const now = chain.finalityFloor();
      if (now && (!floor || now.number !== floor.number))
        act.observe({ kind: 'sidechain.finalized', number: now.number, hash: now.hash });
      return;
    }
    // The checkpointed fork lost the fork choice here (a reorg below a checkpoint voted but not yet
    // acked). If its blocks are stored, switch back to it and make it final (Bor re-inserts them).
    const fork = chain.findCheckpointFork(cp.start, cp.end, root);
    if (fork) {
      const reorg: Reorg | null = chain.finalizeFork(fork, nowMs);
      act.observe({
        kind: 'sidechain.checkpointFork',
        start: cp.start,
        end: cp.end,
        fork: fork.block.hash,
        head: headFact(chain),
      });
      if (reorg) act.observe(reorgObservation(reorg));
      act.replan(reorg);
      return;
    }
    // Bor checks its checkpoint every 100 s; rewinding at every poll would undo the catch-up.
    if (nowMs - this.lastMismatchRewindMs < CHECKPOINT_RECHECK_MS) return;
    this.lastMismatchRewindMs = nowMs;
    let target = floor ? floor.number : cp.start - 1n;
    if (target < head - MAX_REWIND) target = head - MAX_REWIND;
    const r = target >= 0n && target < head ? act.rewind(target) : null;
    act.observe({
      kind: 'sidechain.checkpointMismatch',
      start: cp.start,
      end: cp.end,
      headBefore: head,
      rewoundTo: r?.ok ? target : null,
      removed: r?.ok ? r.removed : 0,
      head: headFact(chain),
    });
  }
}
