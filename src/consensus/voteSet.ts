/**
 * Votes of one (height, round, type), weighted by voting power. The first vote of a validator
 * counts; a conflicting second one is kept as equivocation evidence and does not count.
 */
import { type Address } from '../core/address';
import { type Hex } from '../core/bytes';
import { type Vote } from './types';

export const NIL = 'nil';

/** What a vote set needs of the validator set: positions by address, and powers. */
export interface Voters {
  /** Position of `address` in the set, -1 when it is not a member. */
  indexOfAddress(address: string): number;
  powerAt(index: number): bigint;
  readonly size: number;
}

export class VoteSet {
  /** The vote of each validator, by its position in the set. */
  private readonly byIndex: Array<Vote | undefined>;
  /** Every counted vote, in the order it came (commits list their votes in this order). */
  private readonly order: Vote[] = [];
  /**
   * Power per value (block hash or nil; rarely more than two, so a list) and in all. Numbers
   * while the set's total power is a safe integer (every real set: sums never exceed it, so they
   * are exact), bigints beyond: the tally runs for every vote every node receives, and bigint
   * sums allocate.
   */
  private readonly values: string[] = [];
  private readonly powers: Array<number | bigint> = [];
  private total: number | bigint;
  private readonly exact: boolean;
  /** p * 3 > 2T exactly when p > floor(2T / 3) (p an integer): the thresholds, computed once. */
  private readonly twoThirds: number | bigint;
  private readonly oneThird: number | bigint;
  readonly conflicts: Array<[Vote, Vote]> = [];

  constructor(
    private readonly members: Voters,
    readonly totalPower: bigint,
  ) {
    this.byIndex = new Array(members.size).fill(undefined);
    this.exact = totalPower <= BigInt(Number.MAX_SAFE_INTEGER);
    const twoThirds = (totalPower * 2n) / 3n;
    const oneThird = totalPower / 3n;
    this.twoThirds = this.exact ? Number(twoThirds) : twoThirds;
    this.oneThird = this.exact ? Number(oneThird) : oneThird;
    this.total = this.exact ? 0 : 0n;
  }

  /** Returns false for a duplicate, a conflicting vote, or a vote of a non-member. */
  add(v: Vote): boolean {
    const i = this.members.indexOfAddress(v.validator);
    if (i < 0) return false;
    const prev = this.byIndex[i];
    if (prev) {
      if (prev.blockHash !== v.blockHash) this.conflicts.push([prev, v]);
      return false;
    }
    const p = this.members.powerAt(i);
    if (p <= 0n) return false;
    this.byIndex[i] = v;
    this.order.push(v);
    const key = v.blockHash ?? NIL;
    let k = this.values.indexOf(key);
    if (k < 0) {
      k = this.values.length;
      this.values.push(key);
      this.powers.push(this.exact ? 0 : 0n);
    }
    if (this.exact) {
      const n = Number(p);
      this.powers[k] = (this.powers[k] as number) + n;
      this.total = (this.total as number) + n;
    } else {
      this.powers[k] = (this.powers[k] as bigint) + p;
      this.total = (this.total as bigint) + p;
    }
    return true;
  }

  /** More than 2/3 of the total for one value (a block hash or nil). */
  twoThirdsFor(blockHash: Hex | null): boolean {
    const k = this.values.indexOf(blockHash ?? NIL);
    return k >= 0 && this.powers[k]! > this.twoThirds;
  }

  /** The value with +2/3, if any (at most one value can have it). */
  majority(): Hex | null | undefined {
    for (let k = 0; k < this.values.length; k++)
      if (this.powers[k]! > this.twoThirds) return this.values[k] === NIL ? null : (this.values[k] as Hex);
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
    return this.order.length;
  }

  votesFor(blockHash: Hex | null): Vote[] {
    return this.order.filter((v) => v.blockHash === blockHash);
  }

  all(): Vote[] {
    return this.order.slice();
  }

  /** The validators that voted, in the order their votes came. */
  voters(): Address[] {
    return this.order.map((v) => v.validator);
  }

  has(a: Address): boolean {
    const i = this.members.indexOfAddress(a);
    return i >= 0 && this.byIndex[i] !== undefined;
  }
}
