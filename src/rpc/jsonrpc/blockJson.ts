/**
 * geth's block and header objects for a Bor block (sidechain.md §4.3, §5 item 5).
 *
 * `blockJson` is `RPCMarshalBlock` without `totalDifficulty` (Bor v2.x), with the state-sync
 * transaction appended when the block committed state syncs (§2.8). `pending` blanks hash, nonce
 * and miner as geth does; it has no state-sync transaction (its hash derives from the block hash).
 * `headerJson` is `types.Header`'s own JSON, which geth sends to `newHeads` subscribers.
 */
import { type BlockActivity, type StoredBlock } from '../../sidechain/readPort';
import { type SidechainHeader } from '../../sidechain/header';
import { blockSize } from './blockSize';
import { toQuantity } from './quantity';
import { transactionJson } from './transactionJson';

const lower = (h: string): string => h.toLowerCase();

export function blockJson(
  stored: StoredBlock,
  activity: BlockActivity,
  fullTx: boolean,
  pending = false,
): Record<string, unknown> {
  const { header, hash, body } = stored.block;
  const at = {
    blockHash: pending ? null : lower(hash),
    blockNumber: header.number,
    ...(header.baseFee !== undefined ? { baseFee: header.baseFee } : {}),
  };
  const txs = activity.txs
    .filter((t) => !pending || t.kind === 'transfer')
    .map((t) => (fullTx ? transactionJson(t, at) : t.hash));
  const out: Record<string, unknown> = {
    number: toQuantity(header.number),
    hash: at.blockHash,
    parentHash: lower(header.parentHash),
    nonce: pending ? null : lower(header.nonce),
    mixHash: lower(header.mixDigest),
    sha3Uncles: lower(header.uncleHash),
    logsBloom: lower(header.bloom),
    stateRoot: lower(header.stateRoot),
    miner: pending ? null : lower(header.coinbase),
    difficulty: toQuantity(header.difficulty),
    extraData: lower(header.extraData),
    gasLimit: toQuantity(header.gasLimit),
    gasUsed: toQuantity(header.gasUsed),
    timestamp: toQuantity(header.time),
    transactionsRoot: lower(header.txHash),
    receiptsRoot: lower(header.receiptHash),
  };
  if (header.baseFee !== undefined) out.baseFeePerGas = toQuantity(header.baseFee);
  out.size = toQuantity(blockSize(header, body.txs));
  out.transactions = txs;
  out.uncles = [];
  return out;
}

/** `types.Header.MarshalJSON`: every field, the absent optional ones as null, and the hash last. */
export function headerJson(header: SidechainHeader, hash: string): Record<string, unknown> {
  return {
    parentHash: lower(header.parentHash),
    sha3Uncles: lower(header.uncleHash),
    miner: lower(header.coinbase),
    stateRoot: lower(header.stateRoot),
    transactionsRoot: lower(header.txHash),
    receiptsRoot: lower(header.receiptHash),
    logsBloom: lower(header.bloom),
    difficulty: toQuantity(header.difficulty),
    number: toQuantity(header.number),
    gasLimit: toQuantity(header.gasLimit),
    gasUsed: toQuantity(header.gasUsed),
    timestamp: toQuantity(header.time),
    extraData: lower(header.extraData),
    mixHash: lower(header.mixDigest),
    nonce: lower(header.nonce),
    baseFeePerGas: header.baseFee === undefined ? null : toQuantity(header.baseFee),
    withdrawalsRoot: null,
    blobGasUsed: null,
    excessBlobGas: null,
    parentBeaconBlockRoot: null,
    requestsHash: null,
    hash: lower(hash),
  };
}
