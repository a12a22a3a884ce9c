/**
 * Votes of one (height, round, type), weighted by voting power. Each validator counts once for
 * each value (a block hash or nil) it signed a vote for. A validator that signs two different
 * values (equivocation) is kept as evidence, and its power counts for both values: counting it
 * for only the first one this node happened to receive would let an equivocator show different
 * nodes different tallies for good (one node sees a polka the others can never complete, and
 * locked nodes stop agreeing: a liveness failure below 1/3 Byzantine power). Counting both is what
 * Tendermint's safety argument already allows for: two conflicting quorums of more than 2/3
 * overlap in more than 1/3 of the power, all equivocators, which the fault bound rules out.
 */
import { type Address } from '../core/address';
import { type Hex } from '../core/bytes';
import { isPlanted } from '../core/plants';
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
  /**
   * Every counted vote (equivocations included), in the order they came (commits list theirs so).
   * Each validator's first vote comes before any other of its votes, so without equivocations
   * (the rule) this is also each validator's first vote in order.
   */
  private readonly counted: Vote[] = [];
  /** The second and later values of equivocating validators (rare). */
  private readonly equivocations: Vote[] = [];
  /** How many validators voted. */
  private voterCount = 0;
  /**
   * Power per value (block hash or nil; rarely more than two, so a list) and in all, as running
   * sums. Numbers while the set's total power is a safe integer (every real set: sums never exceed
   * it, so they are exact), bigints beyond: the tally runs for every vote every node receives, and
   * bigint sums allocate. The number and bigint sums live in fields of their own type, so a number
   * sum is updated in place (a field that may hold either boxes every new number).
   */
  private readonly values: string[] = [];
  private readonly sums: number[] = [];
  private readonly bigSums: bigint[] = [];
  private total = 0;
  private bigTotal = 0n;
  private readonly exact: boolean;
  /** p * 3 > 2T exactly when p > floor(2T / 3) (p an integer): the thresholds, computed once. */
  private readonly twoThirds: number;
  private readonly oneThird: number;
  private readonly bigTwoThirds: bigint;
  private readonly bigOneThird: bigint;
  readonly conflicts: Array<[Vote, Vote]> = [];

  constructor(
    private readonly members: Voters,
    readonly totalPower: bigint,
  ) {
    this.byIndex = new Array(members.size).fill(undefined);
    this.exact = totalPower <= BigInt(Number.MAX_SAFE_INTEGER);
    this.bigTwoThirds = (totalPower * 2n) / 3n;
    this.bigOneThird = totalPower / 3n;
    this.twoThirds = this.exact ? Number(this.bigTwoThirds) : 0;
    this.oneThird = this.exact ? Number(this.bigOneThird) : 0;
  }

  /** Returns false for a duplicate or a vote of a non-member; a conflicting vote counts for its value. */
  add(v: Vote): boolean {
    const i = this.members.indexOfAddress(v.validator);
    if (i < 0) return false;
    const p = this.members.powerAt(i);
    if (p <= 0n) return false;
    const prev = this.byIndex[i];
    if (prev) {
      if (prev.blockHash === v.blockHash) return false;
      if (this.equivocations.some((e) => e.validator === v.validator && e.blockHash === v.blockHash)) return false;
      this.conflicts.push([prev, v]);
      this.equivocations.push(v);
    } else {
      this.byIndex[i] = v;
      this.voterCount++;
      if (this.exact) this.total += Number(p);
      else this.bigTotal += p;
    }
    this.counted.push(v);
    const key = v.blockHash ?? NIL;
    let k = this.values.indexOf(key);
    if (k < 0) {
      k = this.values.length;
      this.values.push(key);
      if (this.exact) this.sums.push(0);
      else this.bigSums.push(0n);
    }
    if (this.exact) this.sums[k]! += Number(p);
    else this.bigSums[k]! += p;
    return true;
  }

  /** More than 2/3 of the total for value `k` (an index into `values`). */
  private overTwoThirds(k: number): boolean {
    return this.exact ? this.sums[k]! > this.twoThirds : this.bigSums[k]! > this.bigTwoThirds;
  }

  /** More than 2/3 of the total for one value (a block hash or nil). */
  twoThirdsFor(blockHash: Hex | null): boolean {
    const k = this.values.indexOf(blockHash ?? NIL);
    if (isPlanted('quorum-threshold'))
      return k >= 0 && (this.exact ? BigInt(this.sums[k]!) : this.bigSums[k]!) * 2n > this.totalPower;
    return k >= 0 && this.overTwoThirds(k);
  }

  /** The value with +2/3, if any (at most one value can have it). */
  majority(): Hex | null | undefined {
    for (let k = 0; k < this.values.length; k++)
      if (this.overTwoThirds(k)) return this.values[k] === NIL ? null : (this.values[k] as Hex);
    return undefined;
  }

  /** More than 2/3 of the total voted, for anything (each validator once). */
  twoThirdsAny(): boolean {
    return this.exact ? this.total > this.twoThirds : this.bigTotal > this.bigTwoThirds;
  }

  /** More than 1/3 voted (a round skip is safe). */
  oneThirdAny(): boolean {
    return this.exact ? this.total > this.oneThird : this.bigTotal > this.bigOneThird;
  }

  /** How many validators voted. */
  get size(): number {
    return this.voterCount;
  }

  /** Every validator's vote for this value. */
  votesFor(blockHash: Hex | null): Vote[] {
    return this.counted.filter((v) => v.blockHash === blockHash);
  }

  /** Each validator's first vote, in the order they came. */
  all(): Vote[] {
    if (this.equivocations.length === 0) return this.counted.slice();
    return this.counted.filter((v) => !this.equivocations.includes(v));
  }

  /** Every vote held, equivocations included (what a node relays). */
  everyVote(): Vote[] {
    return this.counted.slice();
  }

  /** The validators that voted, in the order their votes came. */
  voters(): Address[] {
    return this.all().map((v) => v.validator);
  }

  has(a: Address): boolean {
    const i = this.members.indexOfAddress(a);
    return i >= 0 && this.byIndex[i] !== undefined;
  }
}
