/**
 * What an honest validator may vote on a side transaction that relays a parent-chain event
 * (heimdall §9, the side handlers of staking, top-up and clerk): it looks the event up by the
 * message's tx hash and log index on its own view of the parent chain, at the confirmation depth.
 *
 * - skip: the event is not there, or not yet confirmed for that validator (its view of the parent
 *   chain may lag the chain's own reports, so a skip is always allowed);
 * - no: the event is there and confirmed but it is another event, or it says something else than
 *   the message (another validator id, key, signer, record);
 * - yes: the event is there and says what the message says.
 *
 * The model knows every event the parent chain emitted (its own reports), so a yes without a
 * matching event, a no on a matching one, and a no where there is no event at all are each a
 * vote no honest validator casts. Checkpoints, acks and spans are judged by their own oracles
 * (they depend on the sidechain and on the validator's view). A top-up's "user is the
 * validator's signer" depends on the state the vote was cast on: the model notes that signer when
 * the delivering block ends (block.ts) and judges the vote against it.
 */
import { signerOfKey } from './deliver';
import { type ParentEvent } from './post';
import { type ModelMsg } from './txDecode';

export type VoteResult = 'yes' | 'no' | 'skip';

/** Heimdall's clerk (MaxStateSyncSize): an event whose data is longer than this may be relayed with empty data. */
const MAX_RELAYED_RECORD_BYTES = 30_000;

/** The votes an honest validator may cast on `m` given the parent chain's event; null: not judged here. */
export function honestVotes(
  m: ModelMsg,
  ev: ParentEvent | undefined,
  /** A top-up's validator's signer where the votes were cast (null: no such validator; undefined: not known). */
  voteSigner?: string | null,
): { allowed: ReadonlySet<VoteResult>; why: string } | null {
  const expected = EVENT_OF[m.type];
  if (expected === undefined || !('txHash' in m)) return null;
  if (ev === undefined) return { allowed: ONLY_SKIP, why: `no event at ${m.txHash}/${m.logIndex} on the parent chain` };
  const name = ev.event === 'other' ? ev.name : ev.event;
  if (name !== expected) return { allowed: NOT_YES, why: `the parent chain's event there is ${name}, not ${expected}` };
  const mismatch = differsFromEvent(m, ev, voteSigner);
  if (mismatch === undefined) return null;
  return mismatch === null
    ? { allowed: NOT_NO, why: `the ${expected} event says what the message says` }
    : { allowed: NOT_YES, why: `the ${expected} event differs: ${mismatch}` };
}

const ONLY_SKIP: ReadonlySet<VoteResult> = new Set(['skip']);
const NOT_YES: ReadonlySet<VoteResult> = new Set(['no', 'skip']);
const NOT_NO: ReadonlySet<VoteResult> = new Set(['yes', 'skip']);

const EVENT_OF: Partial<Record<ModelMsg['type'], string>> = {
  'staking/MsgValidatorJoin': 'Staked',
  'staking/MsgStakeUpdate': 'StakeUpdate',
  'staking/MsgValidatorExit': 'UnstakeInit',
  'staking/MsgSignerUpdate': 'SignerChange',
  'topup/MsgTopup': 'TopUpFee',
  'clerk/MsgEventRecord': 'StateSynced',
};

/** The event's 64-byte key (the parent contract logs it without the 0x04 prefix of the message's key). */
function eventKeyOf(pubKey: string): string {
  return `0x${pubKey.toLowerCase().replace(/^0x/, '').replace(/^04/, '')}`;
}

/** The first field where `ev` and `m` disagree; null when they agree; undefined: not judged. */
function differsFromEvent(
  m: ModelMsg,
  ev: ParentEvent,
  voteSigner: string | null | undefined,
): string | null | undefined {
  switch (m.type) {
    case 'staking/MsgValidatorJoin':
      if (ev.event !== 'Staked') return 'kind';
      if (ev.validatorId !== m.id) return `validator id ${ev.validatorId}, message ${m.id}`;
      if (ev.signerPubkey.toLowerCase() !== eventKeyOf(m.pubKey)) return 'public key';
      if (ev.signer.toLowerCase() !== signerOfKey(m.pubKey)) return 'signer';
      return null;
    case 'staking/MsgStakeUpdate':
      if (ev.event !== 'StakeUpdate') return 'kind';
      return ev.validatorId !== m.id ? `validator id ${ev.validatorId}, message ${m.id}` : null;
    case 'staking/MsgValidatorExit':
      if (ev.event !== 'UnstakeInit') return 'kind';
      return ev.validatorId !== m.id ? `validator id ${ev.validatorId}, message ${m.id}` : null;
    case 'staking/MsgSignerUpdate':
      if (ev.event !== 'SignerChange') return 'kind';
      if (ev.validatorId !== m.id) return `validator id ${ev.validatorId}, message ${m.id}`;
      if (ev.newSigner.toLowerCase() !== signerOfKey(m.pubKey)) return 'new signer';
      if (ev.signerPubkey.toLowerCase() !== eventKeyOf(m.pubKey)) return 'public key';
      return null;
    case 'clerk/MsgEventRecord': {
      if (ev.event !== 'StateSynced') return 'kind';
      if (ev.id !== m.id) return `record id ${ev.id}, message ${m.id}`;
      if (ev.contract.toLowerCase() !== m.contract.toLowerCase()) return 'contract';
      const relayedEmpty = m.data === '0x' && (ev.data.length - 2) / 2 > MAX_RELAYED_RECORD_BYTES;
      if (ev.data.toLowerCase() !== m.data.toLowerCase() && !relayedEmpty) return 'data';
      return null;
    }
    case 'topup/MsgTopup':
      // README item 20: yes only when the event's user is the signer of validator `id` in the
      // state the vote saw (no such validator: no).
      if (ev.event !== 'TopUpFee') return 'kind';
      if (voteSigner === undefined) return undefined;
      if (voteSigner === null) return `no validator ${m.id}`;
      return ev.user.toLowerCase() !== voteSigner.toLowerCase()
        ? `the event's user ${ev.user} is not validator ${m.id}'s signer ${voteSigner}`
        : null;
    default:
      return undefined;
  }
}
