/**
 * Side transactions (heimdall §9). A tx carrying a side message is executed at height H with
 * pre-checks only and kept as pending; after H commits, every validator runs the side handler
 * against what it observes of the other chains and votes; the votes travel with consensus and at
 * H+2 the app tallies them by voting power. A post handler runs only when more than 2/3 of the
 * power voted yes with the same observation.
 */
import { type Address } from '../core/address';
import { type Hex } from '../core/bytes';
import { canonicalJson } from '../core/canonicalJson';
import { type KVReader, type KVStore } from '../store/kvStore';
import { type SideVote } from '../modules/framework/msgDef';
import { type ValidatorSet } from '../core/validatorSet';
import { idKey } from '../modules/framework/storeKeys';

export interface PendingSideTx {
  txHash: Hex;
  height: bigint;
  msgType: string;
  /** The encoded message value (re-decoded for the post handler). */
  msgValue: Record<string, unknown>;
}

export interface ValidatorSideVote {
  validator: Address;
  vote: SideVote;
}

export interface SideTxVotes {
  txHash: Hex;
  votes: ValidatorSideVote[];
}

export type Tally =
  | { result: 'yes'; observation: unknown; yesPower: bigint; totalPower: bigint }
  | { result: 'no' | 'skip'; yesPower: bigint; totalPower: bigint };

const pendingKey = (height: bigint, index: number) =>
  `app/pending_side_tx/${idKey(height)}/${String(index).padStart(6, '0')}`;

export function addPending(store: KVStore, index: number, p: PendingSideTx): void {
  store.set(pendingKey(p.height, index), p);
}

export function pendingSideTxs(store: KVReader): Array<[string, PendingSideTx]> {
  return store.iterate<PendingSideTx>('app/pending_side_tx/');
}

/**
 * Tally by the voting power of the current set: a yes needs more than 2/3 of the total for one
 * observation (equivalently `yes >= floor(2T/3) + 1`); votes from non-members and repeated votes
 * from one validator do not count.
 */
export function tally(set: ValidatorSet, votes: readonly ValidatorSideVote[]): Tally {
  const total = set.totalVotingPower();
  const seen = new Set<Address>();
  const yes = new Map<string, { power: bigint; observation: unknown }>();
  let noPower = 0n;
  for (const { validator, vote } of votes) {
    if (seen.has(validator)) continue;
    seen.add(validator);
    const member = set.getByAddress(validator);
    if (!member) continue;
    if (vote.result === 'yes') {
      const key = canonicalJson(vote.observation ?? null);
      const entry = yes.get(key) ?? { power: 0n, observation: vote.observation };
      entry.power += member.power;
      yes.set(key, entry);
    } else if (vote.result === 'no') noPower += member.power;
  }
  let best: { power: bigint; observation: unknown } | undefined;
  for (const e of yes.values()) if (!best || e.power > best.power) best = e;
  const yesPower = best?.power ?? 0n;
  if (best && yesPower * 3n > total * 2n)
    return { result: 'yes', observation: best.observation, yesPower, totalPower: total };
  if (noPower * 3n > total * 2n) return { result: 'no', yesPower, totalPower: total };
  return { result: 'skip', yesPower, totalPower: total };
}
