/**
 * Swap-or-not shuffle of the legacy producer selection (heimdall.md §1.4; Heimdall `bor/shuffle.go`,
 * ported from prysm / protolambda's eth2-shuffle): SHA-256, 90 rounds.
 *
 * Semantics: `out[computeShuffledIndex(i, n, seed)] = in[i]` — the element at position i moves to
 * position perm(i), which is what the in-place round loop does when it runs the rounds forwards.
 * `shuffleList` is that optimised loop (one hash per 256 positions per round); the per-index
 * definition it is tested against is a test fixture (testing/shuffleReference.ts), since no node
 * runs it.
 */
import { type BytesLike, toBytes } from '../../core/bytes';
import { sha256Bytes } from '../../core/hash';
import { InputError } from '../../core/errors';

export const SHUFFLE_ROUND_COUNT = 90;

const SEED_SIZE = 32;
/** seed ‖ round: the pivot hash input. */
const PIVOT_VIEW_SIZE = SEED_SIZE + 1;
/** seed ‖ round ‖ LE_u32(position >> 8): the source hash input. */
const TOTAL_SIZE = PIVOT_VIEW_SIZE + 4;

/** Writable array-like (a plain array or a typed array) that the in-place loop permutes. */
export interface MutableList<T> {
  readonly length: number;
  [index: number]: T;
}

function seedBytes(seed: BytesLike): Uint8Array {
  return toBytes(seed, 'seed', SEED_SIZE);
}

/** LE uint64 of the first 8 bytes of `hash`, modulo n. */
function pivotOf(buf: Uint8Array, n: number): number {
  const h = sha256Bytes(buf.subarray(0, PIVOT_VIEW_SIZE));
  const v = new DataView(h.buffer, h.byteOffset, 8).getBigUint64(0, true);
  return Number(v % BigInt(n));
}

function setPositionBlock(view: DataView, position: number): void {
  // position < 2^40 (Heimdall's limit), so position >> 8 fits in a uint32; avoid 32-bit `>>`.
  view.setUint32(PIVOT_VIEW_SIZE, Math.floor(position / 256), true);
}

/** Shuffle `list` in place (what Heimdall's `ShuffleList` does); returns it. */
export function shuffleInPlace<L extends MutableList<unknown>>(list: L, seed: BytesLike): L {
  const n = list.length;
  const buf = new Uint8Array(TOTAL_SIZE);
  buf.set(seedBytes(seed), 0);
  if (n <= 1) return list;
  const view = new DataView(buf.buffer);
  for (let round = 0; round < SHUFFLE_ROUND_COUNT; round++) {
    buf[SEED_SIZE] = round;
    const pivot = pivotOf(buf, n);
    // Part 1: positions [0, pivot], pairs (i, pivot - i) mirrored around pivot / 2.
    // Part 2: positions (pivot, n), pairs (i, pivot + n - i) mirrored around (pivot + n) / 2.
    // Each pair is decided by the bit of j, its larger index; j walks down, so one hash serves
    // 256 consecutive j and one byte serves 8.
    swapPairs(list, buf, view, 0, pivot, Math.floor((pivot + 1) / 2));
    swapPairs(list, buf, view, pivot + 1, n - 1, Math.floor((pivot + n + 1) / 2));
  }
  return list;
}

function swapPairs(
  list: MutableList<unknown>,
  buf: Uint8Array,
  view: DataView,
  iStart: number,
  jStart: number,
  mirror: number,
): void {
  if (iStart >= mirror) return;
  setPositionBlock(view, jStart);
  let source = sha256Bytes(buf);
  let byte = source[(jStart & 0xff) >> 3]!;
  for (let i = iStart, j = jStart; i < mirror; i++, j--) {
    if ((j & 0xff) === 0xff) {
      setPositionBlock(view, j);
      source = sha256Bytes(buf);
    }
    if ((j & 0x7) === 0x7) byte = source[(j & 0xff) >> 3]!;
    if (((byte >> (j & 0x7)) & 1) === 1) {
      const t = list[i];
      list[i] = list[j];
      list[j] = t;
    }
  }
}

/**
 * Heimdall's `ShuffleList` on a copy: returns a new array, the input is not touched.
 * Lists of length ≤ 1 come back (copied) unchanged. `seed` must be exactly 32 bytes.
 */
export function shuffleList<T>(list: readonly T[], seed: BytesLike): T[] {
  return shuffleInPlace(list.slice(), seed);
}

/**
 * The inverse of `computeShuffledIndex` for several positions: for each `positions[k]`, the input
 * index whose element `shuffleList` puts there, i.e. `shuffleList(list, seed)[p] =
 * list[computeUnshuffledIndices([p], n, seed)[0]]`. Each swap-or-not round is an involution, so
 * the inverse runs the same rounds backwards. O(90 · (1 + positions)) hashes, independent of n:
 * what producer selection needs (the first few slots of a list of one slot per unit of power).
 */
export function computeUnshuffledIndices(positions: readonly number[], n: number, seed: BytesLike): number[] {
  if (!Number.isSafeInteger(n) || n <= 0) throw new InputError('n', `must be a positive integer: ${n}`);
  positions.forEach((p, k) => {
    if (!Number.isSafeInteger(p) || p < 0 || p >= n)
      throw new InputError(`positions[${k}]`, `out of range [0, ${n}): ${p}`);
  });
  const buf = new Uint8Array(TOTAL_SIZE);
  buf.set(seedBytes(seed), 0);
  const view = new DataView(buf.buffer);
  const pivots: number[] = [];
  for (let round = 0; round < SHUFFLE_ROUND_COUNT; round++) {
    buf[SEED_SIZE] = round;
    pivots.push(pivotOf(buf, n));
  }
  return positions.map((p) => {
    let index = p;
    for (let round = SHUFFLE_ROUND_COUNT - 1; round >= 0; round--) {
      buf[SEED_SIZE] = round;
      const flip = (pivots[round]! + n - index) % n;
      const position = Math.max(index, flip);
      setPositionBlock(view, position);
      const source = sha256Bytes(buf);
      if (((source[(position & 0xff) >> 3]! >> (position & 7)) & 1) === 1) index = flip;
    }
    return index;
  });
}
