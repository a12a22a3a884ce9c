/**
 * The keys of a run (sim/domain/runSetup.ts derives them from the scenario and the seed): each
 * validator's signer and owner, the keys it rotates its signer to, and the funded users.
 */
import { type Address } from '../../src/core/address';
import { type Hex } from '../../src/core/bytes';

/** A validator's keys: its signer (the node's key) and its owner (the parent-chain staker). */
export interface ValidatorKeys {
  /** 1-based. */
  index: number;
  signerKey: Hex;
  signer: Address;
  pubKey: Hex;
  ownerKey: Hex;
  owner: Address;
}

/** A funded user of the run (a client of the service, a wallet on the sidechain). */
export interface UserKey {
  key: Hex;
  address: Address;
}

/** A signer key a validator rotates to on the parent chain (a `signerChanges` item of the workload). */
export interface RotationKey {
  key: Hex;
  signer: Address;
  pubKey: Hex;
}
