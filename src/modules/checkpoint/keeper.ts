/**
 * Checkpoints: params, the buffer, acked checkpoints (numbered from 1), the last no-ack time.
 * Timestamps are whole seconds of block time, as in the reference.
 */
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { assert } from '../../core/errors';
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
  const n = store.get<bigint>(ACK_COUNT_KEY) ?? 0n;
  assert(n >= 0n, 'the ack count is not negative', { ackCount: n });
  return n;
}

/** Genesis writes 0; every ack after that adds exactly one. */
export function setAckCount(store: KVStore, n: bigint): void {
  const before = store.get<bigint>(ACK_COUNT_KEY);
  assert(before === undefined ? n === 0n : n === before + 1n, 'the ack count starts at 0 and grows by one', {
    before,
    after: n,
  });
  store.set(ACK_COUNT_KEY, n);
}

/** Where the next checkpoint must start: after the last acked one, or at sidechain block 0. */
function nextCheckpointStart(store: KVReader): bigint {
  const last = getLastCheckpoint(store);
  return last === undefined ? 0n : last.checkpoint.endBlock + 1n;
}

function assertRange(cp: Checkpoint, what: string): void {
  assert(cp.startBlock <= cp.endBlock, `${what} does not end before it starts`, {
    startBlock: cp.startBlock,
    endBlock: cp.endBlock,
  });
}

export function getCheckpointParams(store: KVReader): CheckpointParams {
  return store.get<CheckpointParams>(PARAMS_KEY) ?? DEFAULT_CHECKPOINT_PARAMS;
}

export function setCheckpointParams(store: KVStore, p: CheckpointParams): void {
  store.set(PARAMS_KEY, p);
}

export function getBuffer(store: KVReader): Checkpoint | undefined {
  const cp = store.get<Checkpoint>(BUFFER_KEY);
  if (cp !== undefined) assertRange(cp, 'the buffered checkpoint');
  return cp;
}

/** Buffer a checkpoint: the buffer is empty, and the checkpoint continues the last acked one. */
export function setBuffer(store: KVStore, cp: Checkpoint): void {
  assertRange(cp, 'a buffered checkpoint');
  assert(!store.has(BUFFER_KEY), 'a checkpoint is buffered only into an empty buffer', {
    startBlock: cp.startBlock,
  });
  const next = nextCheckpointStart(store);
  assert(cp.startBlock === next, 'a buffered checkpoint continues the last acked one', {
    startBlock: cp.startBlock,
    expected: next,
  });
  store.set(BUFFER_KEY, cp);
}

export function flushBuffer(store: KVStore): void {
  store.delete(BUFFER_KEY);
}

export function getCheckpoint(store: KVReader, n: bigint): Checkpoint | undefined {
  const cp = store.get<Checkpoint>(cpKey(n));
  if (cp !== undefined) assertRange(cp, `checkpoint ${n}`);
  return cp;
}

/** Store acked checkpoint `n` (before the ack count grows): once per number, continuing the last one. */
export function addCheckpoint(store: KVStore, n: bigint, cp: Checkpoint): void {
  assertRange(cp, `checkpoint ${n}`);
  assert(!store.has(cpKey(n)), 'a checkpoint number is acked once', { number: n });
  const next = nextCheckpointStart(store);
  assert(cp.startBlock === next, "an acked checkpoint's range continues the last one", {
    number: n,
    startBlock: cp.startBlock,
    expected: next,
  });
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
  const before = getLastNoAck(store);
  assert(seconds >= before, 'the last no-ack time only moves forward', { before, after: seconds });
  store.set(LAST_NO_ACK_KEY, seconds);
}
