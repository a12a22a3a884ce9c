/**
 * The sidechain's accounts: a nonce and a balance (wei) per address, as Ethereum keeps them for an
 * account without code. Immutable: a block's transactions produce a new state (copy on write), and
 * a block without transactions shares its parent's, so nodes and blocks share what did not change.
 *
 * The accounts root commits to every account: keccak256 of the RLP list of `[address, nonce,
 * balance]`, sorted by address (not a Merkle-Patricia trie: nothing on the sidechain proves a
 * single account, so a flat commitment that any change moves is enough). It is cached per state.
 */
import { toBeArray } from 'ethers';
import { weakMemo } from '../core/memo';
import { type Address, compareAddresses } from '../core/address';
import { type Hex, fromHex, toHex } from '../core/bytes';
import { keccak256Bytes } from '../core/hash';
import { rlpEncode } from '../core/rlp';
import { EMPTY_TRIE_ROOT } from './header';

export interface Account {
  readonly nonce: bigint;
  readonly balance: bigint;
}

export type AccountState = ReadonlyMap<Address, Account>;

export const EMPTY_ACCOUNT: Account = Object.freeze({ nonce: 0n, balance: 0n });

/** A balance a devnet's operator set (`anvil_setBalance`), applied before a block's transactions. */
export interface BalanceOverride {
  readonly address: Address;
  readonly balance: bigint;
}

/** The accounts after a block's balance overrides (the nonces stay). */
export function applyBalanceOverrides(parent: AccountState, overrides: readonly BalanceOverride[]): AccountState {
  if (overrides.length === 0) return parent;
  const changes = new Map<Address, Account>();
  for (const o of overrides) changes.set(o.address, { nonce: accountOf(parent, o.address).nonce, balance: o.balance });
  return withChanges(parent, changes);
}

/** A genesis allocation: who holds what at block 0. */
export interface GenesisAlloc {
  readonly address: Address;
  readonly balance: bigint;
}

export function genesisAccounts(alloc: readonly GenesisAlloc[]): AccountState {
  const m = new Map<Address, Account>();
  for (const a of alloc) m.set(a.address, { nonce: 0n, balance: (m.get(a.address)?.balance ?? 0n) + a.balance });
  return m;
}

export function accountOf(state: AccountState, address: Address): Account {
  return state.get(address) ?? EMPTY_ACCOUNT;
}

/** The state with `changes` on top; the same state object when there are none. */
export function withChanges(state: AccountState, changes: ReadonlyMap<Address, Account>): AccountState {
  if (changes.size === 0) return state;
  const next = new Map(state);
  for (const [address, account] of changes) next.set(address, account);
  return next;
}

const roots = weakMemo<AccountState, Hex>('sidechain.accountRoots');

export function accountsRoot(state: AccountState): Hex {
  return roots.getOrCompute(state, () => {
    if (state.size === 0) return EMPTY_TRIE_ROOT;
    const rows = [...state.entries()]
      .sort(([a], [b]) => compareAddresses(a, b))
      .map(([address, a]) => [fromHex(address), toBeArray(a.nonce), toBeArray(a.balance)]);
    return toHex(keccak256Bytes(rlpEncode(rows)));
  });
}
