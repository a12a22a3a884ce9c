/**
 * The service consensus's validator set per height, with proposer priorities computed here by the
 * oracles' own Tendermint model (model/proposerPriority.ts, heimdall.md §4.4), from raw facts only:
 * the genesis members (`consensus.setChange` at height 1) and the validator updates each committed
 * block returned (`consensus.setChange` at the next height). The set of height h + 1 is the set
 * of height h with block h's updates applied (UpdateWithChangeSet) and one more proposer rotation
 * (IncrementProposerPriority(1)); the proposer of round r at height h is that height's set after r
 * further rotations (CometBFT's enterNewRound). Block h's updates govern height h + 1 here, as the
 * project's consensus applies them; Tendermint (and Heimdall over it) applies ABCI validator
 * updates one height later (h + 2), a difference the facts report as it is (`height`).
 */
import { type RunRecord } from '../oracle';
import { PrioritySet } from './proposerPriority';

/** Sets of heights this far below the newest one asked for are dropped. */
const KEEP_HEIGHTS = 512n;

export class ConsensusSets {
  private readonly changes = new Map<bigint, Array<{ address: string; power: bigint }>>();
  private readonly sets = new Map<bigint, PrioritySet>();
  /** The highest height known to be committed by some node (the set of the next one is decided). */
  private committed = 0n;
  /** Why the model could not follow (a change set its rules refuse), or null. */
  broken: string | null = null;

  observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind === 'consensus.setChange') {
      if (!this.changes.has(o.height))
        this.changes.set(
          o.height,
          o.changes.map((c) => ({ ...c })),
        );
    } else if (o.kind === 'service.commit' && o.height > this.committed) {
      this.committed = o.height;
    }
  }

  /** The set of `height`, or undefined when it is not known yet (or the model broke). */
  at(height: bigint): PrioritySet | undefined {
    const hit = this.sets.get(height);
    if (hit) return hit;
    if (this.broken !== null || height < 1n) return undefined;
    if (height === 1n) {
      const genesis = this.changes.get(1n);
      if (!genesis) return undefined;
      const set = this.make(() => PrioritySet.create(genesis));
      return set ? this.keep(1n, set) : undefined;
    }
    // Block height - 1 must be committed for its updates (or their absence) to be known.
    if (height - 1n > this.committed) return undefined;
    let from = height - 1n;
    while (from >= 1n && !this.sets.has(from)) from--;
    let set = from >= 1n ? this.sets.get(from) : this.at(1n);
    if (!set) return undefined;
    for (let h = (from >= 1n ? from : 1n) + 1n; h <= height; h++) {
      const prev: PrioritySet = set;
      const next = this.make(() => {
        const s = prev.copy();
        s.update(this.changes.get(h) ?? []);
        s.increment(1);
        return s;
      });
      if (!next) return undefined;
      set = this.keep(h, next);
    }
    return set;
  }

  /** The proposer of round `round` at `height` (lower-case address), or undefined when unknown. */
  proposerOf(height: bigint, round: number): string | undefined {
    const set = this.at(height);
    if (!set) return undefined;
    if (round === 0) return set.proposer ?? undefined;
    const s = set.copy();
    s.increment(round);
    return s.proposer ?? undefined;
  }

  private make(build: () => PrioritySet): PrioritySet | undefined {
    try {
      return build();
    } catch (e) {
      this.broken = (e as Error).message;
      return undefined;
    }
  }

  private keep(height: bigint, set: PrioritySet): PrioritySet {
    this.sets.set(height, set);
    if (height > KEEP_HEIGHTS) for (const h of this.sets.keys()) if (h < height - KEEP_HEIGHTS) this.sets.delete(h);
    return set;
  }
}
