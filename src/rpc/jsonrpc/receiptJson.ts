/**
 * geth's receipt and log objects (`marshalReceipt`, `types.Log`; sidechain.md §4.3, §5 item 7).
 *
 * The state-sync receipt is written as Bor writes it (`marshalReceipt` with `borTx`): the derived
 * hash, from and to the zero address (its pseudo-transaction is unsigned and addressed to zero),
 * no gas, effective gas price 0, status 1, and its bloom computed from its logs (Bor recomputes the
 * bloom when it reads the stored receipt).
 */
import { type SidechainLog, type SidechainReceipt } from '../../sidechain/readPort';
import { logsBloom } from '../../sidechain/logsBloom';
import { toQuantity } from './quantity';

export function logJson(log: SidechainLog, removed = false): Record<string, unknown> {
  return {
    address: log.address.toLowerCase(),
    topics: [...log.topics],
    data: log.data,
    blockNumber: toQuantity(log.blockNumber),
    transactionHash: log.txHash,
    transactionIndex: toQuantity(log.txIndex),
    blockHash: log.blockHash,
    logIndex: toQuantity(log.logIndex),
    removed,
  };
}

export function receiptJson(r: SidechainReceipt): Record<string, unknown> {
  return {
    blockHash: r.blockHash,
    blockNumber: toQuantity(r.blockNumber),
    transactionHash: r.txHash,
    transactionIndex: toQuantity(r.txIndex),
    from: r.from.toLowerCase(),
    to: r.to.toLowerCase(),
    gasUsed: toQuantity(r.gasUsed),
    cumulativeGasUsed: toQuantity(r.cumulativeGasUsed),
    contractAddress: null,
    logs: r.logs.map((l) => logJson(l)),
    logsBloom: logsBloom(r.logs),
    type: toQuantity(r.type),
    effectiveGasPrice: toQuantity(r.effectiveGasPrice),
    status: toQuantity(r.status),
  };
}
