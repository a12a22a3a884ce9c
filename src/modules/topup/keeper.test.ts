/** The topup keeper's assertions: a top-up minted once, withdrawals that only add, accounts under their id. */
import { describe, expect, it } from 'vitest';
import { TestChain } from '../../app/testing/testChain';
import { idKey } from '../framework/storeKeys';
import { addFeeToDividendAccount, getDividendAccount, markTopup } from './keeper';

describe('topup keeper', () => {
  it('writes: a top-up once, a positive withdrawal; reads: an account under another id is refused', () => {
    const s = new TestChain({ validators: 2 }).app.store.branch();
    const tx = `0x${'44'.repeat(32)}`;
    markTopup(s, tx, 1n);
    expect(() => markTopup(s, tx, 1n)).toThrow(/a top-up is minted once/);
    expect(addFeeToDividendAccount(s, 1n, 5n).feeAmount).toBe(5n);
    expect(addFeeToDividendAccount(s, 1n, 2n).feeAmount).toBe(7n);
    expect(() => addFeeToDividendAccount(s, 1n, 0n)).toThrow(/a withdrawal adds a positive amount/);
    s.set(`topup/dividend/${idKey(2n)}`, { ...getDividendAccount(s, 1n) });
    expect(() => getDividendAccount(s, 2n)).toThrow(/stored under its id/);
  });
});
