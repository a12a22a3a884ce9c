import { describe, expect, it } from 'vitest';
import { type Hex } from '../core/bytes';
import { type HeadRef, compareHeads, isValidReorg, preferredHead, reorgAllowed, reorgNeeded } from './forkChoice';

const h = (byte: string): Hex => `0x${byte.repeat(32)}`;
const head = (td: bigint, number: bigint, hash: Hex): HeadRef => ({ td, number, hash });

describe('compareHeads (sidechain.md §3.1)', () => {
  it('higher total difficulty wins, whatever the length', () => {
    expect(compareHeads(head(10n, 5n, h('00')), head(9n, 9n, h('ff')))).toBe(1);
    expect(reorgNeeded(head(9n, 9n, h('ff')), head(10n, 5n, h('00')))).toBe(true);
  });
  it('equal TD: the lower number wins', () => {
    expect(compareHeads(head(10n, 4n, h('00')), head(10n, 5n, h('ff')))).toBe(1);
    expect(reorgNeeded(head(10n, 4n, h('00')), head(10n, 5n, h('ff')))).toBe(false);
  });
  it('equal TD and number: the lexicographically larger hash wins (Bor PR #871)', () => {
    expect(compareHeads(head(10n, 5n, h('ab')), head(10n, 5n, h('aa')))).toBe(1);
    expect(compareHeads(head(10n, 5n, h('aa')), head(10n, 5n, h('ab')))).toBe(-1);
    // Case does not matter: the bytes are compared.
    expect(compareHeads(head(10n, 5n, h('AB')), head(10n, 5n, h('aa')))).toBe(1);
  });
  it('the same head is neither preferred nor a reason to reorg', () => {
    const a = head(10n, 5n, h('ab'));
    expect(compareHeads(a, { ...a })).toBe(0);
    expect(reorgNeeded(a, { ...a })).toBe(false);
    expect(preferredHead(a, { ...a })).toBe(a);
  });
  it('no self-preference: an even split resolves the same way on both sides', () => {
    const mine = head(20n, 10n, h('11'));
    const theirs = head(20n, 10n, h('22'));
    // Node 1 holds `mine`, node 2 holds `theirs`; both end up on `theirs`.
    expect(reorgNeeded(mine, theirs)).toBe(true);
    expect(reorgNeeded(theirs, mine)).toBe(false);
    expect(preferredHead(mine, theirs)).toBe(theirs);
    expect(preferredHead(theirs, mine)).toBe(theirs);
  });
});

describe('finality floor (sidechain.md §3.2 isValidChain)', () => {
  const floor = { floorNumber: 10n, floorHash: h('aa') };
  const chainWith = (atFloor: Hex | undefined) => (n: bigint) => (n === 10n ? atFloor : h('99'));

  it('no floor: anything goes', () => {
    expect(isValidReorg(undefined, chainWith(undefined), 0n)).toBe(true);
  });
  it('a chain that keeps the floor block is allowed', () => {
    expect(isValidReorg(floor, chainWith(h('aa')), 12n)).toBe(true);
    expect(isValidReorg(floor, chainWith(h('AA')), 10n)).toBe(true);
  });
  it('a chain that rewrites the floor block is refused, however heavy', () => {
    expect(isValidReorg(floor, chainWith(h('bb')), 50n)).toBe(false);
  });
  it('a chain whose block at the floor is unknown is refused', () => {
    expect(isValidReorg(floor, chainWith(undefined), 50n)).toBe(false);
  });
  it('a chain ending below the floor is refused unless our own head is below it too', () => {
    expect(isValidReorg(floor, chainWith(undefined), 9n)).toBe(false);
    expect(isValidReorg(floor, chainWith(undefined), 9n, 12n)).toBe(false);
    expect(isValidReorg(floor, chainWith(undefined), 9n, 8n)).toBe(true);
  });
  it('reorgAllowed compares the two chains at the floor', () => {
    expect(reorgAllowed(undefined, undefined)).toBe(true);
    expect(reorgAllowed(h('aa'), h('aa'))).toBe(true);
    expect(reorgAllowed(h('aa'), h('bb'))).toBe(false);
    expect(reorgAllowed(h('aa'), undefined)).toBe(false);
  });
});
