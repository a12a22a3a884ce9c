/**
 * Who is a current validator (by checkpoint count: joins, exits, power and signer changes take
 * effect by epoch, README items 16-17), who may produce in the next span, and the end-block update
 * that brings the stored validator set in line with them.
 */
import { type Address, compareAddresses } from '../../core/address';
import { type KVReader, type KVStore } from '../../store/kvStore';
import { getAckCount } from '../checkpoint/keeper';
import { allValidators, getValidatorSet, setValidatorSet, type Validator } from './keeper';

/** `IsCurrentValidator(ackCount)`: current epoch = ackCount + 1 (README item 17). */
export function isCurrentValidator(v: Validator, ackCount: bigint): boolean {
  const epoch = ackCount + 1n;
  return !v.jailed && v.startEpoch <= epoch && (v.endEpoch === 0n || v.endEpoch > epoch) && v.power > 0n;
}

/** Validators that may produce in the next span, in signer-address order (heimdall §1.5). */
export function spanEligibleValidators(store: KVReader): Validator[] {
  const ack = getAckCount(store);
  return allValidators(store)
    .filter((v) => v.endEpoch === 0n && isCurrentValidator(v, ack))
    .sort((a, b) => compareAddresses(a.signer, b.signer));
}

export interface ValidatorUpdate {
  address: Address;
  power: bigint;
}

/**
 * End block: bring the set in line with the stored validators (heimdall §4.3). Joins get the
 * new-validator priority, removals leave; the stored proposer is not rotated by set changes.
 * Returns the updates (for the consensus engine), empty when nothing changed.
 */
export function applyValidatorSetChanges(store: KVStore): ValidatorUpdate[] {
  const set = getValidatorSet(store);
  const ack = getAckCount(store);
  const current = new Map<Address, Validator>();
  for (const v of allValidators(store)) if (isCurrentValidator(v, ack)) current.set(v.signer, v);
  const updates: ValidatorUpdate[] = [];
  for (const member of set.validators) {
    const v = current.get(member.address);
    if (v === undefined) updates.push({ address: member.address, power: 0n });
    else if (v.power !== member.power) updates.push({ address: member.address, power: v.power });
  }
  for (const [address, v] of current) if (!set.hasAddress(address)) updates.push({ address, power: v.power });
  if (updates.length === 0) return [];
  updates.sort((a, b) => compareAddresses(a.address, b.address));
  const remaining =
    set.validators.filter((m) => !updates.some((u) => u.address === m.address && u.power === 0n)).length +
    updates.filter((u) => u.power > 0n && !set.hasAddress(u.address)).length;
  // A change that would empty the set is not applied (the reference errors out); the set stays.
  if (remaining === 0) return [];
  set.updateWithChangeSet(updates.map((u) => ({ address: u.address, power: u.power })));
  setValidatorSet(store, set);
  return updates;
}
