/**
 * A block header's state root: the system state (spans, state-sync ids: systemState.ts) and the
 * accounts (accounts.ts) together, keccak256(systemRoot ‖ accountsRoot). Each part's root is cached
 * per state object, and the pair's hash by the two roots, so every node importing a block finds it.
 */
import { boundedMemo } from '../core/memo';
import { type Hex, concatBytes, fromHex, toHex } from '../core/bytes';
import { keccak256Bytes } from '../core/hash';
import { type AccountState, accountsRoot } from './accounts';
import { type SystemState, systemStateRoot } from './systemState';

const roots = boundedMemo<string, Hex>('sidechain.stateRoots', 4096);

export function stateRoot(system: SystemState, accounts: AccountState): Hex {
  const sys = systemStateRoot(system);
  const acc = accountsRoot(accounts);
  return roots.getOrCompute(sys + acc, () => toHex(keccak256Bytes(concatBytes(fromHex(sys), fromHex(acc)))));
}
