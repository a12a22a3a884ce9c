/**
 * geth's transaction object (`newRPCTransaction`, sidechain.md §4.3, §5 item 6) for the sidechain's
 * transactions. A transfer is written as the unsigned legacy transaction it stands for (gas
 * 21000, gas price 0, no data, v = r = s = 0: ethers accepts the zero signature). The state-sync
 * transaction is Bor's `NewBorTransaction` (everything zero, to the zero address) with its hash
 * replaced by the derived one and no chainId (`appendRPCMarshalBorTransaction`, §2.8).
 */
import { ZERO_ADDRESS } from '../../core/address';
import { TRANSFER_GAS } from '../../sidechain/block';
import { type SidechainTxEntry } from '../../sidechain/readPort';
import { toQuantity } from './quantity';

export interface TxPlacement {
  /** Null in the pending block. */
  blockHash: string | null;
  blockNumber: bigint;
}

export function transactionJson(entry: SidechainTxEntry, at: TxPlacement): Record<string, unknown> {
  const fields =
    entry.kind === 'transfer'
      ? { from: entry.tx.from, to: entry.tx.to, value: entry.tx.value, nonce: entry.tx.nonce, gas: TRANSFER_GAS }
      : { from: ZERO_ADDRESS, to: ZERO_ADDRESS, value: 0n, nonce: 0n, gas: 0n };
  return {
    blockHash: at.blockHash === null ? null : at.blockHash.toLowerCase(),
    blockNumber: toQuantity(at.blockNumber),
    from: fields.from.toLowerCase(),
    gas: toQuantity(fields.gas),
    gasPrice: '0x0',
    hash: entry.hash,
    input: '0x',
    nonce: toQuantity(fields.nonce),
    to: fields.to.toLowerCase(),
    transactionIndex: toQuantity(entry.index),
    value: toQuantity(fields.value),
    type: '0x0',
    v: '0x0',
    r: '0x0',
    s: '0x0',
  };
}
