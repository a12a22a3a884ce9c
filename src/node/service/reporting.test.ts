import { describe, expect, it } from 'vitest';
import { type Address } from '../../core/address';
import { type Hex, concatBytes, fromHex, toHex } from '../../core/bytes';
import { keccak256Bytes } from '../../core/hash';
import { ValidatorSet } from '../../core/validatorSet';
import { type Vote } from '../../consensus/types';
import { commitFact } from './reporting';

/** Ten validators whose addresses do not sort in the order they are listed. */
const ADDRESSES = [7, 3, 9, 1, 5, 10, 2, 8, 4, 6].map((n) => `0x${n.toString(16).padStart(40, '0')}` as Address);
const SET = new ValidatorSet(ADDRESSES.map((address) => ({ address, power: 10n })));
const BLOCK = `0x${'ab'.repeat(32)}` as Hex;
const vote = (validator: Address, over: Partial<Vote> = {}): Vote => ({
  type: 'precommit',
  height: 5n,
  round: 1,
  blockHash: BLOCK,
  validator,
  signature: '0x00',
  ...over,
});
/** The i-th smallest address. */
const nth = (i: number) => [...ADDRESSES].sort()[i]!;

describe('commit fact', () => {
  it('names each signer once, as a bit over the set in ascending address order, with the set digest', () => {
    const f = commitFact(5n, BLOCK, [vote(nth(0)), vote(nth(3)), vote(nth(8)), vote(nth(9))], SET);
    expect(f).toMatchObject({ height: 5n, round: 1, blockHash: BLOCK, others: [] });
    // Bits 0 and 3 of the first byte, 0 and 1 of the second.
    expect(f.signers).toBe('0x0903');
    const sorted = [...ADDRESSES].sort();
    expect(f.set).toBe(toHex(keccak256Bytes(concatBytes(...sorted.map((a) => fromHex(a))))));
    expect(Object.isFrozen(f)).toBe(true);
  });

  it('lists a vote that does not fit as it is: another type, round or block, or a signer outside the set', () => {
    const outsider = `0x${'ee'.repeat(20)}` as Address;
    const odd = [
      vote(nth(1), { type: 'prevote' }),
      vote(nth(2), { round: 2 }),
      vote(nth(4), { blockHash: null }),
      vote(outsider),
    ];
    const f = commitFact(5n, BLOCK, [vote(nth(0)), ...odd], SET);
    expect(f.signers).toBe('0x0100');
    expect(f.others.map((v) => v.validator)).toEqual([nth(1), nth(2), nth(4), outsider]);
    expect(f.others[0]).toMatchObject({ type: 'prevote', round: 1 });
  });

  it('names the set its bits index: another member list, another digest', () => {
    const votes = [vote(nth(0)), vote(nth(1))];
    const other = new ValidatorSet(ADDRESSES.slice(0, 9).map((address) => ({ address, power: 10n })));
    expect(commitFact(5n, BLOCK, votes, other).set).not.toBe(commitFact(5n, BLOCK, votes, SET).set);
    expect(commitFact(5n, BLOCK, votes, SET).set).toBe(commitFact(5n, BLOCK, [], SET).set);
  });
});
