/** The chain params record. */
import { type KVReader, type KVStore } from '../../store/kvStore';
import { type ChainParams, DEFAULT_CHAIN_PARAMS } from './params';

const KEY = 'chain/params';

export function getChainParams(store: KVReader): ChainParams {
  return store.get<ChainParams>(KEY) ?? DEFAULT_CHAIN_PARAMS;
}

export function setChainParams(store: KVStore, p: ChainParams): void {
  store.set(KEY, p);
}
