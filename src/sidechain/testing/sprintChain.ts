/**
 * Test helper: a chain of unsealed headers signed (by assertion, not by key) by each block's in-turn
 * producer, with the same producers re-announced on every sprint-end header. Snapshot tests use it
 * to watch the proposer rotate; it exercises only the snapshot rules, not the seal.
 */
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { type ValidatorInput } from '../../core/validatorSet';
import { buildExtra, encodeValidatorBytes, makeHeader } from '../header';
import { type Snapshot, applyHeader, genesisSnapshot, snapshotProposer } from '../snapshot';
import { isSprintEnd } from '../sprint';

export const GENESIS_HASH: Hex = `0x${'ab'.repeat(32)}`;

export interface SprintChain {
  /** snapshots[n] is the snapshot after block n (snapshots[0] is genesis). */
  snapshots: Snapshot[];
  /** proposers[n] is the in-turn producer of block n, read from snapshots[n-1] (proposers[0] unused). */
  proposers: Address[];
}

export function buildSprintChain(
  producers: ReadonlyArray<ValidatorInput>,
  sprint: number,
  blocks: number,
): SprintChain {
  const validatorBytes = encodeValidatorBytes(producers.map((p) => ({ address: p.address, power: p.power })));
  let snap = genesisSnapshot(producers, GENESIS_HASH);
  const snapshots = [snap];
  const proposers: Address[] = [snapshotProposer(snap)];
  for (let i = 1; i <= blocks; i++) {
    const n = BigInt(i);
    const signer = snapshotProposer(snap);
    const header = makeHeader({
      number: n,
      parentHash: snap.hash,
      time: 1000n + 2n * n,
      difficulty: BigInt(snap.validatorSet.size),
      extraData: isSprintEnd(n, sprint) ? buildExtra(validatorBytes) : buildExtra(),
    });
    snap = applyHeader(snap, header, signer, sprint);
    snapshots.push(snap);
    proposers.push(signer);
  }
  return { snapshots, proposers };
}
