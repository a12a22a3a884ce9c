import { describe, expect, it } from 'vitest';
import vectors from './vectors/sidechain.json';
import { DEFAULT_SIDECHAIN_CONFIG, calcProducerDelay, producerDelayParams, sidechainConfig } from './config';
import { isSprintEnd, isSprintStart, sprintIndex } from './sprint';

describe('calcProducerDelay: public vectors (sidechain.md §7)', () => {
  for (const v of vectors.producerDelay) {
    it(`${v.note}: (n=${v.number}, s=${v.succession}) = ${v.delay}`, () => {
      expect(calcProducerDelay(v.number, v.succession, v.params)).toBe(v.delay);
      expect(calcProducerDelay(BigInt(v.number), v.succession, v.params)).toBe(v.delay);
    });
  }

  it('the defaults are the post-Delhi mainnet values', () => {
    const p = producerDelayParams(DEFAULT_SIDECHAIN_CONFIG);
    expect(p).toEqual({ period: 2, producerDelay: 4, sprint: 16, wiggle: 2 });
    expect(calcProducerDelay(32n, 2, p)).toBe(8);
    expect(calcProducerDelay(0n, 0, p)).toBe(4); // block 0 is a sprint start
  });

  it('names a bad argument', () => {
    const p = producerDelayParams(DEFAULT_SIDECHAIN_CONFIG);
    expect(() => calcProducerDelay(-1, 0, p)).toThrow(/^number:/);
    expect(() => calcProducerDelay(1, -1, p)).toThrow(/^succession:/);
    expect(() => calcProducerDelay(1, 0.5, p)).toThrow(/^succession:/);
    expect(() => calcProducerDelay(1, 0, { ...p, sprint: 0 })).toThrow(/^params\.sprint:/);
    expect(() => calcProducerDelay(1, 0, { ...p, wiggle: -2 })).toThrow(/^params\.wiggle:/);
  });
});

describe('sidechainConfig', () => {
  it('defaults', () => {
    expect(sidechainConfig()).toEqual({
      chainId: 15001n,
      periodS: 2,
      producerDelayS: 4,
      sprint: 16,
      backupMultiplierS: 2,
      stateSyncDelayS: 128,
      firstSpanEnd: 255n,
    });
  });
  it('overrides are validated and name their field', () => {
    expect(sidechainConfig({ sprint: 64, firstSpanEnd: 255n }).sprint).toBe(64);
    expect(() => sidechainConfig({ sprint: 0 })).toThrow(/sidechain\.sprint/);
    expect(() => sidechainConfig({ sprint: 10 })).toThrow(/sidechain\.firstSpanEnd: .*whole number of sprints/);
    expect(() => sidechainConfig({ chainId: 0n })).toThrow(/sidechain\.chainId/);
    expect(() => sidechainConfig({ periodS: 1.5 })).toThrow(/sidechain\.periodS/);
  });
  it('the default object is frozen', () => {
    expect(Object.isFrozen(DEFAULT_SIDECHAIN_CONFIG)).toBe(true);
  });
});

describe('sprint boundaries', () => {
  it('start, end and index (sprint 16)', () => {
    expect([0n, 15n, 16n, 31n, 32n].map((n) => isSprintStart(n, 16))).toEqual([true, false, true, false, true]);
    expect([0n, 15n, 16n, 31n, 32n].map((n) => isSprintEnd(n, 16))).toEqual([false, true, false, true, false]);
    expect([0n, 15n, 16n, 255n, 256n].map((n) => sprintIndex(n, 16n))).toEqual([0n, 0n, 1n, 15n, 16n]);
  });
  it('block 0 never ends a sprint, even with sprint 1', () => {
    expect(isSprintEnd(0n, 1)).toBe(false);
    expect(isSprintEnd(1n, 1)).toBe(true);
  });
  it('rejects a non-positive sprint', () => {
    expect(() => isSprintStart(1n, 0)).toThrow(/^sprint:/);
    expect(() => isSprintEnd(1n, -1n)).toThrow(/^sprint:/);
  });
});
