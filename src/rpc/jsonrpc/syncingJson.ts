/** geth's `eth_syncing` object (sidechain.md §4.3): hex quantities, the snap-sync counters at zero. */
import { type SidechainView } from '../ports';
import { toQuantity } from './quantity';

export function syncingJson(s: NonNullable<SidechainView['syncing']>): Record<string, string> {
  return {
    startingBlock: toQuantity(s.startingBlock),
    currentBlock: toQuantity(s.currentBlock),
    highestBlock: toQuantity(s.highestBlock),
    syncedAccounts: '0x0',
    syncedAccountBytes: '0x0',
    syncedBytecodes: '0x0',
    syncedBytecodeBytes: '0x0',
    syncedStorage: '0x0',
    syncedStorageBytes: '0x0',
    healedTrienodes: '0x0',
    healedTrienodeBytes: '0x0',
    healedBytecodes: '0x0',
    healedBytecodeBytes: '0x0',
    healingTrienodes: '0x0',
    healingBytecode: '0x0',
    txIndexFinishedBlocks: '0x0',
    txIndexRemainingBlocks: '0x0',
  };
}
