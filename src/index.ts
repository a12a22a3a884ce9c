/**
 * Lockstep's library surface. These names are a public contract for people who script
 * experiments against the library: keep them stable. Hashes and addresses are lower-case `0x`
 * hex strings; byte inputs accept a Uint8Array or `0x` hex.
 */
import { type BytesLike, type Hex, toHex } from './core/bytes';
import { type Address } from './core/address';
import { keccak256Bytes } from './core/hash';
import { merkleRootBytes } from './core/merkle';
import { toBytes } from './core/bytes';
import {
  type DividendAccountFields,
  type SidechainHeaderFields,
  accountRootHashBytes,
  checkpointRootHashBytes,
  dividendAccountHashBytes,
  sidechainBlockHashBytes,
} from './core/hashRules';
import {
  addressOfPublicKey,
  publicKeyBytesFromPrivateKey,
  recoverPublicKeyBytes,
  signDigestBytes,
} from './core/secp256k1';

export type { Address, BytesLike, Hex, DividendAccountFields, SidechainHeaderFields };

export function keccak256(data: BytesLike): Hex {
  return toHex(keccak256Bytes(data));
}

/** 65-byte uncompressed public key `0x04…` of a 32-byte private key. */
export function publicKeyFromPrivateKey(sk: BytesLike): Hex {
  return toHex(publicKeyBytesFromPrivateKey(sk));
}

/** keccak256(pub[1:])[12:] of a 65-byte uncompressed public key. */
export function addressFromPublicKey(pub: BytesLike): Address {
  return addressOfPublicKey(pub);
}

/** 65-byte `r ‖ s ‖ v` signature (v ∈ {0,1}) over a 32-byte digest. */
export function signDigest(digest: BytesLike, sk: BytesLike): Hex {
  return toHex(signDigestBytes(digest, sk));
}

/** The 65-byte public key that produced `sig` over `digest`. */
export function recoverPublicKey(digest: BytesLike, sig: BytesLike): Hex {
  return toHex(recoverPublicKeyBytes(digest, sig));
}

/** Hash rule 1: the checkpoint leaf of one sidechain block. */
export function sidechainBlockHash(header: SidechainHeaderFields): Hex {
  return toHex(sidechainBlockHashBytes(header));
}

/** Hash rule 2's tree: keccak, unsorted, leaves not re-hashed, zero-padded to a power of two. */
export function merkleRoot(leaves: readonly BytesLike[]): Hex {
  return toHex(merkleRootBytes(leaves.map((l, i) => toBytes(l, `leaves[${i}]`, 32))));
}

/** Hash rule 2: the root over the headers' block hashes, headers in block order. */
export function checkpointRootHash(headers: readonly SidechainHeaderFields[]): Hex {
  return toHex(checkpointRootHashBytes(headers));
}

/** Hash rule 3. */
export function dividendAccountHash(account: DividendAccountFields): Hex {
  return toHex(dividendAccountHashBytes(account));
}

/** Hash rule 4: accounts ordered by validator id. */
export function accountRootHash(accounts: readonly DividendAccountFields[]): Hex {
  return toHex(accountRootHashBytes(accounts));
}

// --- the service state machine (issue: service modules) -------------------------------------

import { shuffleList as shuffleListImpl } from './modules/span/shuffle';
import { selectNextProducers as selectNextProducersImpl } from './modules/span/selection';

export { ValidatorSet } from './core/validatorSet';
export type { SetValidator } from './core/validatorSet';
export { createServiceApp, ServiceApp } from './app/serviceApp';
export type { TxResult, BeginBlockRequest, EndBlockResponse, CommitResponse, SideTxResult } from './app/blockResults';
export type { QueryAnswer } from './app/queryRouter';
export type { QueryOutcome, QueryFailureKind } from './modules/framework/query';
export { restQueryReply } from './rpc/rest/queryReply';
export type { QueryResponse } from './rpc/rest/queryReply';
export type {
  Observers,
  ParentChainObserver,
  SidechainObserver,
  ParentEvent,
  HeaderBlockRecord,
} from './modules/framework/observers';

/** The swap-or-not shuffle (SHA-256, 90 rounds) with a 32-byte seed; returns a new array. */
export function shuffleList<T>(list: readonly T[], seed: BytesLike): T[] {
  return shuffleListImpl(list, seed);
}

/**
 * The spec's producer selection: one slot per unit of power, shuffled with the first 32 bytes of
 * the parent-chain block hash, first `producerCount` slots. Ids come back as given (number or bigint).
 */
export function selectNextProducers<Id extends number | bigint>(
  blockHash: BytesLike,
  validators: ReadonlyArray<{ id: Id; power: bigint | number }>,
  producerCount: number,
): Id[] {
  const byId = new Map(validators.map((v) => [BigInt(v.id), v.id]));
  return selectNextProducersImpl(blockHash, validators, producerCount).map((id) => byId.get(id)!);
}

// --- the sidechain (issue: parent chain, bridge, sidechain) -----------------------------------

export { calcProducerDelay, sidechainDifficulty, stateSyncTxHash, sidechainRootHash } from './sidechain/index';
