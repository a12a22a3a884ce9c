/**
 * The oracles' own checkpoint hashes, from the spec's hash rules 1-4 and the reference's gaps
 * (README items 11-13, sidechain.md §4.2, heimdall.md §3.5):
 * - a sidechain block's leaf: keccak256(pad32(number) ‖ pad32(time) ‖ txHash ‖ receiptHash);
 * - a dividend account's leaf: keccak256(pad32(id) ‖ pad32(feeAmount) ‖ pad32(slashedAmount));
 * - a root: leaves padded with zero leaves to the next power of two, parent = keccak256(left ‖
 *   right), no sorting, leaves not hashed again; one leaf is its own root; no leaf, a zero root.
 * Only keccak and hex conversion come from src/core; checked against the public vectors.
 */
import { keccak256Raw } from '../../../src/core/hash';
import { fromHex, toHex, type Hex } from '../../../src/core/bytes';

/** Big-endian, left-padded to 32 bytes. */
export function pad32(v: bigint): Uint8Array {
  if (v < 0n || v >= 1n << 256n) throw new Error(`pad32: ${v} does not fit 32 bytes`);
  const out = new Uint8Array(32);
  let x = v;
  for (let i = 31; i >= 0 && x > 0n; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

function cat(parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function blockLeaf(b: { number: bigint; time: bigint; txHash: Hex; receiptHash: Hex }): Uint8Array {
  return keccak256Raw(cat([pad32(b.number), pad32(b.time), fromHex(b.txHash), fromHex(b.receiptHash)]));
}

export function accountLeaf(a: { id: bigint; feeAmount: bigint; slashedAmount: bigint }): Uint8Array {
  return keccak256Raw(cat([pad32(a.id), pad32(a.feeAmount), pad32(a.slashedAmount)]));
}

export function merkleRoot(leaves: readonly Uint8Array[]): Hex {
  if (leaves.length === 0) return toHex(new Uint8Array(32));
  let size = 1;
  while (size < leaves.length) size *= 2;
  let level: Uint8Array[] = [];
  for (let i = 0; i < size; i++) level.push(leaves[i] ?? new Uint8Array(32));
  while (level.length > 1) {
    const up: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) up.push(keccak256Raw(cat([level[i]!, level[i + 1]!])));
    level = up;
  }
  return toHex(level[0]!);
}
