/**
 * Legacy producer selection (heimdall.md §1.4, Heimdall `XXXSelectNextProducers`), the algorithm
 * the product spec pins: one slot per `SLOT_COST` of voting power, the slot list shuffled with
 * the swap-or-not shuffle seeded by the first 32 bytes of a block hash, the first
 * `producerCount` slots taken. The same id may be taken several times; its span power is the
 * number of slots it won (`producersFromSelection`).
 */
import { type BytesLike, toBytes } from '../../core/bytes';
import { InputError } from '../../core/errors';
import { computeUnshuffledIndices } from './shuffle';

/** Heimdall `bor/types/params.go: SlotCost`: one slot per unit of voting power. */
export const SLOT_COST = 1n;

/** The slot list is materialised; beyond this the legacy algorithm is not practical. */
export const MAX_SLOTS = 1 << 30;

export interface SelectionCandidate {
  readonly id: bigint | number;
  readonly power: bigint | number;
}

function toBig(value: bigint | number, field: string): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  throw new InputError(field, `expected an integer, got ${typeof value === 'number' ? value : typeof value}`);
}

/**
 * Ids of the next producers, in slot order (may repeat). With `validators.length <= producerCount`
 * every id is returned once, in the given order, and no shuffle happens. The caller passes the
 * eligible validators in their canonical (signer address) order: the slot list follows it.
 */
export function selectNextProducers(
  blockHash: BytesLike,
  validators: ReadonlyArray<SelectionCandidate>,
  producerCount: number,
): bigint[] {
  const hash = toBytes(blockHash, 'blockHash');
  if (hash.length < 32) throw new InputError('blockHash', `expected at least 32 bytes, got ${hash.length}`);
  if (!Number.isSafeInteger(producerCount) || producerCount < 0) {
    throw new InputError('producerCount', `must be a non-negative integer: ${producerCount}`);
  }
  const ids = validators.map((v, i) => toBig(v.id, `validators[${i}].id`));
  const slotCounts = validators.map((v, i) => {
    const power = toBig(v.power, `validators[${i}].power`);
    if (power < 0n) throw new InputError(`validators[${i}].power`, `voting power value is negative: ${power}`);
    return power / SLOT_COST;
  });
  if (validators.length <= producerCount) return ids;

  let total = 0n;
  for (const c of slotCounts) total += c;
  if (total > BigInt(MAX_SLOTS))
    throw new InputError('validators', `too many slots for the legacy selection: ${total}`);

  // Only the first `producerCount` slots of the shuffled slot list are taken: find which input
  // slot lands at each of those positions (the shuffle's inverse, a few hashes per position)
  // instead of shuffling the whole list (one slot per unit of power), then map slots to ids.
  const n = Number(total);
  // Heimdall slices `[:producerCount]`; with fewer slots than that (only possible with
  // zero-power entries, never with eligible validators) we return all the slots.
  const take = Math.min(producerCount, n);
  if (take === 0) return [];
  const positions = Array.from({ length: take }, (_, i) => i);
  const inputSlots = n === 1 ? [0] : computeUnshuffledIndices(positions, n, hash.subarray(0, 32));
  // Slot k of the unshuffled list belongs to validator i when ends[i - 1] <= k < ends[i].
  const ends: number[] = [];
  let k = 0;
  for (const c of slotCounts) {
    k += Number(c);
    ends.push(k);
  }
  const out: bigint[] = [];
  for (const slot of inputSlots) {
    let lo = 0;
    let hi = ends.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid]! > slot) hi = mid;
      else lo = mid + 1;
    }
    out.push(ids[lo]!);
  }
  return out;
}

/**
 * Count the occurrences of each selected id: `{ id, power: count }` per distinct id, in the
 * order of `eligible` (the canonical signer-address order when the caller passes that).
 * Every selected id must be one of `eligible`.
 */
export function producersFromSelection(
  selectedIds: ReadonlyArray<bigint | number>,
  eligible: ReadonlyArray<{ readonly id: bigint | number }>,
): Array<{ id: bigint; power: bigint }> {
  const counts = new Map<bigint, bigint>();
  for (const [i, v] of eligible.entries()) counts.set(toBig(v.id, `eligible[${i}].id`), 0n);
  selectedIds.forEach((raw, i) => {
    const id = toBig(raw, `selectedIds[${i}]`);
    const c = counts.get(id);
    if (c === undefined) throw new InputError(`selectedIds[${i}]`, `validator id ${id} is not eligible`);
    counts.set(id, c + 1n);
  });
  const out: Array<{ id: bigint; power: bigint }> = [];
  for (const [id, power] of counts) if (power > 0n) out.push({ id, power });
  return out;
}
