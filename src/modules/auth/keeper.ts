/**
 * Accounts (BaseAccount) and balances. Balances are per denomination, bigint; an account is
 * created with the next account number the first time it receives coins or is named in genesis.
 */
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { type KVReader, type KVStore } from '../../store/kvStore';
import { compareStrings } from '../../core/order';
import { keccak256Bytes } from '../../core/hash';
import { addressFromBytes } from '../../core/address';
import { assert } from '../../core/errors';
import { utf8 } from '../../core/bytes';
import { type AuthParams, DEFAULT_AUTH_PARAMS } from './params';

export interface Account {
  address: Address;
  /** denom -> amount; zero balances are dropped. */
  coins: Record<string, bigint>;
  pubKey: Hex | null;
  accountNumber: bigint;
  sequence: bigint;
}

const accountKey = (a: Address) => `auth/account/${a}`;
const NEXT_NUMBER_KEY = 'auth/next_account_number';
const PARAMS_KEY = 'auth/params';

/** Module account that collects fees during a block (paid to the proposer at end block). */
export const FEE_COLLECTOR: Address = addressFromBytes(
  keccak256Bytes(utf8('lockstep/module/fee_collector')).subarray(12),
);

/** What every stored account satisfies; checked when it is written and when it is read back. */
function assertAccount(a: Account, address: Address): void {
  assert(a.address === address, 'an account is stored under its address', { key: address, address: a.address });
  assert(a.sequence >= 0n && a.accountNumber >= 0n, 'account number and sequence are not negative', {
    address,
    sequence: a.sequence,
    accountNumber: a.accountNumber,
  });
  for (const denom in a.coins)
    assert(a.coins[denom]! > 0n, 'a stored balance is positive (a zero balance is dropped)', {
      address,
      denom,
      amount: a.coins[denom],
    });
}

export function getAccount(store: KVReader, address: Address): Account | undefined {
  const a = store.get<Account>(accountKey(address));
  if (a !== undefined) assertAccount(a, address);
  return a;
}

export function setAccount(store: KVStore, account: Account): void {
  assertAccount(account, account.address);
  const before = store.get<Account>(accountKey(account.address));
  if (before !== undefined) {
    assert(before.accountNumber === account.accountNumber, 'an account keeps its number', {
      address: account.address,
      before: before.accountNumber,
      after: account.accountNumber,
    });
    assert(account.sequence >= before.sequence, 'an account sequence only grows', {
      address: account.address,
      before: before.sequence,
      after: account.sequence,
    });
  }
  store.set(accountKey(account.address), account);
}

export function allAccounts(store: KVReader): Account[] {
  return store.iterate<Account>('auth/account/').map(([, a]) => a);
}

export function getOrCreateAccount(store: KVStore, address: Address): Account {
  const existing = getAccount(store, address);
  if (existing) return existing;
  const n = nextAccountNumber(store);
  assert(n >= 0n, 'account numbers are not negative', { next: n });
  store.set(NEXT_NUMBER_KEY, n + 1n);
  const account: Account = { address, coins: {}, pubKey: null, accountNumber: n, sequence: 0n };
  setAccount(store, account);
  return account;
}

/** The number the next new account gets. */
export function nextAccountNumber(store: KVReader): bigint {
  return store.get<bigint>(NEXT_NUMBER_KEY) ?? 0n;
}

export function balanceOf(store: KVReader, address: Address, denom: string): bigint {
  return getAccount(store, address)?.coins[denom] ?? 0n;
}

export function withCoins(account: Account, denom: string, amount: bigint): Account {
  const coins = { ...account.coins };
  if (amount === 0n) delete coins[denom];
  else coins[denom] = amount;
  return { ...account, coins: sortCoins(coins) };
}

function sortCoins(coins: Record<string, bigint>): Record<string, bigint> {
  const out: Record<string, bigint> = {};
  for (const d of Object.keys(coins).sort(compareStrings)) out[d] = coins[d]!;
  return out;
}

export function getAuthParams(store: KVReader): AuthParams {
  return store.get<AuthParams>(PARAMS_KEY) ?? DEFAULT_AUTH_PARAMS;
}

export function setAuthParams(store: KVStore, params: AuthParams): void {
  store.set(PARAMS_KEY, params);
}
