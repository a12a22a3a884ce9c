/**
 * Votes of one (height, round, type), weighted by voting power. The first vote of a validator
 * counts; a conflicting second one is kept as equivocation evidence and does not count.
 */
import { type Address } from '../core/address';
import { type Hex } from '../core/bytes';
import { type Vote } from './types';

export const NIL = 'nil';

export class VoteSet {
  private readonly byValidator = new Map<Address, Vote>();
  /**
   * Power per value (block hash or nil) and in all. Numbers while the set's total power is a safe
   * integer (every real set: sums never exceed it, so they are exact), bigints beyond: the tally
   * runs for every vote every node receives, and bigint sums allocate.
   */
  private readonly power = new Map<string, number | bigint>();
  private total: number | bigint;
  private readonly exact: boolean;
  /** p * 3 > 2T exactly when p > floor(2T / 3) (p an integer): the thresholds, computed once. */
  private readonly twoThirds: number | bigint;
  private readonly oneThird: number | bigint;
  readonly conflicts: Array<[Vote, Vote]> = [];

  constructor(
    private readonly powerOf: (a: Address) => bigint,
    readonly totalPower: bigint,
  ) {
    this.exact = totalPower <= BigInt(Number.MAX_SAFE_INTEGER);
    const twoThirds = (totalPower * 2n) / 3n;
    const oneThird = totalPower / 3n;
    this.twoThirds = this.exact ? Number(twoThirds) : twoThirds;
    this.oneThird = this.exact ? Number(oneThird) : oneThird;
    this.total = this.exact ? 0 : 0n;
  }

  /** Returns false for a duplicate or a conflicting vote. */
  add(v: Vote): boolean {
    const prev = this.byValidator.get(v.validator);
    if (prev) {
      if (prev.blockHash !== v.blockHash) this.conflicts.push([prev, v]);
      return false;
    }
    const p = this.powerOf(v.validator);
    if (p <= 0n) return false;
    this.byValidator.set(v.validator, v);
    const key = v.blockHash ?? NIL;
    if (this.exact) {
      const n = Number(p);
      this.power.set(key, ((this.power.get(key) as number | undefined) ?? 0) + n);
      this.total = (this.total as number) + n;
    } else {
      this.power.set(key, ((this.power.get(key) as bigint | undefined) ?? 0n) + p);
      this.total = (this.total as bigint) + p;
    }
    return true;
  }

  /** More than 2/3 of the total for one value (a block hash or nil). */
  twoThirdsFor(blockHash: Hex | null): boolean {
    const p = this.power.get(blockHash ?? NIL);
    return p !== undefined && p > this.twoThirds;
  }

  /** The value with +2/3, if any. */
  majority(): Hex | null | undefined {
    for (const [k, p] of this.power) if (p > this.twoThirds) return k === NIL ? null : (k as Hex);
    return undefined;
  }

  /** More than 2/3 of the total voted, for anything. */
  twoThirdsAny(): boolean {
    return this.total > this.twoThirds;
  }

  /** More than 1/3 voted (a round skip is safe). */
  oneThirdAny(): boolean {
    return this.total > this.oneThird;
  }

  /** How many validators voted. */
  get size(): number {
    return this.byValidator.size;
  }

  votesFor(blockHash: Hex | null): Vote[] {
    return [...this.byValidator.values()].filter((v) => v.blockHash === blockHash);
  }

  all(): Vote[] {
    return [...this.byValidator.values()];
  }

  /** The validators that voted, in the order their votes came. */
  voters(): IterableIterator<Address> {
    return this.byValidator.keys();
  }

  has(a: Address): boolean {
    return this.byValidator.has(a);
  }
}
