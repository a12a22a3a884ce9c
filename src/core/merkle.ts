/**
 * The Merkle tree of the spec's hash rules 2 and 4 (Bor's go-merkle with DisableHashLeaves and no
 * hash sorting): keccak256 nodes `keccak(left ‖ right)`, leaves used as given (not re-hashed),
 * padded with 32-byte zero leaves up to the next power of two. One leaf: the root is that leaf.
 * Zero leaves: one zero leaf, so the root is 32 zero bytes.
 */
import { keccak256Raw as keccak_256 } from './hash';
import { type Bytes } from './bytes';
import { assert } from './errors';

export function nextPowerOfTwo(n: number): number {
  if (n <= 1) return 1;
  return 2 ** Math.ceil(Math.log2(n));
}

export function merkleRootBytes(leaves: readonly Uint8Array[]): Bytes {
  for (const [i, leaf] of leaves.entries())
    assert(leaf.length === 32, 'merkle leaf must be 32 bytes', { index: i, length: leaf.length });
  const width = nextPowerOfTwo(leaves.length);
  let level: Uint8Array[] = new Array(width);
  for (let i = 0; i < width; i++) level[i] = leaves[i] ?? new Uint8Array(32);
  const buf = new Uint8Array(64);
  while (level.length > 1) {
    const next: Uint8Array[] = new Array(level.length / 2);
    for (let i = 0; i < next.length; i++) {
      buf.set(level[2 * i]!, 0);
      buf.set(level[2 * i + 1]!, 32);
      next[i] = keccak_256(buf);
    }
    level = next;
  }
  return Uint8Array.from(level[0]!);
}
