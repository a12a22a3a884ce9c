/**
 * Balances: add, subtract, send, mint. Coins on the wire use the spec's shape
 * `{"denom":"matic","amount":{"i":"1000"}}`.
 */
import { SdkErrors } from '../framework/errors';
import { type Address } from '../../core/address';
import { type ResultError, err } from '../../core/errors';
import { type KVReader, type KVStore } from '../../store/kvStore';
import { getOrCreateAccount, setAccount, getAccount, withCoins } from '../auth/keeper';
import { type Obj, asArray, asObject, str } from '../framework/decode';
import { parseUint } from '../../core/amount';
import { InputError } from '../../core/errors';
import { compareStrings } from '../../core/order';

export interface Coin {
  denom: string;
  amount: bigint;
}

const SEND_ENABLED_KEY = 'bank/send_enabled';

export function sendEnabled(store: KVReader): boolean {
  return store.get<boolean>(SEND_ENABLED_KEY) ?? true;
}

export function setSendEnabled(store: KVStore, enabled: boolean): void {
  store.set(SEND_ENABLED_KEY, enabled);
}

export function addCoins(store: KVStore, address: Address, coins: readonly Coin[]): void {
  let acc = getOrCreateAccount(store, address);
  for (const c of coins) acc = withCoins(acc, c.denom, (acc.coins[c.denom] ?? 0n) + c.amount);
  setAccount(store, acc);
}

/** Subtract, or fail with sdk 10 without writing anything. */
export function subCoins(store: KVStore, address: Address, coins: readonly Coin[]): ResultError | null {
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

export function coinsJson(coins: readonly Coin[]): Obj[] {
  return coins.map((c) => ({ denom: c.denom, amount: { i: c.amount.toString() } }));
}

export function accountCoins(coins: Record<string, bigint>): Coin[] {
  return Object.keys(coins)
    .sort(compareStrings)
    .map((denom) => ({ denom, amount: coins[denom]! }));
}

const DENOM_RE = /^[a-z][a-z0-9]{2,15}$/;

/** Parse the spec's coins shape; amounts must be positive, denominations valid and distinct. */
export function decodeCoins(value: unknown, path: string): Coin[] {
  const list = asArray(value, path);
  const seen = new Set<string>();
  return list.map((item, i) => {
    const p = `${path}[${i}]`;
    const o = asObject(item, p);
    const denom = str(o, 'denom', p);
    if (!DENOM_RE.test(denom)) throw new InputError(`${p}.denom`, `invalid denomination ${JSON.stringify(denom)}`);
    if (seen.has(denom)) throw new InputError(`${p}.denom`, `duplicate denomination ${denom}`);
    seen.add(denom);
    const amountObj = asObject(o.amount, `${p}.amount`);
    const amount = parseUint(str(amountObj, 'i', `${p}.amount`), `${p}.amount.i`);
    if (amount === 0n) throw new InputError(`${p}.amount.i`, 'must be positive');
    return { denom, amount };
  });
}
