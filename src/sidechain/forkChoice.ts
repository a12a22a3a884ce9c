/**
 * Fork choice (sidechain.md §3.1-§3.2, reference README item 28).
 *
 * The heaviest chain wins: total difficulty (TD) first, as the spec demands. Ties are broken the way
 * Bor breaks them, deterministically: the lower block number (reached the same weight sooner), then
 * the lexicographically larger hash.
 *
 * Bor's `preserve` step (keep a head the local node authored) is dropped on purpose. Self-preference
 * is what can deadlock a clique-style chain split evenly between two groups: each side keeps its own
 * equal-weight head forever, which is why geth's clique sets `shouldPreserve` to false. Without it
 * every node ranks the same heads the same way, so `compareHeads` is a total order that does not
 * depend on who is asking.
 *
 * Reorgs are also gated by a finality floor, the end block of the last checkpoint the node has
 * verified (Bor's whitelist `isValidChain`): no chain that disagrees with the floor is ever adopted.
 */
import { type Hex, compareBytes, fromHex } from '../core/bytes';
import { InputError } from '../core/errors';
import { isPlanted } from '../core/plants';

export interface HeadRef {
  /** Total difficulty: the sum of the difficulties from genesis through this block. */
  readonly td: bigint;
  readonly number: bigint;
  readonly hash: Hex;
}

/**
 * A comparator over heads: positive when `a` is preferred, negative when `b` is, 0 only for the same
 * (td, number, hash). Higher TD wins; on equal TD the lower number; on equal number the larger hash.
 */
export function compareHeads(a: HeadRef, b: HeadRef): -1 | 0 | 1 {
  if (isPlanted('fork-choice-length') && a.number !== b.number) return a.number > b.number ? 1 : -1;
  if (a.td !== b.td) return a.td > b.td ? 1 : -1;
  if (a.number !== b.number) return a.number < b.number ? 1 : -1;
  const c = compareBytes(fromHex(a.hash, 'a.hash'), fromHex(b.hash, 'b.hash'));
  if (isPlanted('fork-choice-tiebreak')) return c > 0 ? -1 : c < 0 ? 1 : 0;
  return c > 0 ? 1 : c < 0 ? -1 : 0;
}

/** Bor `ReorgNeeded(current, extern)` without `preserve`: switch only to a strictly preferred head. */
export function reorgNeeded(current: HeadRef, extern: HeadRef): boolean {
  return compareHeads(extern, current) > 0;
}

/** The preferred of two heads (the first one when they are the same head). */
export function preferredHead<T extends HeadRef>(a: T, b: T): T {
  return compareHeads(b, a) > 0 ? b : a;
}

// --- finality floor -----------------------------------------------------------------------------

export interface FinalityFloor {
  /** End block of the last checkpoint this node verified against its own chain. */
  readonly floorNumber: bigint;
  readonly floorHash: Hex;
}

/**
 * The core of the floor rule: a switch is allowed only if the new chain has the same block at the
 * floor height as the current one. Without a current block there (no floor yet) anything goes;
 * a new chain whose block there is unknown cannot be shown to agree, so it is refused.
 */
export function reorgAllowed(currentChainHashAtFloor: Hex | undefined, newChainHashAtFloor: Hex | undefined): boolean {
  if (currentChainHashAtFloor === undefined) return true;
  if (newChainHashAtFloor === undefined) return false;
  return currentChainHashAtFloor.toLowerCase() === newChainHashAtFloor.toLowerCase();
}

/**
 * Bor's whitelist `isValidChain` for a candidate chain (its canonical hash by number through
 * `newChain`, its head at `newHeadNumber`):
 * - no floor: valid;
 * - the candidate ends below the floor: valid only if our own head is below it too (Bor:
 *   `current.number < entry.number`). Omit `currentHeadNumber` when the floor was verified on the
 *   node's own chain, which is always at least that high: the candidate is then refused;
 * - otherwise the candidate must carry the floor block itself.
 * `newChain` must answer by walking the candidate's parents (Bor PR #1764), so that a fork joining
 * below the floor cannot slip past; a height it cannot answer counts as disagreement.
 */
export function isValidReorg(
  floor: FinalityFloor | undefined,
  newChain: (number: bigint) => Hex | undefined,
  newHeadNumber: bigint,
  currentHeadNumber?: bigint,
): boolean {
  if (floor === undefined) return true;
  if (typeof floor.floorNumber !== 'bigint' || floor.floorNumber < 0n)
    throw new InputError('floor.floorNumber', `expected a non-negative bigint, got ${String(floor.floorNumber)}`);
  if (newHeadNumber < floor.floorNumber)
    return currentHeadNumber !== undefined && currentHeadNumber < floor.floorNumber;
  return reorgAllowed(floor.floorHash, newChain(floor.floorNumber));
}
