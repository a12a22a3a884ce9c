/**
 * A block header's state root: the system state (spans, state-sync ids: systemState.ts) and the
 * accounts (accounts.ts) together, keccak256(systemRoot ‖ accountsRoot). Each part's root is cached
 * per state object, so a block that changes neither costs one 64-byte hash.
 */
import { type Hex, concatBytes, fromHex, toHex } from '../core/bytes';
import { keccak256Bytes } from '../core/hash';
import { type AccountState, accountsRoot } from './accounts';
import { type SystemState, systemStateRoot } from './systemState';

export function stateRoot(system: SystemState, accounts: AccountState): Hex {
  return toHex(keccak256Bytes(concatBytes(fromHex(systemStateRoot(system)), fromHex(accountsRoot(accounts)))));
}
