/**
 * Side transactions (heimdall.md §9): two blocks after delivery, the votes the validators put on
 * their precommits are tallied by voting power; more than 2/3 of the power voting yes with one
 * observation runs the post handler, anything else fails it with 5502. The model does not apply
 * what the validators agreed on blindly: it reads the parent chain itself (the events the parent
 * chain emitted, its block hashes, the root chain's header blocks) and applies the event as the
 * chain holds it; a yes-majority on an observation the parent chain does not hold is a finding.
 */
import { canonical } from './canonical';
import { checkpointContinues, seconds, signerOfKey, spanChecks, type BlockContext } from './deliver';
import { FEE_DENOM } from './ante';
import { ACCEPTED, by, H, type Outcome, SDK } from './outcome';
import { eligible, selectProducers } from './selection';
import { type ModelState, type ModelValidator, type SpanMember, idKey } from './state';
import { type ModelMsg } from './txDecode';

/** The reference's event sequence (`last_updated`): block number × 100000 + log index. */
export const eventSequence = (blockNumber: bigint, logIndex: bigint) => blockNumber * 100_000n + logIndex;

const ONE_TOKEN = 10n ** 18n;
/** What a top-up pays its relayer (reference DefaultFeeWantedPerTx). */
const FEE_WANTED_PER_TX = 10n ** 15n;

/** A parent-chain event as the chain emitted it, with the block it is in. */
export type ParentEvent = { blockNumber: bigint } & (
  | { event: 'TopUpFee'; user: string; fee: bigint }
  | { event: 'StateSynced'; id: bigint; contract: string; data: string }
  | {
      event: 'Staked';
      signer: string;
      validatorId: bigint;
      activationEpoch: bigint;
      amount: bigint;
      signerPubkey: string;
    }
  | { event: 'StakeUpdate'; validatorId: bigint; newAmount: bigint }
  | { event: 'UnstakeInit'; validatorId: bigint; deactivationEpoch: bigint }
  | { event: 'SignerChange'; validatorId: bigint; newSigner: string; signerPubkey: string }
  | { event: 'other'; name: string }
);

export interface HeaderBlock {
  number: bigint;
  proposer: string;
  startBlock: bigint;
  endBlock: bigint;
  rootHash: string;
}

/** What the model knows of the parent chain (from the parent chain's own reports). */
export interface ParentTruth {
  event(txHash: string, logIndex: bigint): ParentEvent | undefined;
  blockHash(number: bigint): string | undefined;
  headerBlock(number: bigint): HeaderBlock | undefined;
}

export interface Vote {
  validator: string;
  result: 'yes' | 'no' | 'skip';
  observation: unknown;
}

export type Tally = { result: 'yes'; observation: unknown } | { result: 'no' | 'skip' };

/**
 * Tally by the stored set's voting power: the first vote of each member counts, others not; a yes
 * needs more than 2/3 of the total power on one observation, a no more than 2/3 voting no.
 */
export function tally(members: ReadonlyArray<{ address: string; power: bigint }>, votes: readonly Vote[]): Tally {
  const power = new Map(members.map((m) => [m.address, m.power]));
  let total = 0n;
  for (const m of members) total += m.power;
  const seen = new Set<string>();
  const yes = new Map<string, { power: bigint; observation: unknown }>();
  let no = 0n;
  for (const v of votes) {
    const who = v.validator.toLowerCase();
    if (seen.has(who)) continue;
    seen.add(who);
    const p = power.get(who);
    if (p === undefined) continue;
    if (v.result === 'yes') {
      const key = canonical(v.observation ?? null);
      const e = yes.get(key) ?? { power: 0n, observation: v.observation };
      e.power += p;
      yes.set(key, e);
    } else if (v.result === 'no') no += p;
  }
  let best: { power: bigint; observation: unknown } | undefined;
  for (const e of yes.values()) if (!best || e.power > best.power) best = e;
  if (best && best.power * 3n > total * 2n) return { result: 'yes', observation: best.observation };
  return { result: no * 3n > total * 2n ? 'no' : 'skip' };
}

export interface PostResult {
  outcome: Outcome;
  /** Where the agreed observation and the parent chain disagree (a finding, not a refusal). */
  disagreement: string | null;
}

const ok = (disagreement: string | null = null): PostResult => ({ outcome: ACCEPTED, disagreement });
const fail = (outcome: Outcome, disagreement: string | null = null): PostResult => ({ outcome, disagreement });

function field(o: unknown, k: string): unknown {
  return typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[k] : undefined;
}

/** Compare the agreed observation's fields with the parent chain's values. */
function differs(observation: unknown, truth: Record<string, unknown>): string | null {
  for (const [k, v] of Object.entries(truth)) {
    const got = field(observation, k);
    const same = typeof v === 'string' && typeof got === 'string' ? v.toLowerCase() === got.toLowerCase() : got === v;
    if (!same) return `agreed ${k} ${String(got)}, the parent chain has ${String(v)}`;
  }
  return null;
}

export function post(s: ModelState, m: ModelMsg, agreed: unknown, b: BlockContext, parent: ParentTruth): PostResult {
  const p = b.params;
  switch (m.type) {
    case 'staking/MsgValidatorJoin': {
      const ev = parent.event(m.txHash, m.logIndex);
      if (ev?.event !== 'Staked')
        return fail(
          by('staking.join.from-staked-event', H.invalidMsg('no Staked event')),
          'a join agreed on an event that is not Staked',
        );
      const d = differs(agreed, {
        activationEpoch: ev.activationEpoch,
        amount: ev.amount,
        blockNumber: ev.blockNumber,
      });
      if (s.seen('staking', m.txHash, m.logIndex))
        return fail(by('staking.events.replay-post', H.oldTx('event already applied')), d);
      const signer = signerOfKey(m.pubKey);
      if (s.validator(m.id) || s.validatorBySigner(signer))
        return fail(by('staking.join.already-joined', H.alreadyJoined('already joined')), d);
      if (ev.amount < ONE_TOKEN)
        return fail(by('staking.join.min-one-token', H.invalidMsg('stake under one token')), d);
      s.putValidator({
        id: m.id,
        signer,
        pubKey: m.pubKey,
        power: ev.amount / ONE_TOKEN,
        startEpoch: ev.activationEpoch,
        endEpoch: 0n,
        lastUpdated: eventSequence(ev.blockNumber, m.logIndex),
        jailed: false,
      });
      s.markSeen('staking', m.txHash, m.logIndex);
      b.effects.add('staking.join.from-staked-event').add('staking.join.power-from-amount');
      return ok(d);
    }
    case 'staking/MsgStakeUpdate': {
      const ev = parent.event(m.txHash, m.logIndex);
      if (ev?.event !== 'StakeUpdate')
        return fail(
          by('staking.events.must-match', H.invalidMsg('no StakeUpdate event')),
          'agreed on an event that is not StakeUpdate',
        );
      const d = differs(agreed, { newAmount: ev.newAmount, blockNumber: ev.blockNumber });
      if (s.seen('staking', m.txHash, m.logIndex))
        return fail(by('staking.events.replay-post', H.oldTx('event already applied')), d);
      const v = s.validator(m.id);
      if (!v) return fail(by('staking.events.unknown-validator', H.noValidator(`no validator ${m.id}`)), d);
      if (ev.newAmount < ONE_TOKEN)
        return fail(by('staking.join.min-one-token', H.invalidMsg('stake under one token')), d);
      s.putValidator({ ...v, power: ev.newAmount / ONE_TOKEN, lastUpdated: eventSequence(ev.blockNumber, m.logIndex) });
      s.markSeen('staking', m.txHash, m.logIndex);
      b.effects.add('staking.stake-update.power');
      return ok(d);
    }
    case 'staking/MsgValidatorExit': {
      const ev = parent.event(m.txHash, m.logIndex);
      if (ev?.event !== 'UnstakeInit')
        return fail(
          by('staking.events.must-match', H.invalidMsg('no UnstakeInit event')),
          'agreed on an event that is not UnstakeInit',
        );
      const d = differs(agreed, { deactivationEpoch: ev.deactivationEpoch, blockNumber: ev.blockNumber });
      if (s.seen('staking', m.txHash, m.logIndex))
        return fail(by('staking.events.replay-post', H.oldTx('event already applied')), d);
      const v = s.validator(m.id);
      if (!v) return fail(by('staking.events.unknown-validator', H.noValidator(`no validator ${m.id}`)), d);
      if (v.endEpoch !== 0n) return fail(by('staking.exit.already-exiting', H.valUnbonded('already leaving')), d);
      s.putValidator({ ...v, endEpoch: ev.deactivationEpoch, lastUpdated: eventSequence(ev.blockNumber, m.logIndex) });
      s.markSeen('staking', m.txHash, m.logIndex);
      b.effects.add('staking.exit.end-epoch');
      return ok(d);
    }
    case 'staking/MsgSignerUpdate': {
      const ev = parent.event(m.txHash, m.logIndex);
      if (ev?.event !== 'SignerChange')
        return fail(
          by('staking.events.must-match', H.invalidMsg('no SignerChange event')),
          'agreed on an event that is not SignerChange',
        );
      const d = differs(agreed, { blockNumber: ev.blockNumber });
      if (s.seen('staking', m.txHash, m.logIndex))
        return fail(by('staking.events.replay-post', H.oldTx('event already applied')), d);
      const v = s.validator(m.id);
      if (!v) return fail(by('staking.events.unknown-validator', H.noValidator(`no validator ${m.id}`)), d);
      const newSigner = signerOfKey(m.pubKey);
      if (newSigner === v.signer)
        return fail(by('staking.signer-update.unchanged', H.noSignerChange('the same signer')), d);
      if (s.validatorBySigner(newSigner))
        return fail(by('staking.signer-update.signer-taken', H.alreadyJoined('the new signer is taken')), d);
      s.putValidator({
        ...v,
        signer: newSigner,
        pubKey: m.pubKey,
        lastUpdated: eventSequence(ev.blockNumber, m.logIndex),
      });
      // The old signer's whole balance moves to the new signer (heimdall.md §4.5).
      const balance = s.balance(v.signer, FEE_DENOM);
      if (balance > 0n) s.send(v.signer, newSigner, [{ denom: FEE_DENOM, amount: balance }]);
      s.markSeen('staking', m.txHash, m.logIndex);
      b.effects.add('staking.signer-update.changes-signer');
      return ok(d);
    }
    case 'checkpoint/MsgCheckpoint': {
      const gap = checkpointContinues(s, m.startBlock);
      if (gap) return fail(gap);
      if (s.get('buffer')) return fail(by('checkpoint.post.buffer-taken', H.noAck('a checkpoint is buffered')));
      s.put('buffer', {
        proposer: m.proposer,
        startBlock: m.startBlock,
        endBlock: m.endBlock,
        rootHash: m.rootHash,
        accountRootHash: m.accountRootHash,
        timestampS: seconds(b.timeMs),
      });
      b.effects.add('checkpoint.post.buffered');
      return ok();
    }
    case 'checkpoint/MsgCheckpointACK': {
      const rec = parent.headerBlock(m.headerBlock);
      if (!rec)
        return fail(
          by('checkpoint.ack.matches-record', H.badAck('no such header block')),
          `an ack agreed on header block ${m.headerBlock}, which the root chain never stored`,
        );
      const d = differs(agreed, {
        proposer: rec.proposer,
        startBlock: rec.startBlock,
        endBlock: rec.endBlock,
        rootHash: rec.rootHash,
      });
      const buf = s.get('buffer');
      if (!buf) return fail(by('checkpoint.ack.double', H.badAck('no buffered checkpoint')), d);
      if (rec.startBlock !== buf.startBlock)
        return fail(by('checkpoint.ack.matches-record', H.badAck('the header block starts elsewhere')), d);
      if (rec.endBlock === buf.endBlock && rec.rootHash !== buf.rootHash)
        return fail(by('checkpoint.ack.matches-record', H.badAck('another root')), d);
      // The root chain's record wins where the end differs (post-Aalborg end-block adjustment).
      const stored =
        rec.endBlock !== buf.endBlock
          ? { ...buf, endBlock: rec.endBlock, rootHash: rec.rootHash, proposer: rec.proposer }
          : buf;
      s.checkpoints.set(idKey(m.headerBlock), stored);
      b.effects.add('checkpoint.ack.effects');
      if (stored !== buf) b.effects.add('checkpoint.ack.end-adjust');
      s.put('buffer', null);
      s.put('ackCount', s.get('ackCount') + 1n);
      const set = s.set();
      set.increment(1);
      s.put('validatorSet', set);
      return ok(d);
    }
    case 'topup/MsgTopup': {
      const ev = parent.event(m.txHash, m.logIndex);
      if (ev?.event !== 'TopUpFee')
        return fail(
          by('topup.event.user-is-signer', H.invalidMsg('no TopUpFee event')),
          'a top-up agreed on an event that is not TopUpFee',
        );
      // (Whether the event's user was the validator's signer is judged at vote time, not here: a
      // signer update posted earlier in this block may have moved the signer since.)
      const d = differs(agreed, { user: ev.user, fee: ev.fee, blockNumber: ev.blockNumber });
      if (!p.sendEnabled) return fail(by('topup.deliver.send-disabled', H.topupSendDisabled('sending is disabled')), d);
      if (s.seen('topup', m.txHash, m.logIndex))
        return fail(by('topup.replay.post', H.topupOldTx('top-up already minted')), d);
      s.addCoins(ev.user, [{ denom: FEE_DENOM, amount: ev.fee }]);
      if (!s.send(ev.user, m.from, [{ denom: FEE_DENOM, amount: FEE_WANTED_PER_TX }]))
        return fail(by('topup.mint.event-fee', SDK.insufficientCoins('the top-up cannot pay its relayer')), d);
      s.markSeen('topup', m.txHash, m.logIndex);
      return ok(d);
    }
    case 'sidechain/MsgProposeSpan': {
      // A second proposal of a span already frozen fails before its seed matters (the seed block
      // moved on when the first one froze the span, after this one's votes were cast).
      if (s.span(m.spanId)) return fail(by('span.post.replay', H.oldTx(`span ${m.spanId} exists`)));
      const seedBlock = s.get('seedBlock') + 1n;
      const seed = parent.blockHash(seedBlock);
      const d =
        seed === undefined
          ? `a span seeded by parent block ${seedBlock}, which the parent chain never mined`
          : differs(agreed, { seed });
      const bad = spanChecks(s, p, m);
      if (bad) return fail(bad, d);
      if (seed === undefined) return fail(by('span.selection.seed-block', H.sideTxFailed('no seed')), d);
      const seedBytes = new Uint8Array(32);
      for (let i = 0; i < 32; i++) seedBytes[i] = Number.parseInt(seed.slice(2 + 2 * i, 4 + 2 * i), 16);
      const candidates = eligible(s.allValidators(), s.get('ackCount'));
      const producers = selectProducers(candidates, seedBytes, p.producerCount);
      b.effects.add('span.selection.eligible').add('span.selection.seed-block').add('span.record.frozen');
      if (BigInt(candidates.length) <= p.producerCount) b.effects.add('span.selection.all-if-few');
      else b.effects.add('span.selection.slots-and-shuffle').add('span.selection.span-power');
      const set = s.get('validatorSet');
      // The records of the set's members, then of producers outside it, each once, as they stand now.
      const members: SpanMember[] = [];
      const add = (v: ModelValidator | undefined) => {
        if (v && !members.some((x) => x.id === v.id))
          members.push({
            id: v.id,
            startEpoch: v.startEpoch,
            endEpoch: v.endEpoch,
            pubKey: v.pubKey,
            signer: v.signer,
          });
      };
      for (const x of set.validators) add(s.validatorBySigner(x.address));
      for (const p of producers) add(s.validator(p.id));
      s.spans.set(idKey(m.spanId), {
        id: m.spanId,
        startBlock: m.startBlock,
        endBlock: m.endBlock,
        producers,
        sidechainChainId: m.sidechainChainId,
        validators: set.validators.map((x) => ({ address: x.address, power: x.power, priority: x.priority })),
        proposer: set.proposerSnapshot,
        members,
      });
      s.put('lastSpanId', m.spanId);
      s.put('seedBlock', seedBlock);
      return ok(d);
    }
    case 'clerk/MsgEventRecord': {
      const ev = parent.event(m.txHash, m.logIndex);
      const oversized = m.data === '0x' && ev?.event === 'StateSynced' && (ev.data.length - 2) / 2 > 30_000;
      const d =
        ev?.event !== 'StateSynced'
          ? 'a record agreed on an event that is not StateSynced'
          : ev.id !== m.id ||
              ev.contract.toLowerCase() !== m.contract ||
              (ev.data.toLowerCase() !== m.data && !oversized)
            ? 'a record that differs from its StateSynced event'
            : null;
      if (s.records.has(idKey(m.id))) return fail(by('clerk.record.replay', H.oldTx(`record ${m.id} exists`)), d);
      if (s.seen('clerk', m.txHash, m.logIndex))
        return fail(by('clerk.record.replay', H.oldTx('event already recorded')), d);
      s.records.set(idKey(m.id), {
        id: m.id,
        contract: m.contract,
        data: m.data,
        txHash: m.txHash,
        logIndex: m.logIndex,
        sidechainChainId: m.sidechainChainId,
        recordTimeMs: b.timeMs,
      });
      s.markSeen('clerk', m.txHash, m.logIndex);
      b.effects.add('clerk.record.stored');
      return ok(d);
    }
    default:
      throw new Error(`${m.type} is not a side message`);
  }
}
