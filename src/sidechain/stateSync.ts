/**
 * The derived hash of the state-sync pseudo-transaction (sidechain.md §2.8, reference README item 30).
 *
 * State-sync records are committed by system calls, which are not transactions, so their logs sit in
 * no user receipt. Bor gathers them into one extra receipt per sprint-start block and names it by a
 * hash derived from the block alone: keccak256("matic-bor-receipt-" ‖ u64be(number) ‖ blockHash).
 * It is not keccak(rlp(tx)) (bor issue #411), and it is in no header root.
 */
import { type Bytes, type BytesLike, type Hex, concatBytes, toBytes, toHex, u64be, utf8 } from '../core/bytes';
import { parseUint64 } from '../core/amount';
import { keccak256Bytes } from '../core/hash';

const BOR_RECEIPT_PREFIX = utf8('matic-bor-receipt-');

/** Bor `BorReceiptKey`: 18 + 8 + 32 = 58 bytes (also the key its receipt is stored under). */
export function borReceiptKey(number: bigint | number, blockHash: BytesLike): Bytes {
  return concatBytes(BOR_RECEIPT_PREFIX, u64be(parseUint64(number, 'number')), toBytes(blockHash, 'blockHash', 32));
}

export function stateSyncTxHashBytes(number: bigint | number, blockHash: BytesLike): Bytes {
  return keccak256Bytes(borReceiptKey(number, blockHash));
}

export function stateSyncTxHash(number: bigint | number, blockHash: BytesLike): Hex {
  return toHex(stateSyncTxHashBytes(number, blockHash));
}
