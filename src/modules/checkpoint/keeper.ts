/**
 * Checkpoints: params, the buffer, acked checkpoints (numbered from 1), the last no-ack time.
 * Timestamps are whole seconds of block time, as in the reference.
 */
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { type KVReader, type KVStore } from '../../store/kvStore';
import { type CheckpointParams, DEFAULT_CHECKPOINT_PARAMS } from './params';
import { idKey } from '../framework/storeKeys';

export interface Checkpoint {
  proposer: Address;
  startBlock: bigint;
  endBlock: bigint;
  rootHash: Hex;
  accountRootHash: Hex;
  /** Unix-style seconds of the block that buffered it. */
  timestamp: bigint;
}

const PARAMS_KEY = 'checkpoint/params';
const ACK_COUNT_KEY = 'checkpoint/ack_count';
const BUFFER_KEY = 'checkpoint/buffer';
const LAST_NO_ACK_KEY = 'checkpoint/last_no_ack';
const cpKey = (n: bigint) => `checkpoint/number/${idKey(n)}`;

/** The checkpoint ack count: read by staking (epochs) and written by the checkpoint module. */
export function getAckCount(store: KVReader): bigint {
  return store.get<bigint>(ACK_COUNT_KEY) ?? 0n;
}

export function setAckCount(store: KVStore, n: bigint): void {
  store.set(ACK_COUNT_KEY, n);
}

export function getCheckpointParams(store: KVReader): CheckpointParams {
  return store.get<CheckpointParams>(PARAMS_KEY) ?? DEFAULT_CHECKPOINT_PARAMS;
}

export function setCheckpointParams(store: KVStore, p: CheckpointParams): void {
  store.set(PARAMS_KEY, p);
}

export function getBuffer(store: KVReader): Checkpoint | undefined {
  return store.get<Checkpoint>(BUFFER_KEY);
}

export function setBuffer(store: KVStore, cp: Checkpoint): void {
  store.set(BUFFER_KEY, cp);
}

export function flushBuffer(store: KVStore): void {
  store.delete(BUFFER_KEY);
}

export function getCheckpoint(store: KVReader, n: bigint): Checkpoint | undefined {
  return store.get<Checkpoint>(cpKey(n));
}

export function addCheckpoint(store: KVStore, n: bigint, cp: Checkpoint): void {
  store.set(cpKey(n), cp);
}

/** The last acked checkpoint: number = ack count (none while the count is 0). */
export function getLastCheckpoint(store: KVReader): { number: bigint; checkpoint: Checkpoint } | undefined {
  const n = getAckCount(store);
  const cp = n === 0n ? undefined : getCheckpoint(store, n);
  return cp ? { number: n, checkpoint: cp } : undefined;
}

export function allCheckpoints(store: KVReader): Array<{ number: bigint; checkpoint: Checkpoint }> {
  return store
    .iterate<Checkpoint>('checkpoint/number/')
    .map(([k, checkpoint]) => ({ number: BigInt(k.slice('checkpoint/number/'.length)), checkpoint }));
}

export function getLastNoAck(store: KVReader): bigint {
  return store.get<bigint>(LAST_NO_ACK_KEY) ?? 0n;
}

export function setLastNoAck(store: KVStore, seconds: bigint): void {
  store.set(LAST_NO_ACK_KEY, seconds);
}
