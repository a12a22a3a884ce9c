/** The span keeper's assertions: spans recorded in order, each continuing the last, with producers. */
import { describe, expect, it } from 'vitest';
import { TestChain } from '../../app/testing/testChain';
import { idKey } from '../framework/storeKeys';
import { getSpan, setSpan } from './keeper';

describe('span keeper', () => {
  const chain = new TestChain({ validators: 3 });

  it('writes: the next id, starting after the last span, with producers', () => {
    const s = chain.app.store.branch();
    const span0 = getSpan(s, 0n)!;
    const next = { ...span0, id: 1n, startBlock: span0.endBlock + 1n, endBlock: span0.endBlock + 64n };
    expect(() => setSpan(s, { ...next, id: 2n })).toThrow(/spans are recorded in order/);
    expect(() => setSpan(s, { ...next, startBlock: next.startBlock + 1n })).toThrow(/each continuing the last/);
    expect(() => setSpan(s, { ...next, selectedProducers: [] })).toThrow(/a span has blocks and producers/);
    setSpan(s, next);
    expect(getSpan(s, 1n)).toEqual(next);
    expect(() => setSpan(s, next)).toThrow(/spans are recorded in order/);
  });

  it('reads: a span stored under another id is refused', () => {
    const s = chain.app.store.branch();
    s.set(`sidechain/span/${idKey(7n)}`, getSpan(s, 0n));
    expect(() => getSpan(s, 7n)).toThrow(/a span is stored under its id/);
  });
});
