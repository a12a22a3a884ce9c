/**
 * Validators and the validator set.
 *
 * Validators are stored by id (with a signer -> id index). The current validator set, with its
 * proposer priorities, is stored as one record; it changes at end block (joins, exits, power and
 * signer changes take effect by checkpoint count, README items 16-17) and rotates its proposer by
 * exactly one on each checkpoint ack and no-ack.
 */
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { compareAddresses } from '../../core/address';
import { type KVReader, type KVStore } from '../../store/kvStore';
import { ValidatorSet } from '../../core/validatorSet';
import { getAckCount } from '../checkpoint/keeper';
import { idKey } from '../framework/storeKeys';

export interface Validator {
  id: bigint;
  startEpoch: bigint;
  endEpoch: bigint;
  power: bigint;
  /** 65-byte uncompressed public key. */
  pubKey: Hex;
  signer: Address;
  /** The parent-chain event sequence `blockNumber * 100000 + logIndex`; null for genesis validators. */
  lastUpdated: bigint | null;
  jailed: boolean;
}

const validatorKey = (id: bigint) => `staking/validator/${idKey(id)}`;
const signerKey = (a: Address) => `staking/signer/${a}`;
const SET_KEY = 'staking/validator_set';
const seqKey = (txHash: string, logIndex: bigint) => `staking/seq/${txHash}/${logIndex}`;

export function getValidator(store: KVReader, id: bigint): Validator | undefined {
  return store.get<Validator>(validatorKey(id));
}

export function getValidatorBySigner(store: KVReader, signer: Address): Validator | undefined {
  const id = store.get<bigint>(signerKey(signer));
  return id === undefined ? undefined : getValidator(store, id);
}

export function setValidator(store: KVStore, v: Validator): void {
  const previous = getValidator(store, v.id);
  if (previous && previous.signer !== v.signer) store.delete(signerKey(previous.signer));
  store.set(validatorKey(v.id), v);
  store.set(signerKey(v.signer), v.id);
}

/** Every validator ever known, in id order. */
export function allValidators(store: KVReader): Validator[] {
  return store.iterate<Validator>('staking/validator/').map(([, v]) => v);
}

/**
 * Store values are immutable, so a stored set is parsed once per value object; callers get a copy
 * (they may advance its priorities). Every block reads the set several times.
 */
const parsedSets = new WeakMap<object, ValidatorSet>();

export function getValidatorSet(store: KVReader): ValidatorSet {
  const json = store.get<unknown>(SET_KEY);
  if (json === undefined) throw new Error('the validator set is not initialised (genesis not applied)');
  if (typeof json !== 'object' || json === null) return ValidatorSet.fromJSON(json);
  let set = parsedSets.get(json);
  if (set === undefined) {
    set = ValidatorSet.fromJSON(json);
    parsedSets.set(json, set);
  }
  return set.copy();
}

export function setValidatorSet(store: KVStore, set: ValidatorSet): void {
  store.set(SET_KEY, set.toJSON());
}

export function isSeqSeen(store: KVReader, txHash: string, logIndex: bigint): boolean {
  return store.has(seqKey(txHash, logIndex));
}

export function markSeq(store: KVStore, txHash: string, logIndex: bigint): void {
  store.set(seqKey(txHash, logIndex), true);
}

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

/** Rotate the proposer `times` steps (checkpoint ack, no-ack). */
export function incrementAccum(store: KVStore, times: number): void {
  const set = getValidatorSet(store);
  set.incrementProposerPriority(times);
  setValidatorSet(store, set);
}

/** The spec's Validator shape: ID, startEpoch, endEpoch, power, pubKey, signer, last_updated, accum. */
export function validatorJson(
  v: Validator,
  opts: { form: 'span' | 'info'; power?: bigint; accum?: bigint },
): Record<string, unknown> {
  return {
    ID: Number(v.id),
    startEpoch: Number(v.startEpoch),
    endEpoch: Number(v.endEpoch),
    power: Number(opts.power ?? v.power),
    pubKey: v.pubKey,
    signer: v.signer,
    last_updated: opts.form === 'span' ? '' : v.lastUpdated === null ? 0 : Number(v.lastUpdated),
    accum: Number(opts.accum ?? 0n),
  };
}

/** The validator set as `{validators, proposer}` in the spec's Validator shape. */
export function validatorSetJson(store: KVReader, set: ValidatorSet, form: 'span' | 'info'): Record<string, unknown> {
  const show = (address: Address, power: bigint, accum: bigint) => {
    const v = getValidatorBySigner(store, address);
    return v
      ? validatorJson(v, { form, power, accum })
      : {
          ID: 0,
          startEpoch: 0,
          endEpoch: 0,
          power: Number(power),
          pubKey: '0x',
          signer: address,
          last_updated: form === 'span' ? '' : 0,
          accum: Number(accum),
        };
  };
  const p = set.proposer;
  return {
    validators: set.validators.map((m) => show(m.address, m.power, m.proposerPriority)),
    proposer: p ? show(p.address, p.power, p.proposerPriority) : null,
  };
}
