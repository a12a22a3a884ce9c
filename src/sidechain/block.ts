/**
 * A sidechain block: the sealed header plus a body carrying the sprint-start system-call inputs
 * (the span to commit and the state-sync records), the balance overrides a devnet's operator asked
 * for (`anvil_setBalance`), and the signed user transactions. The system-call inputs and overrides
 * travel in the body so that every importer re-executes the same calls deterministically; they are
 * not part of the transaction and receipt roots (pre-PIP-74 Bor, reference §2.8).
 *
 * The roots commit to the transactions and their receipts as lists (keccak256 of the RLP list of
 * the signed encodings, and of the receipts' consensus encodings), not as Merkle-Patricia tries:
 * nothing on the sidechain proves one transaction's inclusion, and any change moves the root.
 */
import { toBeArray } from 'ethers';
import { weakMemo } from '../core/memo';
import { type Address } from '../core/address';
import { type Hex, concatBytes, fromHex, toHex } from '../core/bytes';
import { keccak256Bytes } from '../core/hash';
import { rlpEncode } from '../core/rlp';
import { EMPTY_BLOOM, type SidechainHeader } from './header';
import { logsBloom } from './logsBloom';
import { type CommittedSpan, type StateSyncRecord } from './systemState';
import { type SignedTx } from './transaction';
import { type BalanceOverride } from './accounts';
import { type TxOutcome } from './transfers';

export { TRANSFER_GAS } from './transaction';

export const EMPTY_ROOT: Hex = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';

export type { BalanceOverride } from './accounts';

export interface SidechainBody {
  spanCommit: CommittedSpan | null;
  stateSyncs: StateSyncRecord[];
  /** Balance overrides (a devnet's operator input); empty on any chain that has none. */
  balances: readonly BalanceOverride[];
  txs: readonly SignedTx[];
}

export interface SidechainBlock {
  header: SidechainHeader;
  hash: Hex;
  /** Recovered from the seal (zero address for genesis). */
  signer: Address;
  body: SidechainBody;
}

export const EMPTY_BODY: SidechainBody = { spanCommit: null, stateSyncs: [], balances: [], txs: [] };

// A block's tx list is an immutable value that its producer and every importer hash: the roots
// are cached by the list's identity.
const txRoots = weakMemo<readonly SignedTx[], Hex>('sidechain.txRoots');

export function txRoot(txs: readonly SignedTx[]): Hex {
  if (txs.length === 0) return EMPTY_ROOT;
  return txRoots.getOrCompute(txs, () => toHex(keccak256Bytes(rlpEncode(txs.map((t) => fromHex(t.raw))))));
}

/** A receipt's consensus encoding: rlp([status, cumulativeGasUsed, bloom, logs]), typed ones prefixed. */
function receiptEncoding(type: number, cumulativeGasUsed: bigint, outcome: TxOutcome): Uint8Array {
  const body = rlpEncode([
    toBeArray(1n),
    toBeArray(cumulativeGasUsed),
    fromHex(logsBloom(outcome.logs)),
    outcome.logs.map((l) => [fromHex(l.address), l.topics.map((t) => fromHex(t)), fromHex(l.data)]),
  ]);
  return type === 0 ? body : concatBytes(new Uint8Array([type]), body);
}

export function receiptRoot(txs: readonly SignedTx[], outcomes: readonly TxOutcome[]): Hex {
  if (txs.length === 0) return EMPTY_ROOT;
  let cumulative = 0n;
  const encoded = txs.map((t, i) => {
    cumulative += outcomes[i]!.gasUsed;
    return receiptEncoding(t.type, cumulative, outcomes[i]!);
  });
  return toHex(keccak256Bytes(rlpEncode(encoded)));
}

/** The header's bloom: every log of the block's transactions (the state-sync logs are not in it, as in Bor). */
export function blockBloom(outcomes: readonly TxOutcome[]): Hex {
  const logs = outcomes.flatMap((o) => o.logs);
  return logs.length === 0 ? EMPTY_BLOOM : logsBloom(logs);
}
