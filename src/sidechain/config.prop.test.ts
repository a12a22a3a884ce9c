import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { calcProducerDelay, type ProducerDelayParams } from './config';

// producerDelay >= period, as in every Bor network: the sprint's first block waits at least as long.
const params: fc.Arbitrary<ProducerDelayParams> = fc
  .record({
    period: fc.integer({ min: 0, max: 30 }),
    extra: fc.integer({ min: 0, max: 30 }),
    sprint: fc.integer({ min: 1, max: 128 }),
    wiggle: fc.integer({ min: 0, max: 30 }),
  })
  .map(({ period, extra, sprint, wiggle }) => ({ period, producerDelay: period + extra, sprint, wiggle }));
const number = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });

describe('calcProducerDelay properties', () => {
  it('is monotone in succession and never below the period', () => {
    fc.assert(
      fc.property(params, number, fc.integer({ min: 0, max: 200 }), (p, n, s) => {
        const d = calcProducerDelay(n, s, p);
        expect(d).toBeGreaterThanOrEqual(p.period);
        expect(calcProducerDelay(n, s + 1, p)).toBeGreaterThanOrEqual(d);
        // Each step back costs exactly the wiggle time.
        expect(calcProducerDelay(n, s + 1, p) - d).toBe(p.wiggle);
      }),
    );
  });

  it('the in-turn delay is producerDelay at a sprint start and period elsewhere', () => {
    fc.assert(
      fc.property(params, number, (p, n) => {
        expect(calcProducerDelay(n, 0, p)).toBe(n % BigInt(p.sprint) === 0n ? p.producerDelay : p.period);
      }),
    );
  });
});
