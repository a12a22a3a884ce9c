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
import { type Vote } from './types';
import { isPlanted } from '../core/plants';

export const NIL = 'nil';

export class VoteSet {
  /** Each validator's first vote (what it is asked about and re-sent). */
  private readonly byValidator = new Map<Address, Vote>();
  /** Every vote, one per (validator, value). */
  private readonly byValue = new Map<string, Map<Address, Vote>>();
  private readonly power = new Map<string, bigint>();
  private total = 0n;
  readonly conflicts: Array<[Vote, Vote]> = [];

  constructor(
    private readonly powerOf: (a: Address) => bigint,
    readonly totalPower: bigint,
  ) {}

  /** Returns false for a duplicate or a vote of no power; a conflicting vote counts for its value. */
  add(v: Vote): boolean {
    const key = v.blockHash ?? NIL;
    const voters = this.byValue.get(key);
    if (voters?.has(v.validator)) return false;
    const p = this.powerOf(v.validator);
    if (p <= 0n) return false;
    const prev = this.byValidator.get(v.validator);
    if (prev) this.conflicts.push([prev, v]);
    else {
      this.byValidator.set(v.validator, v);
      this.total += p;
    }
    if (voters) voters.set(v.validator, v);
    else this.byValue.set(key, new Map([[v.validator, v]]));
    this.power.set(key, (this.power.get(key) ?? 0n) + p);
    return true;
  }

  /** More than 2/3 of the total for one value (a block hash or nil). */
  twoThirdsFor(blockHash: Hex | null): boolean {
    if (isPlanted('quorum-threshold')) return (this.power.get(blockHash ?? NIL) ?? 0n) * 2n > this.totalPower;
    return (this.power.get(blockHash ?? NIL) ?? 0n) * 3n > this.totalPower * 2n;
  }

  /** The value with +2/3, if any. */
  majority(): Hex | null | undefined {
    for (const [k, p] of this.power) if (p * 3n > this.totalPower * 2n) return k === NIL ? null : (k as Hex);
    return undefined;
  }

  /** More than 2/3 of the total voted, for anything (each validator once). */
  twoThirdsAny(): boolean {
    return this.total * 3n > this.totalPower * 2n;
  }

  /** More than 1/3 voted (a round skip is safe). */
  oneThirdAny(): boolean {
    return this.total * 3n > this.totalPower;
  }

  /** Every validator's vote for this value. */
  votesFor(blockHash: Hex | null): Vote[] {
    return [...(this.byValue.get(blockHash ?? NIL)?.values() ?? [])];
  }

  /** Each validator's first vote. */
  all(): Vote[] {
    return [...this.byValidator.values()];
  }

  /** Every vote held, equivocations included (what a node relays). */
  everyVote(): Vote[] {
    const out: Vote[] = [];
    for (const m of this.byValue.values()) out.push(...m.values());
    return out;
  }

  has(a: Address): boolean {
    return this.byValidator.has(a);
  }
}
