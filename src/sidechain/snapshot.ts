/**
 * The producer snapshot (sidechain.md §2.3, reference README item 27): who may sign the next block
 * and who is in turn. Every check on block n uses the snapshot after block n-1.
 *
 * The proposer rotates once per sprint, when a sprint-end header is applied: that header carries the
 * next sprint's producers, the set is updated to them (Bor `getUpdatedValidatorSet`) and advanced by
 * one proposer-priority round. Blocks inside a sprint leave the proposer alone, so one producer is
 * in turn for the whole sprint.
 *
 * Snapshots are values: `applyHeader` returns a new one and never touches its input (the validator
 * set is copied before it is changed). Callers must not mutate `validatorSet` either.
 */
import { type Address, compareAddresses, parseAddress } from '../core/address';
import { type Hex, isHex } from '../core/bytes';
import { parseUint64 } from '../core/amount';
import { InputError } from '../core/errors';
import { compareBig } from '../core/order';
import { ValidatorSet, type ValidatorInput, type ValidatorSetJSON } from '../core/validatorSet';
import { decodeValidatorBytes, headerHash, headerValidatorBytes, type SidechainHeader } from './header';
import { isSprintEnd, sprintBig } from './sprint';
import { successionFromIndices } from './difficulty';
import { isPlanted } from '../core/plants';

export interface Snapshot {
  readonly number: bigint;
  /** Hash of the header at `number`. */
  readonly hash: Hex;
  readonly validatorSet: ValidatorSet;
  /** Block number → signer, for the last `sprint` blocks (bookkeeping only: Bor signs whole sprints). */
  readonly recents: ReadonlyMap<bigint, Address>;
}

/**
 * The snapshot at block 0: the genesis producers through `NewValidatorSet` (priorities reset, one
 * increment), so the first proposer is the highest-power producer, ties to the smaller address.
 */
export function genesisSnapshot(producers: ReadonlyArray<ValidatorInput>, genesisHash: Hex): Snapshot {
  if (!isHex(genesisHash) || genesisHash.length !== 66)
    throw new InputError('genesisHash', `expected a 32-byte 0x hash, got ${String(genesisHash)}`);
  return {
    number: 0n,
    hash: genesisHash.toLowerCase() as Hex,
    validatorSet: new ValidatorSet(producers),
    recents: new Map(),
  };
}

/**
 * Bor `Snapshot.apply` for one header whose seal recovered to `signer` (sidechain.md §2.3):
 * 1. forget the signer of block n - sprint; 2. the signer must be a producer; 3. remember it;
 * 4. on a sprint-end header, switch to the producers it announces and rotate the proposer.
 *
 * `producerIds` fills the id of producers that join the set (header bytes carry no ids; Bor takes
 * them from the span). Throws an InputError naming the field for a header that cannot follow
 * `snap`: wrong number, wrong parent, unknown signer, a missing or unacceptable producer list.
 */
export function applyHeader(
  snap: Snapshot,
  header: SidechainHeader,
  signer: string,
  sprint: number | bigint,
  producerIds?: ReadonlyMap<Address, bigint>,
): Snapshot {
  const n = header.number;
  if (typeof n !== 'bigint' || n !== snap.number + 1n) {
    throw new InputError(
      'header.number',
      `out of range or non-contiguous chain: expected ${snap.number + 1n}, got ${String(n)}`,
    );
  }
  if (typeof header.parentHash !== 'string' || header.parentHash.toLowerCase() !== snap.hash) {
    throw new InputError('header.parentHash', `block ${n} does not extend snapshot ${snap.number} (${snap.hash})`);
  }
  const sprintLength = sprintBig(sprint);
  const sprintEnd = isSprintEnd(n, sprintLength);

  const recents = new Map(snap.recents);
  if (n >= sprintLength) recents.delete(n - sprintLength);

  const s = parseAddress(signer, 'signer');
  if (!snap.validatorSet.hasAddress(s) && !isPlanted('unauthorised-signer')) {
    throw new InputError('signer', `Signer ${s} is not a part of the producer set at block ${n}`);
  }
  recents.set(n, s);

  let validatorSet = snap.validatorSet;
  if (sprintEnd) {
    const announced = decodeValidatorBytes(headerValidatorBytes(header));
    if (announced.length === 0) {
      // Bor would log the failed update and keep the old set; a sprint-end header without its
      // producer list is malformed here (our producers always write it), so it is refused.
      throw new InputError('header.extraData', `invalid validator list on sprint end block ${n}: no producers`);
    }
    validatorSet = updatedValidatorSet(snap.validatorSet, announced, producerIds);
    validatorSet.incrementProposerPriority(1);
  }
  return { number: n, hash: headerHash(header), validatorSet, recents };
}

/**
 * Bor `getUpdatedValidatorSet` on a copy: members missing from `announced` leave (power 0), members
 * still present take the announced power and keep their priority, newcomers enter with the
 * new-validator priority; `updateWithChangeSet` then rescales and centres.
 *
 * Known difference: Bor writes the new powers into the copied validators *before* calling
 * UpdateWithChangeSet, so the total it uses for a newcomer's priority is the old cached total plus
 * the newcomers' power, ignoring the same-update power changes and removals of existing members.
 * Here the total is the one Tendermint defines (after additions and updates, before removals). The
 * two agree whenever no producer joins in the same sprint as another changes power or leaves.
 */
function updatedValidatorSet(
  current: ValidatorSet,
  announced: ReadonlyArray<{ address: Address; power: bigint }>,
  producerIds: ReadonlyMap<Address, bigint> | undefined,
): ValidatorSet {
  const byAddress = new Map<Address, bigint>();
  for (const v of announced) {
    if (byAddress.has(v.address))
      throw new InputError('header.extraData', `duplicate producer ${v.address} in the validator list`);
    byAddress.set(v.address, v.power);
  }
  const changes: ValidatorInput[] = [];
  for (const old of current.validators) {
    const power = byAddress.get(old.address);
    changes.push({ address: old.address, power: power ?? 0n });
  }
  for (const v of announced) {
    if (current.hasAddress(v.address)) continue;
    const id = producerIds?.get(v.address);
    changes.push(
      id === undefined ? { address: v.address, power: v.power } : { address: v.address, power: v.power, id },
    );
  }
  const next = current.copy();
  try {
    next.updateWithChangeSet(changes);
  } catch (e) {
    if (e instanceof InputError)
      throw new InputError('header.extraData', `validator list cannot be applied: ${e.message}`);
    throw e;
  }
  return next;
}

// --- queries ------------------------------------------------------------------------------------

/** The producers, sorted by address (Bor `bor_getSigners`). */
export function snapshotProducers(snap: Snapshot): Address[] {
  return snap.validatorSet.validators.map((v) => v.address);
}

/** The in-turn producer of the next block (Bor `GetProposer`). */
export function snapshotProposer(snap: Snapshot): Address {
  return snap.validatorSet.proposer.address;
}

/** Succession of `signer` for the block after `snap` (Bor `GetSignerSuccessionNumber`). */
export function snapshotSuccession(snap: Snapshot, signer: string): number {
  const set = snap.validatorSet;
  const i = set.indexOfAddress(parseAddress(signer, 'signer'));
  if (i < 0 && isPlanted('unauthorised-signer')) return 0;
  if (i < 0) throw new InputError('signer', `${signer} is not a producer at block ${snap.number}`);
  const p = set.indexOfAddress(set.proposer.address);
  // The proposer is picked by the last increment from the members of that moment, so it is a member.
  if (p < 0) throw new InputError('proposer', `${set.proposer.address} is not a producer at block ${snap.number}`);
  return successionFromIndices(i, p, set.size);
}

/** The difficulty a block after `snap` signed by `signer` must carry: `N - succession`. */
export function snapshotDifficulty(snap: Snapshot, signer: string): bigint {
  return BigInt(snap.validatorSet.size - snapshotSuccession(snap, signer));
}

// --- persistence --------------------------------------------------------------------------------

export interface SnapshotJSON {
  number: string;
  hash: Hex;
  validatorSet: ValidatorSetJSON;
  /** Block number (decimal) → signer, in ascending block order. */
  recents: Array<[string, Address]>;
}

export function snapshotToJSON(snap: Snapshot): SnapshotJSON {
  const recents = [...snap.recents.entries()].sort((a, b) => compareBig(a[0], b[0]));
  return {
    number: snap.number.toString(),
    hash: snap.hash,
    validatorSet: snap.validatorSet.toJSON(),
    recents: recents.map(([n, a]) => [n.toString(), a]),
  };
}

export function snapshotFromJSON(json: unknown): Snapshot {
  if (typeof json !== 'object' || json === null) throw new InputError('snapshot', 'expected an object');
  const o = json as Record<string, unknown>;
  const number = parseUint64(o.number, 'snapshot.number');
  if (!isHex(o.hash) || o.hash.length !== 66) throw new InputError('snapshot.hash', 'expected a 32-byte 0x hash');
  const validatorSet = ValidatorSet.fromJSON(o.validatorSet);
  if (!Array.isArray(o.recents)) throw new InputError('snapshot.recents', 'expected an array of [number, address]');
  const entries = o.recents.map((e, i): [bigint, Address] => {
    if (!Array.isArray(e) || e.length !== 2)
      throw new InputError(`snapshot.recents[${i}]`, 'expected [number, address]');
    return [parseUint64(e[0], `snapshot.recents[${i}][0]`), parseAddress(e[1], `snapshot.recents[${i}][1]`)];
  });
  entries.sort((a, b) => compareBig(a[0], b[0]) || compareAddresses(a[1], b[1]));
  return { number, hash: o.hash.toLowerCase() as Hex, validatorSet, recents: new Map(entries) };
}
