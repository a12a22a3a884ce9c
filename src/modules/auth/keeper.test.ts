/** The auth keeper's assertions, in pairs: what a write refuses, and what a read of a bad record refuses. */
import { describe, expect, it } from 'vitest';
import { InvariantError } from '../../core/errors';
import { TestChain, testKey } from '../../app/testing/testChain';
import { addCoins, subCoins } from '../bank/keeper';
import { getAccount, getOrCreateAccount, setAccount } from './keeper';

describe('auth keeper', () => {
  const chain = new TestChain({ validators: 2 });
  const who = chain.validators[0]!.address;

  it('writes: positive balances, the same number, a sequence that only grows', () => {
    const s = chain.app.store.branch();
    const a = getAccount(s, who)!;
    setAccount(s, { ...a, sequence: a.sequence + 1n });
    expect(getAccount(s, who)!.sequence).toBe(a.sequence + 1n);
    expect(() => setAccount(s, { ...a, sequence: a.sequence })).toThrow(/an account sequence only grows/);
    expect(() => setAccount(s, { ...a, sequence: a.sequence + 1n, accountNumber: 9n })).toThrow(
      /an account keeps its number/,
    );
    expect(() => setAccount(s, { ...a, sequence: a.sequence + 1n, coins: { matic: 0n } })).toThrow(
      /a stored balance is positive/,
    );
    expect(() => addCoins(s, who, [{ denom: 'matic', amount: -1n }])).toThrow(InvariantError);
    expect(() => subCoins(s, who, [{ denom: 'matic', amount: -1n }])).toThrow(InvariantError);
    const fresh = getOrCreateAccount(s, testKey('fresh').address);
    expect(fresh).toMatchObject({ sequence: 0n, coins: {} });
  });

  it('reads: a record written past the keeper that breaks the rule is refused when read back', () => {
    const s = chain.app.store.branch();
    s.set(`auth/account/${who}`, { ...getAccount(s, who)!, coins: { matic: -5n } });
    expect(() => getAccount(s, who)).toThrow(/a stored balance is positive/);
    const other = chain.validators[1]!.address;
    s.set(`auth/account/${other}`, { ...getAccount(s, other)!, address: who });
    expect(() => getAccount(s, other)).toThrow(/an account is stored under its address/);
  });
});
