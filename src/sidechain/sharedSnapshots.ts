/**
 * Producer snapshots shared between the nodes of one process. Every node of a simulated network
 * applies the same headers to the same parent snapshots, and a snapshot is a value (snapshot.ts):
 * so the first node to apply a header computes the child and the others take it. Without this,
 * 105 nodes each kept their own copy of every block's snapshot (a map of recent signers and a
 * validator set), which was the largest single part of a long run's heap.
 *
 * The sharing is exact, not by content: a child is reused only for the same parent snapshot
 * object, the same header object and the same signer and sprint, so a hit returns what
 * `applyHeader` would have computed from the very same inputs. All chains of a run start from one
 * genesis snapshot (shared by its genesis hash and producers), which is what makes the parents
 * the same objects.
 */
import { type Hex } from '../core/bytes';
import { boundedMemo, weakMemo } from '../core/memo';
import { type ValidatorInput } from '../core/validatorSet';
import { type SidechainHeader } from './header';
import { type Snapshot, applyHeader, genesisSnapshot } from './snapshot';

interface Child {
  readonly signer: string;
  readonly sprint: bigint;
  readonly snapshot: Snapshot;
}

/** Parent snapshot → header → the child computed from them. */
const children = weakMemo<Snapshot, WeakMap<SidechainHeader, Child>>('sidechain.snapshotChildren');
/** Genesis snapshots by genesis hash and producers (a handful per run). */
const geneses = boundedMemo<string, Snapshot>('sidechain.genesisSnapshots', 64);

export function sharedGenesisSnapshot(producers: ReadonlyArray<ValidatorInput>, genesisHash: Hex): Snapshot {
  const key = `${genesisHash}|${producers.map((p) => `${p.address}:${p.power}:${p.id ?? ''}`).join(',')}`;
  return geneses.getOrCompute(key, () => genesisSnapshot(producers, genesisHash));
}

/** `applyHeader(parent, header, signer, sprint)`, computed once per process for the same inputs. */
export function sharedApplyHeader(parent: Snapshot, header: SidechainHeader, signer: string, sprint: bigint): Snapshot {
  const byHeader = children.getOrCompute(parent, () => new WeakMap());
  const hit = byHeader.get(header);
  if (hit !== undefined && hit.signer === signer && hit.sprint === sprint) return hit.snapshot;
  // A miss, or the same header with another signer or sprint (never in one run): compute it; the
  // first answer stays cached.
  const snapshot = applyHeader(parent, header, signer, sprint);
  if (hit === undefined) byHeader.set(header, { signer, sprint, snapshot });
  return snapshot;
}
