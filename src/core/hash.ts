/**
 * keccak256 (legacy Keccak, as Ethereum uses) and sha256.
 *
 * keccak runs in hash-wasm's WebAssembly build: some 9x faster than @noble/hashes' JavaScript
 * for the 32-1,000-byte inputs a simulation hashes hundreds of thousands of times per simulated
 * hour (votes, blocks, headers, store buckets). One instance serves the whole thread: a call
 * runs init-update-digest without yielding, so calls never interleave. sha256 is node:crypto.
 */
import { createHash } from 'node:crypto';
import { createKeccak } from 'hash-wasm';
import { type Bytes, type BytesLike, toBytes } from './bytes';

const wasmKeccak = await createKeccak(256);

/** keccak256 of bytes (the hot path: no conversion). */
export function keccak256Raw(data: Uint8Array): Bytes {
  wasmKeccak.init();
  wasmKeccak.update(data);
  return wasmKeccak.digest('binary');
}

export function keccak256Bytes(data: BytesLike): Bytes {
  return keccak256Raw(toBytes(data, 'data'));
}

export function sha256Bytes(data: BytesLike): Bytes {
  return new Uint8Array(createHash('sha256').update(toBytes(data, 'data')).digest());
}
