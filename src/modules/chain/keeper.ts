/**
 * Chain-wide parameters (Heimdall's chainmanager): confirmation depths the side handlers demand and
 * the sidechain's chain id.
 */
import { type KVReader, type KVStore } from '../../store/kvStore';

export interface ChainParams {
  /** Parent-chain blocks on top of a log before it counts (MainchainTxConfirmations). */
  parentChainTxConfirmations: bigint;
  /** Sidechain blocks on top of a checkpoint's end block before it is verified (MaticchainTxConfirmations). */
  sidechainTxConfirmations: bigint;
  sidechainChainId: string;
}

export const DEFAULT_CHAIN_PARAMS: ChainParams = {
  parentChainTxConfirmations: 6n,
  sidechainTxConfirmations: 10n,
  sidechainChainId: '15001',
};

const KEY = 'chain/params';

export function getChainParams(store: KVReader): ChainParams {
  return store.get<ChainParams>(KEY) ?? DEFAULT_CHAIN_PARAMS;
}

export function setChainParams(store: KVStore, p: ChainParams): void {
  store.set(KEY, p);
}
