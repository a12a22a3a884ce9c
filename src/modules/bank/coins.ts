/**
 * Coins on the wire, in the spec's shape `{"denom":"matic","amount":{"i":"1000"}}`: the type, its
 * JSON, and the decoder that names the bad field.
 */
import { parseUint } from '../../core/amount';
import { InputError } from '../../core/errors';
import { compareStrings } from '../../core/order';
import { type Obj, asArray, asObject, str } from '../framework/decode';

export interface Coin {
  denom: string;
  amount: bigint;
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
