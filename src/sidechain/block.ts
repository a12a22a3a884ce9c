/**
 * A sidechain block: the sealed header plus a body carrying the sprint-start system-call inputs
 * (the span to commit and the state-sync records) and user transactions. The system-call inputs
 * travel in the body so that every importer re-executes the same calls deterministically; they are
 * not part of the transaction and receipt roots (pre-PIP-74 Bor, reference §2.8).
 */
import { weakMemo } from '../core/memo';
import { type Address } from '../core/address';
import { type Hex, toHex, utf8 } from '../core/bytes';
import { canonicalJson } from '../core/canonicalJson';
import { keccak256Bytes } from '../core/hash';
import { type SidechainHeader } from './header';
import { type CommittedSpan, type StateSyncRecord } from './systemState';

export const EMPTY_ROOT: Hex = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';

/** A user transfer (the workload's sidechain traffic); no EVM is modelled. */
export interface SidechainTx {
  from: Address;
  to: Address;
  value: bigint;
  nonce: bigint;
}

export interface SidechainBody {
  spanCommit: CommittedSpan | null;
  stateSyncs: StateSyncRecord[];
  txs: SidechainTx[];
}

export interface SidechainBlock {
  header: SidechainHeader;
  hash: Hex;
  /** Recovered from the seal (zero address for genesis). */
  signer: Address;
  body: SidechainBody;
}

export const EMPTY_BODY: SidechainBody = { spanCommit: null, stateSyncs: [], txs: [] };

/** Gas a user transfer uses: 21,000, a plain value transfer's cost on Ethereum. */
export const TRANSFER_GAS = 21_000n;

// Transfers are immutable values shared by every node that imports their block: hashed once.
const txHashes = weakMemo<SidechainTx, Hex>('sidechain.txHashes');

/**
 * A transfer's hash: keccak256 of the canonical JSON of {from, to, value, nonce}. No EVM
 * transaction encoding is modelled, so the hash names the transfer's fields rather than RLP bytes.
 */
export function sidechainTxHash(tx: SidechainTx): Hex {
  return txHashes.getOrCompute(tx, () =>
    toHex(keccak256Bytes(utf8(canonicalJson({ from: tx.from, to: tx.to, value: tx.value, nonce: tx.nonce })))),
  );
}

// A block's tx list is an immutable value that its producer and every importer hash: the roots
// are cached by the list's identity.
const txRoots = weakMemo<readonly SidechainTx[], Hex>('sidechain.txRoots');
const receiptRoots = weakMemo<readonly SidechainTx[], Hex>('sidechain.receiptRoots');

export function txRoot(txs: readonly SidechainTx[]): Hex {
  if (txs.length === 0) return EMPTY_ROOT;
  let root = txRoots.get(txs);
  if (root === undefined) {
    root = toHex(keccak256Bytes(utf8(canonicalJson({ txs }))));
    txRoots.set(txs, root);
  }
  return root;
}

export function receiptRoot(txs: readonly SidechainTx[]): Hex {
  if (txs.length === 0) return EMPTY_ROOT;
  let root = receiptRoots.get(txs);
  if (root === undefined) {
    root = toHex(
      keccak256Bytes(utf8(canonicalJson({ receipts: txs.map((t) => ({ status: 1, from: t.from, nonce: t.nonce })) }))),
    );
    receiptRoots.set(txs, root);
  }
  return root;
}
