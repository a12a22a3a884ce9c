/**
 * Fork choice: every sidechain node's head is the heaviest chain it knows (by Bor's rule), reorgs
 * stay within the scenario's bound, and all honest nodes converge once faults have healed.
 */
import { maxBig } from '../../src/core/amount';
import { Oracle, big, str, type Observation } from './oracle';

export class ForkChoiceOracle extends Oracle {
  readonly name = 'fork-choice';
  readonly class = 'safety' as const;

  constructor(private readonly maxReorgDepth: number | null) {
    super();
  }

  override observe(o: Observation): void {
    if (o.kind === 'sidechain.headCheck' && str(o.data.head) !== str(o.data.heaviest)) {
      this.fail(o.t, o.node, `head ${o.data.head} is not the heaviest known chain ${o.data.heaviest}`, { ...o.data });
    }
    if (o.kind === 'sidechain.reorg' && this.maxReorgDepth !== null && Number(o.data.depth) > this.maxReorgDepth) {
      this.fail(o.t, o.node, `reorg of depth ${o.data.depth} exceeds the scenario's bound ${this.maxReorgDepth}`, {
        ...o.data,
      });
    }
  }
}

export class ConvergenceOracle extends Oracle {
  readonly name = 'sidechain-convergence';
  readonly class = 'liveness' as const;

  /** heads: per live node, its head number and its canonical hash at `at` (a common height). */
  check(atMs: number, heads: Array<{ node: string; number: bigint; hashAt: string | null }>, lagBound = 4n): void {
    if (heads.length < 2) return;
    const top = heads.reduce((m, h) => maxBig(h.number, m), 0n);
    for (const h of heads) {
      if (top - h.number > lagBound) {
        this.fail(atMs, h.node, `sidechain node is ${top - h.number} blocks behind after the faults healed`, {
          head: h.number.toString(),
          best: top.toString(),
        });
        return;
      }
    }
    const hashes = new Set(heads.map((h) => h.hashAt));
    if (hashes.size > 1)
      this.fail(atMs, heads[0]!.node, 'sidechain nodes disagree on the canonical chain after the faults healed', {
        hashes: [...hashes].map(String),
      });
  }
}

export { big };
