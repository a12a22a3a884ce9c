import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fromHex } from '../../core/bytes';
import { InputError } from '../../core/errors';
import { SLOT_COST, producersFromSelection, selectNextProducers } from './selection';
import { shuffleList } from './shuffle';
import { shuffleListSimple } from './testing/shuffleReference';

/** Heimdall bor/selection_test.go validators (heimdall.md §10.1), in the test's input order. */
const HEIMDALL_VALIDATORS = [
  { id: 3n, power: 10000n, signer: '0x1c4f0f054a0d6a1415382dc0fd83c6535188b220' },
  { id: 4n, power: 10000n, signer: '0x461295d3d9249215e758e939a150ab180950720b' },
  { id: 5n, power: 10000n, signer: '0x836fe3e3dd0a5f77d9d5b0f67e48048aaafcd5a0' },
  { id: 1n, power: 10000n, signer: '0x925a91f8003aaeabea6037103123b93c50b86ca3' },
  { id: 2n, power: 10000n, signer: '0xc787af4624cb3e80ee23ae7faac0f2acea2be34c' },
];
const SEED_A = '0x8f5bab218b6bb34476f51ca588e9f4553a3a7ce5e13a66c660a5283e97e9a85a';
const SEED_B = '0xe09cc356df20c7a2dd38cb85b680a16ec29bd8b3e1ecc1b20f2e5603d5e7ee85';
const IDS = HEIMDALL_VALIDATORS.map((v) => v.id);

/** The slot list the legacy algorithm builds: floor(power / SlotCost) copies of each id, in order. */
function slotsOf(vals: ReadonlyArray<{ id: bigint; power: bigint }>): bigint[] {
  const slots: bigint[] = [];
  for (const v of vals) for (let k = 0n; k < v.power / SLOT_COST; k++) slots.push(v.id);
  return slots;
}

describe('selectNextProducers (legacy slots + shuffle)', () => {
  it('SlotCost is 1 (heimdall.md §1.1)', () => {
    expect(SLOT_COST).toBe(1n);
  });

  // TestSelectNextProducers (heimdall.md §10.1): only the cases that do not depend on the
  // weighted-random draw carry over to the legacy algorithm.
  for (const seed of [SEED_A, SEED_B]) {
    it(`${seed.slice(0, 6)}…, producerCount 10 and 5: all 5 validators, in the given order`, () => {
      expect(selectNextProducers(seed, HEIMDALL_VALIDATORS, 10)).toEqual(IDS);
      expect(selectNextProducers(seed, HEIMDALL_VALIDATORS, 5)).toEqual(IDS);
    });

    it(`${seed.slice(0, 6)}…, producerCount 4: 4 slots, each one of the input ids`, () => {
      const picked = selectNextProducers(seed, HEIMDALL_VALIDATORS, 4);
      expect(picked).toHaveLength(4);
      for (const id of picked) expect(IDS).toContain(id);
    });
  }

  it('regression values for producerCount 4, cross-checked against shuffleList of the slot list', () => {
    const expected = new Map([
      [SEED_A, [1n, 4n, 5n, 1n]],
      [SEED_B, [5n, 2n, 2n, 4n]],
    ]);
    const slots = slotsOf(HEIMDALL_VALIDATORS);
    expect(slots).toHaveLength(50000);
    for (const [seed, ids] of expected) {
      const picked = selectNextProducers(seed, HEIMDALL_VALIDATORS, 4);
      expect(picked).toEqual(ids);
      expect(selectNextProducers(fromHex(seed), HEIMDALL_VALIDATORS, 4)).toEqual(picked); // stable
      expect(shuffleList(slots, seed).slice(0, 4)).toEqual(ids);
      expect(shuffleListSimple(slots, seed).slice(0, 4)).toEqual(ids);
    }
    // Span producers: power = number of slots won, listed in the eligible (signer) order.
    expect(producersFromSelection([1n, 4n, 5n, 1n], HEIMDALL_VALIDATORS)).toEqual([
      { id: 4n, power: 1n },
      { id: 5n, power: 1n },
      { id: 1n, power: 2n },
    ]);
  });

  it('only the first 32 bytes of a longer hash are used', () => {
    const longer = `${SEED_A}ffeeddcc`;
    expect(selectNextProducers(longer, HEIMDALL_VALIDATORS, 4)).toEqual(
      selectNextProducers(SEED_A, HEIMDALL_VALIDATORS, 4),
    );
  });

  it('power-0 validators are never selected (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 2, maxLength: 12 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.integer({ min: 1, max: 6 }),
        (powers, seed, count) => {
          const vals = powers.map((power, i) => ({ id: BigInt(i + 100), power: BigInt(power) }));
          const picked = selectNextProducers(seed, vals, count);
          if (vals.length <= count) {
            expect(picked).toEqual(vals.map((v) => v.id));
            return;
          }
          const slots = powers.reduce((a, b) => a + b, 0);
          expect(picked).toHaveLength(Math.min(count, slots));
          for (const id of picked) expect(vals.find((v) => v.id === id)!.power > 0n).toBe(true);
          // A validator never wins more slots than it has.
          for (const v of vals) expect(BigInt(picked.filter((id) => id === v.id).length) <= v.power).toBe(true);
          // And the result is the head of the shuffled slot list.
          expect(picked).toEqual(shuffleList(slotsOf(vals), seed).slice(0, count));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('accepts number ids and powers', () => {
    const vals = HEIMDALL_VALIDATORS.map((v) => ({ id: Number(v.id), power: Number(v.power) }));
    expect(selectNextProducers(SEED_A, vals, 4)).toEqual([1n, 4n, 5n, 1n]);
  });

  it('100 validators x 10,000 power: 1,000,000 slots', () => {
    const vals = Array.from({ length: 100 }, (_, i) => ({ id: BigInt(i + 1), power: 10000n }));
    const picked = selectNextProducers(SEED_B, vals, 4);
    expect(picked).toHaveLength(4);
    for (const id of picked) expect(id >= 1n && id <= 100n).toBe(true);
    expect(selectNextProducers(SEED_B, vals, 4)).toEqual(picked);
  });

  it('rejects bad input with the field named', () => {
    expect(() => selectNextProducers('0x1234', HEIMDALL_VALIDATORS, 4)).toThrow(/^blockHash: /);
    expect(() => selectNextProducers(SEED_A, HEIMDALL_VALIDATORS, -1)).toThrow(/^producerCount: /);
    expect(() => selectNextProducers(SEED_A, HEIMDALL_VALIDATORS, 1.5)).toThrow(InputError);
    expect(() =>
      selectNextProducers(
        SEED_A,
        [
          { id: 1n, power: -1n },
          { id: 2n, power: 1n },
        ],
        1,
      ),
    ).toThrow(/^validators\[0\]\.power: voting power value is negative/);
  });
});

describe('producersFromSelection', () => {
  it('counts occurrences per id, in eligible order, and skips ids not selected', () => {
    expect(producersFromSelection([2n, 4n, 4n, 1n], HEIMDALL_VALIDATORS)).toEqual([
      { id: 4n, power: 2n },
      { id: 1n, power: 1n },
      { id: 2n, power: 1n },
    ]);
    expect(producersFromSelection([], HEIMDALL_VALIDATORS)).toEqual([]);
  });

  it('rejects an id that is not eligible', () => {
    expect(() => producersFromSelection([9n], HEIMDALL_VALIDATORS)).toThrow(
      /^selectedIds\[0\]: validator id 9 is not eligible/,
    );
  });
});
