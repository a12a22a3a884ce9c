/**
 * geth's transaction object (`newRPCTransaction`, sidechain.md §4.3, §5 item 6) for the sidechain's
 * transactions. A transfer is written as the signed transaction it is: its type, chain id, fee
 * fields (`gasPrice` for legacy; `maxFeePerGas`, `maxPriorityFeePerGas` and the effective
 * `gasPrice` in a block for EIP-1559), `v`, `r`, `s` as quantities (geth's `hexutil.Big`) and
 * `yParity` for EIP-1559, so a client can rebuild it and check its hash. A pending one has no block (null block hash, number and index).
 * The state-sync transaction is Bor's `NewBorTransaction` (everything zero, to the zero address)
 * with its hash replaced by the derived one and no chainId (`appendRPCMarshalBorTransaction`, §2.8).
 */
import { ZERO_ADDRESS } from '../../core/address';
import { effectiveGasPrice, type SignedTx } from '../../sidechain/transaction';
import { type SidechainTxEntry } from '../../sidechain/readPort';
import { toQuantity } from './quantity';

export interface TxPlacement {
  /** Null in the pending block. */
  blockHash: string | null;
  blockNumber: bigint;
  /** The block's base fee (EIP-1559's effective gas price depends on it). */
  baseFee?: bigint;
}

export function transactionJson(entry: SidechainTxEntry, at: TxPlacement): Record<string, unknown> {
  if (entry.kind === 'transfer') {
    return signedTxJson(entry.tx, {
      blockHash: at.blockHash === null ? null : at.blockHash.toLowerCase(),
      blockNumber: toQuantity(at.blockNumber),
      transactionIndex: toQuantity(entry.index),
      ...(at.baseFee !== undefined ? { baseFee: at.baseFee } : {}),
    });
  }
  return {
    blockHash: at.blockHash === null ? null : at.blockHash.toLowerCase(),
    blockNumber: toQuantity(at.blockNumber),
    from: ZERO_ADDRESS,
    gas: '0x0',
    gasPrice: '0x0',
    hash: entry.hash,
    input: '0x',
    nonce: '0x0',
    to: ZERO_ADDRESS,
    transactionIndex: toQuantity(entry.index),
    value: '0x0',
    type: '0x0',
    v: '0x0',
    r: '0x0',
    s: '0x0',
  };
}

/** A signed transfer as geth writes it, in a block (placement given) or pending (placement null). */
export function signedTxJson(
  tx: SignedTx,
  at: { blockHash: string | null; blockNumber: string | null; transactionIndex: string | null; baseFee?: bigint },
): Record<string, unknown> {
  const common = {
    blockHash: at.blockHash,
    blockNumber: at.blockNumber,
    from: tx.from,
    gas: toQuantity(tx.gasLimit),
  };
  const tail = {
    hash: tx.hash,
    input: '0x',
    nonce: toQuantity(tx.nonce),
    to: tx.to,
    transactionIndex: at.transactionIndex,
    value: toQuantity(tx.value),
    type: toQuantity(tx.type),
  };
  if (tx.type === 0)
    return {
      ...common,
      gasPrice: toQuantity(tx.maxFeePerGas),
      ...tail,
      chainId: toQuantity(tx.chainId),
      v: toQuantity(tx.v),
      r: toQuantity(BigInt(tx.r)),
      s: toQuantity(BigInt(tx.s)),
    };
  // geth: in a block, gasPrice is what the transaction paid; pending, its fee cap.
  const paid = at.baseFee === undefined ? null : effectiveGasPrice(tx, at.baseFee);
  return {
    ...common,
    gasPrice: toQuantity(paid ?? tx.maxFeePerGas),
    maxFeePerGas: toQuantity(tx.maxFeePerGas),
    maxPriorityFeePerGas: toQuantity(tx.maxPriorityFeePerGas),
    ...tail,
    accessList: [],
    chainId: toQuantity(tx.chainId),
    v: toQuantity(tx.v),
    r: toQuantity(BigInt(tx.r)),
    s: toQuantity(BigInt(tx.s)),
    yParity: toQuantity(tx.yParity),
  };
}
