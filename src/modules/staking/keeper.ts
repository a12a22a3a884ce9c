/**
 * Validators and the validator set.
 *
 * Validators are stored by id (with a signer -> id index). The current validator set, with its
 * proposer priorities, is stored as one record; it changes at end block (joins, exits, power and
 * signer changes take effect by checkpoint count, README items 16-17) and rotates its proposer by
 * exactly one on each checkpoint ack and no-ack.
 */
import { weakMemo } from '../../core/memo';
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { assert } from '../../core/errors';
import { type KVReader, type KVStore } from '../../store/kvStore';
import { ValidatorSet } from '../../core/validatorSet';
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
  const v = store.get<Validator>(validatorKey(id));
  if (v !== undefined)
    assert(v.id === id && v.power >= 0n, 'a validator is stored under its id with a power that is not negative', {
      id,
      stored: v.id,
      power: v.power,
    });
  return v;
}

export function getValidatorBySigner(store: KVReader, signer: Address): Validator | undefined {
  const id = store.get<bigint>(signerKey(signer));
  return id === undefined ? undefined : getValidator(store, id);
}

export function setValidator(store: KVStore, v: Validator): void {
  assert(v.id > 0n && v.power >= 0n, 'a validator has an id from 1 and a power that is not negative', {
    id: v.id,
    power: v.power,
  });
  const holder = store.get<bigint>(signerKey(v.signer));
  assert(holder === undefined || holder === v.id, 'a signer belongs to one validator', {
    signer: v.signer,
    id: v.id,
    holder,
  });
  const previous = getValidator(store, v.id);
  if (previous)
    assert(previous.startEpoch === v.startEpoch, "a validator's start epoch never changes", {
      id: v.id,
      before: previous.startEpoch,
      after: v.startEpoch,
    });
  if (previous && previous.signer !== v.signer) store.delete(signerKey(previous.signer));
  store.set(validatorKey(v.id), v);
  store.set(signerKey(v.signer), v.id);
}

/** Every validator ever known, in id order. */
export function allValidators(store: KVReader): Validator[] {
  return store.iterate<Validator>('staking/validator/').map(([, v]) => v);
}

/** The signer -> validator id index. */
export function signerIndex(store: KVReader): Map<Address, bigint> {
  return new Map(
    store.iterate<bigint>('staking/signer/').map(([k, id]) => [k.slice('staking/signer/'.length) as Address, id]),
  );
}

/**
 * Store values are immutable, so a stored set is parsed once per value object; callers get a copy
 * (they may advance its priorities). Every block reads the set several times.
 */
const parsedSets = weakMemo<object, ValidatorSet>('staking.parsedValidatorSets');

export function getValidatorSet(store: KVReader): ValidatorSet {
  const json = store.get<unknown>(SET_KEY);
  if (json === undefined) throw new Error('the validator set is not initialised (genesis not applied)');
  if (typeof json !== 'object' || json === null) return ValidatorSet.fromJSON(json);
  return parsedSets.getOrCompute(json, () => ValidatorSet.fromJSON(json)).copy();
}

export function setValidatorSet(store: KVStore, set: ValidatorSet): void {
  store.set(SET_KEY, set.toJSON());
}

export function isSeqSeen(store: KVReader, txHash: string, logIndex: bigint): boolean {
  return store.has(seqKey(txHash, logIndex));
}

export function markSeq(store: KVStore, txHash: string, logIndex: bigint): void {
  assert(!isSeqSeen(store, txHash, logIndex), 'a staking event is applied once', { txHash, logIndex });
  store.set(seqKey(txHash, logIndex), true);
}

/** Rotate the proposer `times` steps (checkpoint ack, no-ack). */
export function incrementAccum(store: KVStore, times: number): void {
  const set = getValidatorSet(store);
  set.incrementProposerPriority(times);
  setValidatorSet(store, set);
}
