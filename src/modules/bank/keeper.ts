/** Balances: add, subtract, send (coins are kept on the auth module's accounts); send enabled. */
import { SdkErrors } from '../framework/errors';
import { type Address } from '../../core/address';
import { type ResultError, assert, err } from '../../core/errors';
import { type KVReader, type KVStore } from '../../store/kvStore';
import { getOrCreateAccount, setAccount, getAccount, withCoins } from '../auth/keeper';
import { type Coin } from './coins';
import { type BankParams, DEFAULT_BANK_PARAMS } from './params';

const SEND_ENABLED_KEY = 'bank/send_enabled';

export function sendEnabled(store: KVReader): boolean {
  return store.get<boolean>(SEND_ENABLED_KEY) ?? DEFAULT_BANK_PARAMS.sendEnabled;
}

export function getBankParams(store: KVReader): BankParams {
  return { sendEnabled: sendEnabled(store) };
}

export function setSendEnabled(store: KVStore, enabled: boolean): void {
  store.set(SEND_ENABLED_KEY, enabled);
}

export function addCoins(store: KVStore, address: Address, coins: readonly Coin[]): void {
  for (const c of coins) assert(c.amount >= 0n, 'coins added are not negative', { address, ...c });
  let acc = getOrCreateAccount(store, address);
  for (const c of coins) acc = withCoins(acc, c.denom, (acc.coins[c.denom] ?? 0n) + c.amount);
  setAccount(store, acc);
}

/** Subtract, or fail with sdk 10 without writing anything. */
export function subCoins(store: KVStore, address: Address, coins: readonly Coin[]): ResultError | null {
  for (const c of coins) assert(c.amount >= 0n, 'coins taken are not negative', { address, ...c });
  let acc = getAccount(store, address);
  for (const c of coins) {
    const have = acc?.coins[c.denom] ?? 0n;
    if (acc === undefined || have < c.amount) {
      return err(SdkErrors.InsufficientCoins, `insufficient account funds; ${have}${c.denom} < ${c.amount}${c.denom}`);
    }
    acc = withCoins(acc, c.denom, have - c.amount);
  }
  if (acc) setAccount(store, acc);
  return null;
}

export function sendCoins(store: KVStore, from: Address, to: Address, coins: readonly Coin[]): ResultError | null {
  const e = subCoins(store, from, coins);
  if (e) return e;
  addCoins(store, to, coins);
  return null;
}
