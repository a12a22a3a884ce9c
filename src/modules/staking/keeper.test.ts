/** The staking keeper's assertions: ids from 1, one validator per signer, a fixed start epoch, events once. */
import { describe, expect, it } from 'vitest';
import { TestChain } from '../../app/testing/testChain';
import { idKey } from '../framework/storeKeys';
import { getValidator, markSeq, setValidator } from './keeper';

const TX = `0x${'22'.repeat(32)}`;

describe('staking keeper', () => {
  const chain = new TestChain({ validators: 3 });

  it('writes: an id from 1, a signer of its own, the same start epoch; an event marked once', () => {
    const s = chain.app.store.branch();
    const v1 = getValidator(s, 1n)!;
    const v2 = getValidator(s, 2n)!;
    setValidator(s, { ...v1, power: 5n });
    expect(getValidator(s, 1n)!.power).toBe(5n);
    expect(() => setValidator(s, { ...v1, id: 0n })).toThrow(/an id from 1/);
    expect(() => setValidator(s, { ...v1, power: -1n })).toThrow(/not negative/);
    expect(() => setValidator(s, { ...v1, signer: v2.signer })).toThrow(/a signer belongs to one validator/);
    expect(() => setValidator(s, { ...v1, startEpoch: v1.startEpoch + 1n })).toThrow(/start epoch never changes/);
    markSeq(s, TX, 3n);
    expect(() => markSeq(s, TX, 3n)).toThrow(/a staking event is applied once/);
  });

  it('reads: a validator stored under another id is refused', () => {
    const s = chain.app.store.branch();
    s.set(`staking/validator/${idKey(3n)}`, { ...getValidator(s, 2n)! });
    expect(() => getValidator(s, 3n)).toThrow(/a validator is stored under its id/);
  });
});
