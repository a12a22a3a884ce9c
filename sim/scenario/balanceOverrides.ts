/**
 * `workload.balanceOverrides`: an operator sets a sidechain account's balance, as a devnet's
 * `anvil_setBalance` does (docs/DEVNET.md): every sidechain node gets the same `op.setBalance`
 * message, and the next block a node seals carries the override in its body, applied before the
 * block's transactions (the sidechain-accounts oracle judges it). The account is one of the
 * client's users (`user`, 1-based) or any `address`; the balance is in wei.
 */
import { type Address } from '../../src/core/address';
import { InputError } from '../../src/core/errors';
import { durationText } from '../../src/core/duration';
import { type Obj, type Reader } from '../core/reader';
import { DURATION, UINT, type Schema, int, object } from '../core/schemaParts';
import { type Repeats } from './repeats';

/** How many users the client has (sim/domain/runSetup.ts makes four). */
export const USER_COUNT = 4;

export type BalanceTarget = { user: number } | { address: Address };

export type BalanceOverrideItem = { atMs: number; target: BalanceTarget; balanceWei: bigint } & Repeats;

export const BALANCE_OVERRIDE_FIELDS = ['at', 'user', 'address', 'balanceWei'];

/** Its entry's JSON Schema (without repeat and every, which every list entry has). */
export const balanceOverrideSchema = (repeats: Record<string, Schema>): Schema =>
  object(
    {
      at: DURATION,
      user: int(1, USER_COUNT, "one of the client's users (1-based)"),
      address: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$', description: 'a 20-byte address, 0x hex' },
      balanceWei: UINT,
      ...repeats,
    },
    ['at', 'balanceWei'],
  );

export function decodeBalanceOverride(c: Reader, x: Obj): Omit<BalanceOverrideItem, keyof Repeats> {
  if ((x.user === undefined) === (x.address === undefined))
    throw new InputError(c.at('user'), 'give exactly one of user (1-based) or address');
  let target: BalanceTarget;
  if (x.user !== undefined) target = { user: c.int(x, 'user', undefined, 1, USER_COUNT) };
  else {
    const a = c.str(x, 'address');
    if (!/^0x[0-9a-fA-F]{40}$/.test(a))
      throw new InputError(c.at('address'), `expected a 20-byte 0x address, got "${a}"`);
    target = { address: a.toLowerCase() as Address };
  }
  return { atMs: c.duration(x, 'at'), target, balanceWei: c.big(x, 'balanceWei') };
}

export function encodeBalanceOverride(t: BalanceOverrideItem): Record<string, unknown> {
  return { at: durationText(t.atMs), ...t.target, balanceWei: t.balanceWei.toString() };
}
