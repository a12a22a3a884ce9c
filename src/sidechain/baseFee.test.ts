/** The EIP-1559 base fee with Bor's change denominator (16): worked by hand from the formula. */
import { describe, expect, it } from 'vitest';
import { BASE_FEE_CHANGE_DENOMINATOR, INITIAL_BASE_FEE, MIN_BASE_FEE, nextBaseFee } from './baseFee';

const G = 10n ** 9n;
const limit = 20_000_000n; // target 10M

describe('nextBaseFee', () => {
  it('stays at the target, moves by (used − target) / target / 16 of itself off it', () => {
    expect(BASE_FEE_CHANGE_DENOMINATOR).toBe(16n);
    expect(nextBaseFee({ baseFee: G, gasUsed: 10_000_000n, gasLimit: limit })).toBe(G);
    expect(nextBaseFee({ baseFee: G, gasUsed: 11_000_000n, gasLimit: limit })).toBe(G + 6_250_000n);
    expect(nextBaseFee({ baseFee: G, gasUsed: 9_000_000n, gasLimit: limit })).toBe(G - 6_250_000n);
    expect(nextBaseFee({ baseFee: G, gasUsed: 20_000_000n, gasLimit: limit })).toBe(G + G / 16n);
    expect(nextBaseFee({ baseFee: G, gasUsed: 0n, gasLimit: limit })).toBe(G - G / 16n);
  });

  it('an increase is at least 1 wei; an empty chain settles where a 16th rounds to nothing', () => {
    expect(nextBaseFee({ baseFee: 1n, gasUsed: 10_000_001n, gasLimit: limit })).toBe(2n);
    expect(nextBaseFee({ baseFee: 16n, gasUsed: 0n, gasLimit: limit })).toBe(15n);
    expect(nextBaseFee({ baseFee: 15n, gasUsed: 0n, gasLimit: limit })).toBe(15n);
  });

  it('from anywhere above it, an idle chain comes down to MIN_BASE_FEE and never below', () => {
    expect(MIN_BASE_FEE).toBe(15n);
    for (const start of [16n, 17n, 31n, 32n, 1000n, INITIAL_BASE_FEE]) {
      let b = start;
      for (let i = 0; i < 2000 && b !== MIN_BASE_FEE; i++) {
        const next = nextBaseFee({ baseFee: b, gasUsed: 0n, gasLimit: limit });
        expect(next).toBeGreaterThanOrEqual(MIN_BASE_FEE);
        b = next;
      }
      expect(b).toBe(MIN_BASE_FEE);
    }
  });

  it('a parent without a base fee (none before London) starts from geth’s initial base fee', () => {
    expect(INITIAL_BASE_FEE).toBe(G);
    expect(nextBaseFee({ gasUsed: 10_000_000n, gasLimit: limit })).toBe(G);
  });
});
