import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type Address } from '../core/address';
import { type Hex } from '../core/bytes';
import { type Vote } from './types';
import { VoteSet } from './voteSet';

const addr = (i: number) => `0x${(i + 1).toString(16).padStart(40, '0')}` as Address;
const HASHES: Array<Hex | null> = [`0x${'11'.repeat(32)}`, `0x${'22'.repeat(32)}`, null];

describe('VoteSet', () => {
  it('quorums are exactly p * 3 > 2T (and T for a third), with small totals (numbers) and huge ones (bigints)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.bigInt({ min: 1n, max: 1000n }), fc.bigInt({ min: 1n, max: 2n ** 60n })), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.array(fc.tuple(fc.nat(20), fc.nat(2)), { maxLength: 30 }),
        (powers, votes) => {
          const total = powers.reduce((a, b) => a + b, 0n);
          // Members by position (as a ValidatorSet numbers its address-sorted members).
          const set = new VoteSet(
            {
              size: powers.length,
              indexOfAddress: (a) => (Number(BigInt(a)) - 1 < powers.length ? Number(BigInt(a)) - 1 : -1),
              powerAt: (i) => powers[i]!,
            },
            total,
          );
          const tally = new Map<Hex | null, bigint>();
          const seen = new Set<number>();
          /** Each validator counts once per value it voted for (an equivocator for each of its values). */
          const pairs = new Set<string>();
          let sum = 0n;
          for (const [who, h] of votes) {
            const vote: Vote = {
              type: 'prevote',
              height: 1n,
              round: 0,
              blockHash: HASHES[h]!,
              validator: addr(who),
              signature: '0x',
            };
            const counts = who < powers.length && !pairs.has(`${who}/${h}`);
            expect(set.add(vote)).toBe(counts);
            if (counts) {
              pairs.add(`${who}/${h}`);
              tally.set(HASHES[h]!, (tally.get(HASHES[h]!) ?? 0n) + powers[who]!);
              if (!seen.has(who)) sum += powers[who]!;
              seen.add(who);
            }
            for (const x of HASHES) expect(set.twoThirdsFor(x)).toBe((tally.get(x) ?? 0n) * 3n > total * 2n);
            expect(set.size).toBe(seen.size);
            expect(set.has(addr(who))).toBe(who < powers.length && seen.has(who));
            // Votes are listed in the order they were counted (each validator's first).
            expect(set.voters()).toEqual(set.all().map((x) => x.validator));
            expect(set.twoThirdsAny()).toBe(sum * 3n > total * 2n);
            expect(set.oneThirdAny()).toBe(sum * 3n > total);
            // The first value (in the order values came) with +2/3.
            const major = [...tally.keys()].find((x) => (tally.get(x) ?? 0n) * 3n > total * 2n);
            expect(set.majority()).toBe(major);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
