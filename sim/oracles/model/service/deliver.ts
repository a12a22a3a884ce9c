/**
 * The message handlers at delivery, as the model reads the spec's transition table and the
 * reference's handlers (heimdall.md §2.3, §3.2-§3.4, §4.5, §5, §7; README items 2, 8-12, 16-21).
 * A side message's handler only pre-checks; its effect comes from the post handler (post.ts).
 * Each runs on the transaction's branch: a refusal leaves nothing behind.
 */
import { accountLeaf, merkleRoot } from '../merkle';
import { FEE_DENOM } from './ante';
import { ACCEPTED, by, H, type Outcome, SDK } from './outcome';
import { addressOfPublicKey } from './signature';
import { type ModelParams, type ModelState, idKey } from './state';
import { type ModelMsg } from './txDecode';
import { type RuleId } from '../../ruleId';

export interface BlockContext {
  height: bigint;
  timeMs: number;
  params: ModelParams;
  /** The rules whose effects the block's state changes show (what service-state then judges). */
  effects: Set<RuleId>;
}

export const seconds = (timeMs: number) => BigInt(Math.floor(timeMs / 1000));

function keyAddress(pubKey: string): string {
  const b = new Uint8Array((pubKey.length - 2) / 2);
  for (let i = 0; i < b.length; i++) b[i] = Number.parseInt(pubKey.slice(2 + 2 * i, 4 + 2 * i), 16);
  return addressOfPublicKey(b);
}

export const signerOfKey = keyAddress;

/**
 * The account root (spec hash rules 3-4, README items 11-12): one leaf per validator id the service
 * knows (exited ones too), by id, with its dividend account's fee amount (0 when it never withdrew)
 * and a slashed amount of 0.
 */
export function accountRoot(s: ModelState): string {
  const leaves = s
    .allValidators()
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((v) => accountLeaf({ id: v.id, feeAmount: s.dividends.get(idKey(v.id)) ?? 0n, slashedAmount: 0n }));
  return merkleRoot(leaves);
}

/** Continuity with the last acked checkpoint (1509, 1510; the first starts at block 0, else 1501). */
export function checkpointContinues(s: ModelState, start: bigint): Outcome | null {
  const last = s.lastCheckpoint();
  if (last) {
    if (last.checkpoint.endBlock > start)
      return by('checkpoint.propose.continuity', H.oldCheckpoint(`checkpoint ${last.number} already covers ${start}`));
    if (last.checkpoint.endBlock + 1n !== start)
      return by(
        'checkpoint.propose.continuity',
        H.disContinuous(`does not start right after checkpoint ${last.number}`),
      );
  } else if (start !== 0n)
    return by('checkpoint.propose.continuity', H.badBlockDetails('the first checkpoint starts at block 0'));
  return null;
}

export function spanChecks(
  s: ModelState,
  p: ModelParams,
  m: Extract<ModelMsg, { type: 'sidechain/MsgProposeSpan' }>,
): Outcome | null {
  if (m.sidechainChainId !== p.sidechainChainId)
    return by('span.proposal.chain-id', H.badChainId(`sidechain chain id ${m.sidechainChainId}`));
  const last = s.lastSpan();
  if (!last) return by('span.proposal.continuity', H.spanNotFound('no span yet'));
  if (!(last.id + 1n === m.spanId && m.startBlock === last.endBlock + 1n && m.endBlock >= m.startBlock))
    return by(
      'span.proposal.continuity',
      H.spanNotContinuous(`span ${m.spanId} from ${m.startBlock} does not follow span ${last.id}`),
    );
  if (p.spanDuration !== m.endBlock - m.startBlock + 1n)
    return by('span.proposal.duration', H.badSpanDuration('wrong span duration'));
  return null;
}

export function deliver(s: ModelState, m: ModelMsg, b: BlockContext): Outcome {
  const p = b.params;
  switch (m.type) {
    case 'cosmos-sdk/MsgSend':
      if (!p.sendEnabled) return by('bank.send.disabled', H.bankSendDisabled('sending is disabled'));
      return s.send(m.from, m.to, m.amount)
        ? ACCEPTED
        : by('bank.send.insufficient', SDK.insufficientCoins('the sender cannot pay the amount'));
    case 'cosmos-sdk/MsgMultiSend': {
      if (!p.sendEnabled) return by('bank.send.disabled', H.bankSendDisabled('sending is disabled'));
      for (const io of m.inputs)
        if (!s.subCoins(io.address, io.coins))
          return by('bank.send.insufficient', SDK.insufficientCoins(`input ${io.address} cannot pay`));
      for (const io of m.outputs) s.addCoins(io.address, io.coins);
      return ACCEPTED;
    }
    case 'staking/MsgValidatorJoin':
      if (s.validator(m.id)) return by('staking.join.already-joined', H.alreadyJoined(`validator ${m.id} exists`));
      if (s.validatorBySigner(keyAddress(m.pubKey)))
        return by('staking.join.already-joined', H.alreadyJoined('the signer is taken'));
      return s.seen('staking', m.txHash, m.logIndex)
        ? by('staking.events.replay-deliver', H.oldTx('event already applied'))
        : ACCEPTED;
    case 'staking/MsgStakeUpdate':
      if (!s.validator(m.id)) return by('staking.events.unknown-validator', H.noValidator(`no validator ${m.id}`));
      return s.seen('staking', m.txHash, m.logIndex)
        ? by('staking.events.replay-deliver', H.oldTx('event already applied'))
        : ACCEPTED;
    case 'staking/MsgValidatorExit': {
      const v = s.validator(m.id);
      if (!v) return by('staking.events.unknown-validator', H.noValidator(`no validator ${m.id}`));
      if (v.endEpoch !== 0n)
        return by('staking.exit.already-exiting', H.valUnbonded(`validator ${m.id} is already leaving`));
      return s.seen('staking', m.txHash, m.logIndex)
        ? by('staking.events.replay-deliver', H.oldTx('event already applied'))
        : ACCEPTED;
    }
    case 'staking/MsgSignerUpdate': {
      const v = s.validator(m.id);
      if (!v) return by('staking.events.unknown-validator', H.noValidator(`no validator ${m.id}`));
      if (s.seen('staking', m.txHash, m.logIndex))
        return by('staking.events.replay-deliver', H.oldTx('event already applied'));
      return keyAddress(m.pubKey) === v.signer
        ? by('staking.signer-update.unchanged', H.noSignerChange('the same signer'))
        : ACCEPTED;
    }
    case 'checkpoint/MsgCheckpoint': {
      const buf = s.get('buffer');
      if (buf) {
        const now = seconds(b.timeMs);
        const expired =
          buf.timestampS === 0n || (now > buf.timestampS && now - buf.timestampS >= p.checkpointBufferTimeMs / 1000n);
        if (!expired)
          return by('checkpoint.propose.buffer-busy', H.noAck('a checkpoint is buffered and has not expired'));
        s.put('buffer', null);
        b.effects.add('checkpoint.propose.expired-buffer-flush');
      }
      const gap = checkpointContinues(s, m.startBlock);
      if (gap) return gap;
      if (accountRoot(s) !== m.accountRootHash)
        return by('checkpoint.propose.account-root', H.badBlockDetails('wrong account root'));
      const proposer = s.get('validatorSet').proposer;
      if (proposer === null) return by('checkpoint.propose.proposer', H.invalidMsg('no stored proposer'));
      return proposer === m.proposer
        ? ACCEPTED
        : by('checkpoint.propose.proposer', H.invalidMsg(`the proposer is ${proposer}`));
    }
    case 'checkpoint/MsgCheckpointACK':
      return s.get('buffer') ? ACCEPTED : by('checkpoint.ack.needs-buffer', H.badAck('no buffered checkpoint'));
    case 'checkpoint/MsgCheckpointNoACK':
      return noAck(s, m.from, b);
    case 'topup/MsgTopup':
      if (!p.sendEnabled) return by('topup.deliver.send-disabled', H.topupSendDisabled('sending is disabled'));
      return s.seen('topup', m.txHash, m.logIndex)
        ? by('topup.replay.deliver', H.topupOldTx('top-up already minted'))
        : ACCEPTED;
    case 'topup/MsgWithdrawFee': {
      const v = s.validatorBySigner(m.from);
      if (!v) return by('topup.withdraw.validator-only', H.noValidator(`${m.from} is no validator's signer`));
      const amount = m.amount === 0n ? s.balance(m.from, FEE_DENOM) : m.amount;
      if (amount === 0n) return by('topup.withdraw.nothing', H.topupNoBalance('nothing to withdraw'));
      if (!s.subCoins(m.from, [{ denom: FEE_DENOM, amount }]))
        return by('topup.withdraw.too-much', SDK.insufficientCoins('balance below the amount'));
      s.dividends.set(idKey(v.id), (s.dividends.get(idKey(v.id)) ?? 0n) + amount);
      return ACCEPTED;
    }
    case 'sidechain/MsgProposeSpan':
      return spanChecks(s, p, m) ?? ACCEPTED;
    case 'clerk/MsgEventRecord':
      if (s.records.has(idKey(m.id))) return by('clerk.record.id-exists', H.recordSynced(`record ${m.id} exists`));
      if (m.sidechainChainId !== p.sidechainChainId)
        return by('clerk.record.chain-id', H.badChainId(`sidechain chain id ${m.sidechainChainId}`));
      return s.seen('clerk', m.txHash, m.logIndex)
        ? by('clerk.record.replay', H.oldTx('event already recorded'))
        : ACCEPTED;
  }
}

/**
 * A no-ack (heimdall.md §3.4, post-Aalborg): only once the buffer time has passed since the last
 * acked checkpoint; only from one of the next `count` proposers after the current one, where
 * `count` is the number of whole buffer times passed; at most one per buffer time; then the
 * proposer rotates by one. The buffer is left alone.
 */
function noAck(s: ModelState, from: string, b: BlockContext): Outcome {
  const bufferMs = b.params.checkpointBufferTimeMs;
  const now = BigInt(b.timeMs);
  const lastMs = (s.lastCheckpoint()?.checkpoint.timestampS ?? 0n) * 1000n;
  if (lastMs > now || now - lastMs < bufferMs)
    return by('checkpoint.noack.after-buffer-time', H.invalidNoAck('within the buffer time of the last checkpoint'));
  const count = (now - lastMs) / bufferMs;
  const probe = s.set();
  if (probe.indexOf(from) < 0)
    return by('checkpoint.noack.sender', H.invalidNoAck('the sender is not in the validator set'));
  probe.increment(1);
  let allowed = false;
  for (let i = 0n; i < count; i++) {
    if (probe.proposer === from) {
      allowed = true;
      break;
    }
    probe.increment(1);
  }
  if (!allowed)
    return by('checkpoint.noack.sender', H.invalidNoAck(`the sender is not among the next ${count} proposers`));
  const lastNoAckMs = s.get('lastNoAckS') * 1000n;
  if (lastNoAckMs > now || now - lastNoAckMs < bufferMs)
    return by('checkpoint.noack.too-many', H.tooManyNoAck('a no-ack within the buffer time'));
  s.put('lastNoAckS', seconds(b.timeMs));
  b.effects.add('checkpoint.noack.keeps-buffer');
  const set = s.set();
  set.increment(1);
  s.put('validatorSet', set);
  return ACCEPTED;
}
