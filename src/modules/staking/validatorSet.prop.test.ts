import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type Address } from '../../core/address';
import { InputError } from '../../core/errors';
import { ValidatorSet } from './validatorSet';

function addr(n: number): Address {
  return `0x${n.toString(16).padStart(40, '0')}`;
}

/** 1..8 validators with distinct addresses and powers 1..maxPower. */
const validatorsArb = (maxPower: number): fc.Arbitrary<Array<{ address: Address; power: bigint }>> =>
  fc
    .uniqueArray(
      fc.record({ a: fc.integer({ min: 1, max: 40 }), power: fc.bigInt({ min: 1n, max: BigInt(maxPower) }) }),
      {
        minLength: 1,
        maxLength: 8,
        selector: (v) => v.a,
      },
    )
    .map((vs) => vs.map((v) => ({ address: addr(v.a), power: v.power })));

type Op = { kind: 'inc'; times: number } | { kind: 'update'; changes: Array<{ address: Address; power: bigint }> };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('inc' as const), times: fc.integer({ min: 1, max: 6 }) }),
  fc.record({
    kind: fc.constant('update' as const),
    changes: fc
      .uniqueArray(fc.record({ a: fc.integer({ min: 1, max: 48 }), power: fc.bigInt({ min: 0n, max: 2000n }) }), {
        minLength: 1,
        maxLength: 4,
        selector: (c) => c.a,
      })
      .map((cs) => cs.map((c) => ({ address: addr(c.a), power: c.power }))),
  }),
);

function stats(set: ValidatorSet): { sum: bigint; spread: bigint; total: bigint; n: bigint } {
  const ps = set.validators.map((v) => v.proposerPriority);
  let sum = 0n;
  let max = ps[0]!;
  let min = ps[0]!;
  for (const p of ps) {
    sum += p;
    if (p > max) max = p;
    if (p < min) min = p;
  }
  return { sum, spread: max - min, total: set.totalVotingPower(), n: BigInt(ps.length) };
}

/** Apply an op; a rejected change set must leave the set exactly as it was. */
function apply(set: ValidatorSet, op: Op): 'inc' | 'update' | 'rejected' {
  if (op.kind === 'inc') {
    set.incrementProposerPriority(op.times);
    return 'inc';
  }
  const before = JSON.stringify(set.toJSON());
  try {
    set.updateWithChangeSet(op.changes);
    return 'update';
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    expect(JSON.stringify(set.toJSON())).toBe(before);
    return 'rejected';
  }
}

describe('ValidatorSet properties', () => {
  it('centring: after every increment or change set the priorities sum to [0, n-1]', () => {
    fc.assert(
      fc.property(validatorsArb(1000), fc.array(opArb, { maxLength: 25 }), (vals, ops) => {
        const set = new ValidatorSet(vals);
        const check = (): void => {
          const { sum, n } = stats(set);
          // shiftByAvg subtracts floor(sum / n); increments add T in total and take T from one.
          expect(sum >= 0n && sum < n).toBe(true);
        };
        check();
        for (const op of ops) {
          apply(set, op);
          check();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('window: max - min <= 2T right after a change set (rescale) and <= 4T after an increment', () => {
    fc.assert(
      fc.property(validatorsArb(1000), fc.array(opArb, { maxLength: 25 }), (vals, ops) => {
        const set = new ValidatorSet(vals);
        for (const op of ops) {
          const what = apply(set, op);
          const { spread, total } = stats(set);
          if (what === 'update') expect(spread <= 2n * total).toBe(true);
          // Rescale leaves <= 2T; one round adds < T of power spread and takes T from the maximum.
          if (what === 'inc' && op.kind === 'inc' && op.times === 1) expect(spread <= 4n * total).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('frequency: over R rounds each validator proposes R*p/T times, within 2', () => {
    fc.assert(
      fc.property(validatorsArb(20), fc.integer({ min: 1, max: 3 }), (vals, k) => {
        const set = new ValidatorSet(vals);
        const total = Number(set.totalVotingPower());
        const rounds = k * total + 7;
        const counts = new Map<string, number>();
        for (let r = 0; r < rounds; r++) {
          set.incrementProposerPriority(1);
          counts.set(set.proposer.address, (counts.get(set.proposer.address) ?? 0) + 1);
        }
        for (const v of set.validators) {
          const expected = (rounds * Number(v.power)) / total;
          expect(Math.abs((counts.get(v.address) ?? 0) - expected)).toBeLessThan(2);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('toJSON / fromJSON round-trips exactly and the loaded set evolves identically', () => {
    fc.assert(
      fc.property(
        validatorsArb(1000),
        fc.array(opArb, { maxLength: 15 }),
        fc.array(opArb, { maxLength: 10 }),
        (vals, ops, later) => {
          const set = new ValidatorSet(vals);
          for (const op of ops) apply(set, op);
          const text = JSON.stringify(set.toJSON());
          const loaded = ValidatorSet.fromJSON(JSON.parse(text));
          expect(JSON.stringify(loaded.toJSON())).toBe(text);
          expect(loaded.proposer).toEqual(set.proposer);
          const copy = set.copy();
          for (const op of later) {
            apply(set, op);
            apply(loaded, op);
            apply(copy, op);
            expect(loaded.toJSON()).toEqual(set.toJSON());
            expect(copy.toJSON()).toEqual(set.toJSON());
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('determinism: the order of the input does not matter, and the same ops give the same result', () => {
    fc.assert(
      fc.property(
        validatorsArb(1000).chain((vals) =>
          fc.tuple(fc.constant(vals), fc.shuffledSubarray(vals, { minLength: vals.length })),
        ),
        fc.array(opArb, { maxLength: 20 }),
        ([vals, permuted], ops) => {
          const a = new ValidatorSet(vals);
          const b = new ValidatorSet(permuted);
          expect(b.toJSON()).toEqual(a.toJSON());
          const seqA: string[] = [];
          const seqB: string[] = [];
          for (const op of ops) {
            apply(a, op);
            apply(b, op);
            seqA.push(a.proposer.address);
            seqB.push(b.proposer.address);
          }
          expect(seqB).toEqual(seqA);
          expect(b.toJSON()).toEqual(a.toJSON());
        },
      ),
      { numRuns: 200 },
    );
  });

  it('the proposer is always the member with the highest priority right after an increment', () => {
    fc.assert(
      fc.property(validatorsArb(1000), fc.array(opArb, { maxLength: 20 }), (vals, ops) => {
        const set = new ValidatorSet(vals);
        for (const op of ops) {
          apply(set, op);
          if (op.kind !== 'inc') continue;
          // After the proposer paid T it need not be the maximum, but it is a member with its
          // current priority, and it was the maximum before paying (ties: smaller address).
          const p = set.proposer;
          const member = set.getByAddress(p.address);
          expect(member).toEqual(p);
          const before = p.proposerPriority + set.totalVotingPower();
          for (const v of set.validators) {
            if (v.address === p.address) continue;
            expect(v.proposerPriority < before || (v.proposerPriority === before && v.address > p.address)).toBe(true);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('copies share nothing observable: ops on either side never show on the other; advanced() is a copy then ops', () => {
    // Reference sets are rebuilt from JSON (their own member lists); the sets under test share
    // member lists through copy() and advanced() and must behave exactly as if they did not.
    const fresh = (s: ValidatorSet) => ValidatorSet.fromJSON(JSON.parse(JSON.stringify(s.toJSON())));
    fc.assert(
      fc.property(
        validatorsArb(1000),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), opArb), { maxLength: 30 }),
        (vals, steps) => {
          const sets = [new ValidatorSet(vals)];
          const refs = [fresh(sets[0]!)];
          for (const [who, op] of steps) {
            const i = who % sets.length;
            if (who === 3) {
              // A copy, or the next height's set, of a random member of the family.
              const changes = op.kind === 'update' ? op.changes : [];
              let next: ValidatorSet | null = null;
              try {
                next = sets[i]!.advanced(changes, op.kind === 'inc' ? op.times : 1);
              } catch (e) {
                expect(e).toBeInstanceOf(InputError);
              }
              const ref = fresh(refs[i]!);
              if (next === null) {
                sets.push(sets[i]!.copy());
                refs.push(ref);
              } else {
                if (changes.length) ref.updateWithChangeSet(changes);
                ref.incrementProposerPriority(op.kind === 'inc' ? op.times : 1);
                sets.push(next);
                refs.push(ref);
                // Asking again gives an equal set, untouched by what callers did to the first answer.
                expect(sets[i]!.advanced(changes, op.kind === 'inc' ? op.times : 1).toJSON()).toEqual(ref.toJSON());
              }
            } else {
              const a = apply(sets[i]!, op);
              const b = apply(refs[i]!, op);
              expect(a).toBe(b);
            }
            for (let k = 0; k < sets.length; k++) {
              expect(sets[k]!.toJSON()).toEqual(refs[k]!.toJSON());
              for (const v of refs[k]!.validators) {
                expect(sets[k]!.powerOf(v.address)).toBe(v.power);
                expect(sets[k]!.getByAddress(v.address.toUpperCase().replace('0X', '0x'))).toEqual(v);
              }
              expect(sets[k]!.powerOf(addr(99))).toBe(0n);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
