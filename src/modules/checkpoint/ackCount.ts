/** The checkpoint ack count: read by staking (epochs) and written by the checkpoint module. */
import { type KVReader, type KVStore } from '../../store/kvStore';

const KEY = 'checkpoint/ack_count';

export function getAckCount(store: KVReader): bigint {
  return store.get<bigint>(KEY) ?? 0n;
}

export function setAckCount(store: KVStore, n: bigint): void {
  store.set(KEY, n);
}
