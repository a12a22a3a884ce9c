/**
 * The derived hash of the state-sync pseudo-transaction (sidechain.md §2.8, reference README item 30).
 *
 * State-sync records are committed by system calls, which are not transactions, so their logs sit in
 * no user receipt. Bor gathers them into one extra receipt per sprint-start block and names it by a
 * hash derived from the block alone: keccak256("matic-bor-receipt-" ‖ u64be(number) ‖ blockHash).
 * It is not keccak(rlp(tx)) (bor issue #411), and it is in no header root.
 *
 * The logs that receipt carries are the StateReceiver's `StateCommitted` events, one per record.
 */
import { AbiCoder, id, toBeHex } from 'ethers';
import { type Address } from '../core/address';
import { type Bytes, type BytesLike, type Hex, concatBytes, toBytes, toHex, u64be, utf8 } from '../core/bytes';
import { InputError } from '../core/errors';
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

/** Bor's StateReceiver genesis contract (sidechain.md §2.1, `stateReceiverContract`). */
export const STATE_RECEIVER_ADDRESS: Address = '0x0000000000000000000000000000000000001001';

/** topic0 of the StateReceiver's `StateCommitted(uint256 indexed stateId, bool success)`. */
export const STATE_COMMITTED_TOPIC: Hex = id('StateCommitted(uint256,bool)') as Hex;

/** What one log says, before the block places it (address, topics, data). */
export interface LogContent {
  address: Address;
  topics: readonly Hex[];
  data: Hex;
}

const abi = AbiCoder.defaultAbiCoder();

/**
 * The log `StateReceiver.commitState` emits for one record (sidechain.md §2.7):
 * `StateCommitted(stateId, success)`, the id as the indexed topic and `success` ABI-encoded as data.
 */
export function stateCommittedLog(stateId: bigint, success: boolean): LogContent {
  return {
    address: STATE_RECEIVER_ADDRESS,
    topics: [STATE_COMMITTED_TOPIC, toBeHex(parseUint256(stateId), 32) as Hex],
    data: abi.encode(['bool'], [success]) as Hex,
  };
}

function parseUint256(n: bigint): bigint {
  if (typeof n !== 'bigint' || n < 0n || n >= 1n << 256n)
    throw new InputError('stateId', `not a uint256: ${String(n)}`);
  return n;
}
