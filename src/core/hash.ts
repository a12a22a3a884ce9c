/** keccak256 (legacy Keccak, as Ethereum uses) and sha256, from @noble/hashes. */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { type Bytes, type BytesLike, toBytes } from './bytes';

export function keccak256Bytes(data: BytesLike): Bytes {
  return keccak_256(toBytes(data, 'data'));
}

export function sha256Bytes(data: BytesLike): Bytes {
  return nobleSha256(toBytes(data, 'data'));
}

/** Incremental keccak256, for hashing long streams (the trace) without concatenating them. */
export function keccakHasher(): { update(data: Uint8Array): void; digest(): Bytes } {
  const h = keccak_256.create();
  return {
    update: (data) => void h.update(data),
    digest: () => h.digest(),
  };
}
