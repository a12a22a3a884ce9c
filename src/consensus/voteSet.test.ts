import { describe, expect, it } from 'vitest';
import { type Address } from '../core/address';
import { type Hex } from '../core/bytes';
import { type Vote } from './types';
import { VoteSet } from './voteSet';

const addr = (i: number) => `0x${(i + 1).toString(16).padStart(40, '0')}` as Address;
const A = `0x${'aa'.repeat(32)}` as Hex;
const B = `0x${'bb'.repeat(32)}` as Hex;
const vote = (i: number, blockHash: Hex | null): Vote => ({
  type: 'prevote',
  height: 1n,
  round: 0,
  blockHash,
  validator: addr(i),
  signature: '0x',
});

describe('VoteSet', () => {
  // Validators 0-3 hold 10 each; 9 is a member without power.
  const members = [0, 1, 2, 3, 9].map(addr);
  const set = () =>
    new VoteSet(
      {
        indexOfAddress: (a) => members.indexOf(a as Address),
        powerAt: (i) => (i === 4 ? 0n : 10n),
        size: members.length,
      },
      40n,
    );

  it('counts each validator once per value; a duplicate or a powerless vote is not added', () => {
    const s = set();
    expect(s.add(vote(0, A))).toBe(true);
    expect(s.add(vote(0, A))).toBe(false);
    expect(s.add(vote(9, A))).toBe(false);
    expect(s.add(vote(1, A))).toBe(true);
    expect(s.twoThirdsFor(A)).toBe(false);
    expect(s.add(vote(2, A))).toBe(true);
    expect(s.twoThirdsFor(A)).toBe(true);
    expect(s.majority()).toBe(A);
    expect(s.votesFor(A).map((v) => v.validator)).toEqual([addr(0), addr(1), addr(2)]);
  });

  it("an equivocator is evidence, and its power counts for both values (but once in the round's total)", () => {
    const s = set();
    s.add(vote(0, A));
    s.add(vote(1, A));
    s.add(vote(2, B));
    expect(s.twoThirdsFor(A)).toBe(false);
    // Validator 2 also votes A: evidence, and A now has 30 of 40.
    expect(s.add(vote(2, A))).toBe(true);
    expect(s.conflicts).toEqual([[vote(2, B), vote(2, A)]]);
    expect(s.twoThirdsFor(A)).toBe(true);
    expect(s.twoThirdsFor(B)).toBe(false);
    // Three validators voted: 30 of 40, not 40.
    expect(s.twoThirdsAny()).toBe(true);
    expect(s.all()).toHaveLength(3);
    expect(s.everyVote()).toHaveLength(4);
    expect(s.votesFor(A)).toHaveLength(3);
  });

  it('nil is a value like any block', () => {
    const s = set();
    for (const i of [0, 1, 2]) s.add(vote(i, null));
    expect(s.twoThirdsFor(null)).toBe(true);
    expect(s.majority()).toBeNull();
  });
});
