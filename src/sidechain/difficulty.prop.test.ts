import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sidechainDifficulty } from './difficulty';
import { successionInSorted as succession } from './testing/succession';
import { compareAddresses, type Address } from '../core/address';
import { toHex } from '../core/bytes';

const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => toHex(b) as Address);
/** A producer list in random order, with the proposer's and a signer's positions. */
const scenario = fc.uniqueArray(address, { minLength: 1, maxLength: 12 }).chain((producers) =>
  fc.record({
    producers: fc.shuffledSubarray(producers, { minLength: producers.length }),
    p: fc.nat({ max: producers.length - 1 }),
    s: fc.nat({ max: producers.length - 1 }),
  }),
);

describe('difficulty properties', () => {
  it('difficulty = N - succession, in 1..N, whatever the order of the producers', () => {
    fc.assert(
      fc.property(scenario, ({ producers, p, s }) => {
        const sorted = [...producers].sort(compareAddresses);
        const proposer = producers[p]!;
        const signer = producers[s]!;
        const d = sidechainDifficulty(producers, proposer, signer);
        const n = BigInt(producers.length);
        expect(d).toBe(n - BigInt(succession(sorted, proposer, signer)));
        expect(d >= 1n && d <= n).toBe(true);
        expect(sidechainDifficulty([...producers].reverse(), proposer, signer)).toBe(d);
      }),
    );
  });

  it('the in-turn producer has the highest difficulty, and every producer a distinct one', () => {
    fc.assert(
      fc.property(scenario, ({ producers, p }) => {
        const proposer = producers[p]!;
        const ds = producers.map((x) => sidechainDifficulty(producers, proposer, x));
        const inTurn = sidechainDifficulty(producers, proposer, proposer);
        expect(inTurn).toBe(BigInt(producers.length));
        for (const [i, d] of ds.entries()) if (producers[i] !== proposer) expect(d < inTurn).toBe(true);
        expect(new Set(ds).size).toBe(producers.length);
      }),
    );
  });
});
