/**
 * Stakes for a large validator set, drawn from a named distribution (the scenario's compact form:
 * `"validators": {"count": 105, "stake": {...}}`). The draws come from their own seeded stream
 * (`stake/<seed>`), not from the run seed: a scenario file names one validator set, whatever seed
 * it runs with. Drawn stakes are sorted from the largest down, so validator 1 holds the most stake
 * (as the hand-written scenarios do); explicit weights keep their order.
 *
 * Pareto draws use `Math.pow`, which V8 computes with its own portable implementation (fdlibm's),
 * so the same file gives the same stakes on every platform Node runs on.
 */
import { InputError } from '../../src/core/errors';
import { Rng } from '../env/rng';

export type StakeDistribution =
  /** Every stake uniform in [min, max] tokens. */
  | { kind: 'uniform'; min: bigint; max: bigint; seed: number }
  /** A power law: `min / U^(1/alpha)` tokens (U uniform in (0, 1]), capped at max; smaller alpha = heavier tail. */
  | { kind: 'pareto'; alpha: number; min: bigint; max: bigint; seed: number }
  /** Stakes in proportion to the weights (one per validator), scaled to `total` tokens when given. */
  | { kind: 'weights'; weights: bigint[]; total: bigint | null };

/**
 * The default when a compact set names no distribution: Pareto with alpha 1.16 (the "80/20" law)
 * from 1,000 tokens, capped at 50 times that. A few validators hold a large share, as on a real
 * proof-of-stake network: with 105 validators the largest holds about a tenth of the stake and four
 * to nine of the largest hold a third (seeds 1 to 5). In a set of a few validators one may hold
 * more than a third: give such a set its stakes as a list.
 */
export const DEFAULT_STAKE_DISTRIBUTION: StakeDistribution = {
  kind: 'pareto',
  alpha: 1.16,
  min: 1000n,
  max: 50_000n,
  seed: 1,
};

/** `count` stakes in tokens (each at least 1), in validator order. */
export function drawStakes(count: number, d: StakeDistribution, field = 'validators.stake'): bigint[] {
  switch (d.kind) {
    case 'weights': {
      if (d.weights.length !== count)
        throw new InputError(
          `${field}.weights`,
          `expected ${count} weights (one per validator), got ${d.weights.length}`,
        );
      if (d.total === null) return d.weights.slice();
      const sum = d.weights.reduce((a, b) => a + b, 0n);
      // Largest-remainder would need ties broken; flooring and a floor of one token is enough here.
      return d.weights.map((w) => {
        const s = (d.total! * w) / sum;
        return s > 0n ? s : 1n;
      });
    }
    case 'uniform': {
      const rng = new Rng(`stake/${d.seed}`);
      const span = d.max - d.min;
      const out: bigint[] = [];
      for (let i = 0; i < count; i++) {
        // A 53-bit float: uniform enough for spans up to 2^53 tokens (the decoder's bound).
        const x = BigInt(Math.floor(rng.float() * (Number(span) + 1)));
        out.push(d.min + (x > span ? span : x));
      }
      return out.sort(descending);
    }
    case 'pareto': {
      const rng = new Rng(`stake/${d.seed}`);
      const min = Number(d.min);
      const out: bigint[] = [];
      for (let i = 0; i < count; i++) {
        const u = 1 - rng.float(); // (0, 1]
        const x = min / u ** (1 / d.alpha);
        const s = Number.isFinite(x) ? BigInt(Math.floor(x)) : d.max;
        out.push(s > d.max ? d.max : s < d.min ? d.min : s);
      }
      return out.sort(descending);
    }
  }
}

function descending(a: bigint, b: bigint): number {
  return a > b ? -1 : a < b ? 1 : 0;
}
