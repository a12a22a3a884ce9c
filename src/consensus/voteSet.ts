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
  /** Each validator's first vote, in the order they came. */
  private readonly order: Vote[] = [];
  /** Every counted vote (equivocations included), in the order they came (commits list theirs so). */
  private readonly counted: Vote[] = [];
  /** The second and later values of equivocating validators (rare). */
  private readonly equivocations: Vote[] = [];
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
      this.order.push(v);
      if (this.exact) this.total = (this.total as number) + Number(p);
      else this.total = (this.total as bigint) + p;
    }
    this.counted.push(v);
    const key = v.blockHash ?? NIL;
    let k = this.values.indexOf(key);
    if (k < 0) {
      k = this.values.length;
      this.values.push(key);
      this.powers.push(this.exact ? 0 : 0n);
    }
    if (this.exact) this.powers[k] = (this.powers[k] as number) + Number(p);
    else this.powers[k] = (this.powers[k] as bigint) + p;
    return true;
  }

  /** More than 2/3 of the total for one value (a block hash or nil). */
  twoThirdsFor(blockHash: Hex | null): boolean {
    const k = this.values.indexOf(blockHash ?? NIL);
    if (isPlanted('quorum-threshold')) return k >= 0 && BigInt(this.powers[k]!) * 2n > this.totalPower;
    return k >= 0 && this.powers[k]! > this.twoThirds;
  }

  /** The value with +2/3, if any (at most one value can have it). */
  majority(): Hex | null | undefined {
    for (let k = 0; k < this.values.length; k++)
      if (this.powers[k]! > this.twoThirds) return this.values[k] === NIL ? null : (this.values[k] as Hex);
    return undefined;
  }

  /** More than 2/3 of the total voted, for anything (each validator once). */
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

  /** Every validator's vote for this value. */
  votesFor(blockHash: Hex | null): Vote[] {
    return this.counted.filter((v) => v.blockHash === blockHash);
  }

  /** Each validator's first vote. */
  all(): Vote[] {
    return this.order.slice();
  }

  /** Every vote held, equivocations included (what a node relays). */
  everyVote(): Vote[] {
    return this.counted.slice();
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
