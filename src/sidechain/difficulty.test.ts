import { describe, expect, it } from 'vitest';
import { sidechainDifficulty } from './difficulty';
import { successionInSorted as succession } from './testing/succession';
import { ZERO_ADDRESS } from '../core/address';

const A = '0x0000000000000000000000000000000000000001';
const B = '0x0000000000000000000000000000000000000002';
const C = '0x0000000000000000000000000000000000000003';

describe('succession and difficulty (sidechain.md §2.4)', () => {
  it('the reference example: [A,B,C], proposer B', () => {
    expect([B, C, A].map((s) => succession([A, B, C], B, s))).toEqual([0, 1, 2]);
    expect([B, C, A].map((s) => sidechainDifficulty([A, B, C], B, s))).toEqual([3n, 2n, 1n]);
  });
  it('producers may come in any order and in any case; succession still walks the address order', () => {
    expect(sidechainDifficulty([C, A, B], B, A)).toBe(1n);
    expect(sidechainDifficulty([{ address: C }, { address: A }, { address: B }], B, C)).toBe(2n);
    expect(
      sidechainDifficulty([C.toUpperCase().replace('0X', '0x'), A, B], B.toUpperCase().replace('0X', '0x'), B),
    ).toBe(3n);
  });
  it('a single producer always signs in turn with difficulty 1', () => {
    expect(sidechainDifficulty([A], A, A)).toBe(1n);
  });
  it('the zero-address signer has difficulty 1 (Bor special case)', () => {
    expect(sidechainDifficulty([A, B, C], B, ZERO_ADDRESS)).toBe(1n);
  });
  it('a signer or proposer outside the producers is an InputError naming it', () => {
    const D = '0x0000000000000000000000000000000000000004';
    expect(() => sidechainDifficulty([A, B, C], B, D)).toThrow(/^signer: .* is not a producer/);
    expect(() => sidechainDifficulty([A, B, C], D, A)).toThrow(/^proposer: .* is not a producer/);
    expect(() => sidechainDifficulty([A, B, C], B, '0x1234')).toThrow(/^signer:/);
  });
  it('a duplicate producer is an InputError naming the list', () => {
    expect(() => sidechainDifficulty([A, A], A, A)).toThrow(/^producers: duplicate/);
  });
});
