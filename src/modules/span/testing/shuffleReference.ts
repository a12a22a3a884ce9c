/**
 * The swap-or-not shuffle by its plain per-index definition (eth2 `compute_shuffled_index`, the
 * form Heimdall's `bor/shuffle.go` optimises): the reference the service's optimised shuffle and
 * its inverse are tested against. Test-only: the service selects producers with
 * `computeUnshuffledIndices` and the library exports `shuffleList`, so none of this runs in a node.
 *
 * Semantics: `out[computeShuffledIndex(i, n, seed)] = in[i]`.
 */
import { type BytesLike, toBytes } from '../../../core/bytes';
import { sha256Bytes } from '../../../core/hash';
import { InputError } from '../../../core/errors';
import { SHUFFLE_ROUND_COUNT } from '../shuffle';

const SEED_SIZE = 32;

/** sha256(seed ‖ round): its first 8 bytes as a little-endian integer, modulo n. */
function pivot(seed: Uint8Array, round: number, n: number): number {
  const h = sha256Bytes(Uint8Array.of(...seed, round));
  return Number(new DataView(h.buffer, h.byteOffset, 8).getBigUint64(0, true) % BigInt(n));
}

/** sha256(seed ‖ round ‖ LE_u32(position / 256)). */
function source(seed: Uint8Array, round: number, position: number): Uint8Array {
  const block = new Uint8Array(4);
  new DataView(block.buffer).setUint32(0, Math.floor(position / 256), true);
  return sha256Bytes(Uint8Array.of(...seed, round, ...block));
}

function bitAt(seed: Uint8Array, round: number, position: number): number {
  return (source(seed, round, position)[(position & 0xff) >> 3]! >> (position & 7)) & 1;
}

/** Where the element at `index` of a list of `n` ends up: 90 rounds, three hashes each. */
export function computeShuffledIndex(index: number, n: number, seed: BytesLike): number {
  if (!Number.isSafeInteger(n) || n <= 0) throw new InputError('n', `must be a positive integer: ${n}`);
  if (!Number.isSafeInteger(index) || index < 0 || index >= n)
    throw new InputError('index', `out of range [0, ${n}): ${index}`);
  const s = toBytes(seed, 'seed', SEED_SIZE);
  for (let round = 0; round < SHUFFLE_ROUND_COUNT; round++) {
    const flip = (pivot(s, round, n) + n - index) % n;
    if (bitAt(s, round, Math.max(index, flip)) === 1) index = flip;
  }
  return index;
}

/**
 * The whole list by the per-index definition, `out[computeShuffledIndex(i)] = in[i]`, with each
 * round's pivot and source hashes computed once (O(90·n) steps), so lists of a few thousand run.
 */
export function shuffleListSimple<T>(list: readonly T[], seed: BytesLike): T[] {
  const s = toBytes(seed, 'seed', SEED_SIZE);
  const n = list.length;
  if (n <= 1) return list.slice();
  const pivots = Array.from({ length: SHUFFLE_ROUND_COUNT }, (_, round) => pivot(s, round, n));
  const sources = Array.from({ length: SHUFFLE_ROUND_COUNT }, () => new Map<number, Uint8Array>());
  const bit = (round: number, position: number): number => {
    const block = Math.floor(position / 256);
    let h = sources[round]!.get(block);
    if (h === undefined) {
      h = source(s, round, position);
      sources[round]!.set(block, h);
    }
    return (h[(position & 0xff) >> 3]! >> (position & 7)) & 1;
  };
  const out = new Array<T>(n);
  for (let i = 0; i < n; i++) {
    let index = i;
    for (let round = 0; round < SHUFFLE_ROUND_COUNT; round++) {
      const flip = (pivots[round]! + n - index) % n;
      if (bit(round, Math.max(index, flip)) === 1) index = flip;
    }
    out[index] = list[i]!;
  }
  return out;
}
