/**
 * Bor's own JSON shapes for the `sidechain_*` methods (sidechain.md §4.1): validators with plain
 * JSON numbers (Go int64/uint64 struct fields), snapshots, and the proposer sequence.
 */
import { type SetValidator } from '../../core/validatorSet';
import { type Snapshot, snapshotSuccession } from '../../sidechain/snapshot';

const lower = (h: string): string => h.toLowerCase();

/** Bor's `Validator` JSON: {ID, signer, power, accum}. */
export function validatorJson(v: SetValidator): { ID: number; signer: string; power: number; accum: number } {
  return {
    ID: Number(v.id ?? 0n),
    signer: lower(v.address),
    power: Number(v.power),
    accum: Number(v.proposerPriority),
  };
}

export function snapshotJson(s: Snapshot): Record<string, unknown> {
  const recents: Record<string, string> = {};
  const entries = [...s.recents.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (const [k, a] of entries) recents[k.toString()] = lower(a);
  return {
    number: Number(s.number),
    hash: lower(s.hash),
    validatorSet: {
      validators: s.validatorSet.validators.map(validatorJson),
      proposer: validatorJson(s.validatorSet.proposer),
    },
    recents,
  };
}

/** The producers a snapshot allows, in address order (`sidechain_getSigners`). */
export const signersJson = (s: Snapshot): string[] => s.validatorSet.validators.map((v) => lower(v.address));

/**
 * Bor `GetSnapshotProposerSequence`: each producer's difficulty in the snapshot the block was
 * checked against (its parent's), highest first, and the author's.
 */
export function proposerSequenceJson(parentSnapshot: Snapshot, author: string): Record<string, unknown> {
  const size = parentSnapshot.validatorSet.size;
  const signers = signersJson(parentSnapshot).map((a) => ({
    Signer: a,
    Difficulty: size - snapshotSuccession(parentSnapshot, a),
  }));
  signers.sort((x, y) => y.Difficulty - x.Difficulty);
  return { Signers: signers, Diff: signers.find((s) => s.Signer === author)?.Difficulty ?? 0, Author: author };
}
