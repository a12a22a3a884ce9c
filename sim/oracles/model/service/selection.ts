/**
 * Producer selection for a span, written from the spec ("Producer selection for a span") and the
 * reference's legacy algorithm (heimdall.md §1.4-§1.5): the eligible validators (not leaving,
 * current at the next epoch, power > 0) in signer-address order; with at most producerCount of
 * them, all are taken with their real power; otherwise one slot per unit of power (SlotCost 1),
 * the slot list shuffled with the swap-or-not shuffle (SHA-256, 90 rounds, seeded with the first
 * 32 bytes of a parent-chain block hash), the first producerCount slots taken, and each id's span
 * power is the number of slots it won. Producers are listed in signer-address order.
 *
 * The shuffle moves the element at i to compute_shuffled_index(i) (the eth2 function); so the
 * slot that lands at position j is the one the rounds, run backwards, lead j to. Only the first
 * producerCount positions are needed, so only those are traced back.
 */
import { sha256Bytes } from '../../../../src/core/hash';
import { type ModelProducer, type ModelValidator } from './state';

const ROUNDS = 90;

function leUint64(b: Uint8Array): bigint {
  let v = 0n;
  for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(b[i]!);
  return v;
}

function withRound(seed: Uint8Array, round: number, extra?: number): Uint8Array {
  const out = new Uint8Array(32 + 1 + (extra === undefined ? 0 : 4));
  out.set(seed, 0);
  out[32] = round;
  if (extra !== undefined) {
    out[33] = extra & 0xff;
    out[34] = (extra >>> 8) & 0xff;
    out[35] = (extra >>> 16) & 0xff;
    out[36] = (extra >>> 24) & 0xff;
  }
  return out;
}

/** One round of the shuffle at `index` (an involution: the same step undoes itself). */
function roundStep(index: number, n: number, seed: Uint8Array, round: number, pivot: number): number {
  const flip = (pivot + n - index) % n;
  const position = Math.max(index, flip);
  const source = sha256Bytes(withRound(seed, round, Math.floor(position / 256)));
  const byte = source[(position % 256) >> 3]!;
  const bit = (byte >> (position % 8)) & 1;
  return bit ? flip : index;
}

function pivots(seed: Uint8Array, n: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < ROUNDS; r++) out.push(Number(leUint64(sha256Bytes(withRound(seed, r))) % BigInt(n)));
  return out;
}

/** compute_shuffled_index(i, n, seed): where the element at i ends up. */
export function shuffledIndex(i: number, n: number, seed: Uint8Array): number {
  const p = pivots(seed, n);
  let x = i;
  for (let r = 0; r < ROUNDS; r++) x = roundStep(x, n, seed, r, p[r]!);
  return x;
}

/** The input positions of the elements that land at `positions` after the shuffle. */
export function sourcesOf(positions: readonly number[], n: number, seed: Uint8Array): number[] {
  if (n <= 1) return positions.map(() => 0);
  const p = pivots(seed, n);
  return positions.map((j) => {
    let x = j;
    for (let r = ROUNDS - 1; r >= 0; r--) x = roundStep(x, n, seed, r, p[r]!);
    return x;
  });
}

/** The shuffled list itself (small lists; tests and vectors). */
export function shuffleList<T>(list: readonly T[], seed: Uint8Array): T[] {
  if (list.length <= 1) return [...list];
  const out = new Array<T>(list.length);
  for (let i = 0; i < list.length; i++) out[shuffledIndex(i, list.length, seed)] = list[i]!;
  return out;
}

/** Validators that may produce in the next span, by the state at `ackCount`. */
export function eligible(validators: readonly ModelValidator[], ackCount: bigint): ModelValidator[] {
  const epoch = ackCount + 1n;
  return validators
    .filter((v) => v.endEpoch === 0n && !v.jailed && v.startEpoch <= epoch && v.power > 0n)
    .sort((a, b) => (a.signer < b.signer ? -1 : a.signer > b.signer ? 1 : 0));
}

export function selectProducers(
  candidates: readonly ModelValidator[],
  seedHash: Uint8Array,
  producerCount: bigint,
): ModelProducer[] {
  if (BigInt(candidates.length) <= producerCount)
    return candidates.map((v) => ({ id: v.id, signer: v.signer, power: v.power }));
  const ends: number[] = [];
  let total = 0;
  for (const v of candidates) {
    total += Number(v.power);
    ends.push(total);
  }
  const take = Math.min(Number(producerCount), total);
  const positions = Array.from({ length: take }, (_, i) => i);
  const won = new Map<bigint, bigint>();
  for (const slot of sourcesOf(positions, total, seedHash.subarray(0, 32))) {
    let k = 0;
    while (ends[k]! <= slot) k++;
    const id = candidates[k]!.id;
    won.set(id, (won.get(id) ?? 0n) + 1n);
  }
  return candidates.filter((v) => won.has(v.id)).map((v) => ({ id: v.id, signer: v.signer, power: won.get(v.id)! }));
}
