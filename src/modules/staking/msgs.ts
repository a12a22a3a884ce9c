/**
 * Staking messages. Each carries only (id, keys, tx_hash, log_index); amounts, epochs and the new
 * signer come from the parent-chain event at (tx_hash, log_index), which every validator reads in
 * its side handler and which the post handler applies once agreed (README items 16-17).
 * Replay protection: once per (tx_hash, log_index), checked at deliver and at post.
 */
import { CommonErrors } from '../framework/errors';
import { StakingErrors } from './errors';
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { err } from '../../core/errors';
import { ONE_TOKEN } from '../../core/amount';
import { addressOfPublicKey } from '../../core/secp256k1';
import { type MsgDef, type SideVote, OK, rejected, type Ctx } from '../framework/msgDef';
import { addr, asObject, hexN, noExtraKeys, pubKey, uint64 } from '../framework/decode';
import { getChainParams } from '../chain/keeper';
import { type Validator, getValidator, getValidatorBySigner, isSeqSeen, markSeq, setValidator } from './keeper';
import { type ParentEvent } from '../framework/observers';
import { balanceOf } from '../auth/keeper';
import { sendCoins } from '../bank/keeper';
import { FEE_DENOM } from '../auth/params';

const P = 'tx.msg.value';

/** The reference's event sequence, used as `last_updated`. */
export function eventSequence(blockNumber: bigint, logIndex: bigint): bigint {
  return blockNumber * 100000n + logIndex;
}

interface EventRef {
  from: Address;
  id: bigint;
  txHash: Hex;
  logIndex: bigint;
}

function decodeRef(o: Record<string, unknown>): EventRef {
  return {
    from: addr(o, 'from', P),
    id: uint64(o, 'id', P),
    txHash: hexN(o, 'tx_hash', P, 32),
    logIndex: uint64(o, 'log_index', P),
  };
}

function refJson(m: EventRef): Record<string, unknown> {
  return { from: m.from, id: m.id, tx_hash: m.txHash, log_index: m.logIndex };
}

/** Read the confirmed event; skip while it is not final, no if it is something else. */
function readEvent<N extends ParentEvent['name']>(
  name: N,
  m: EventRef,
  state: Parameters<NonNullable<MsgDef['side']>['vote']>[1],
  observers: Parameters<NonNullable<MsgDef['side']>['vote']>[2],
): Extract<ParentEvent, { name: N }> | SideVote {
  const ev = observers.parent.event(m.txHash, m.logIndex, getChainParams(state).parentChainTxConfirmations);
  if (ev === null) return { result: 'skip', reason: 'event not found or not yet confirmed' };
  if (ev.name !== name) return { result: 'no', reason: `expected ${name}, found ${ev.name}` };
  if ((ev as { validatorId?: bigint }).validatorId !== m.id)
    return { result: 'no', reason: 'validator id differs from the event' };
  return ev as Extract<ParentEvent, { name: N }>;
}

function isVote(x: unknown): x is SideVote {
  return typeof x === 'object' && x !== null && 'result' in x;
}

function replayed(ctx: Ctx, m: EventRef) {
  return isSeqSeen(ctx.store, m.txHash, m.logIndex) ? rejected(CommonErrors.OldTx) : null;
}

function signerUpdateEvent(ctx: Ctx, id: bigint, oldSigner: Address, newSigner: Address): void {
  ctx.events.push({ type: 'SignerUpdate', attributes: { validatorId: id.toString(), oldSigner, newSigner } });
}

// --- MsgValidatorJoin ------------------------------------------------------------------------

export interface MsgValidatorJoin extends EventRef {
  pubKey: Hex;
}

interface JoinObservation {
  activationEpoch: bigint;
  amount: bigint;
  blockNumber: bigint;
}

/** What a node reports of a delivered staking message (src/node/observations.ts): a validator's new signer key (65-byte uncompressed public key). */
export type StakingMsgFact = {
  type: 'staking/MsgSignerUpdate';
  from: Address;
  id: bigint;
  pubKey: Hex;
  txHash: Hex;
  logIndex: bigint;
};

export const MsgValidatorJoinDef: MsgDef<MsgValidatorJoin> = {
  type: 'staking/MsgValidatorJoin',
  name: 'MsgValidatorJoin',
  route: 'staking',
  msgType: 'validator-join',
  decode(value) {
    const o = asObject(value, P);
    noExtraKeys(o, ['from', 'id', 'pub_key', 'tx_hash', 'log_index'], P);
    return { ...decodeRef(o), pubKey: pubKey(o, 'pub_key', P) };
  },
  encode: (m) => ({ ...refJson(m), pub_key: m.pubKey }),
  signer: (m) => m.from,
  handle(ctx, m) {
    if (getValidator(ctx.store, m.id)) return rejected(StakingErrors.ValidatorAlreadyJoined);
    if (getValidatorBySigner(ctx.store, addressOfPublicKey(m.pubKey)))
      return rejected(StakingErrors.ValidatorAlreadyJoined);
    return replayed(ctx, m) ?? OK;
  },
  side: {
    vote(m, state, observers) {
      const ev = readEvent('Staked', m, state, observers);
      if (isVote(ev)) return ev;
      if (ev.signerPubkey !== `0x${m.pubKey.slice(4)}`)
        return { result: 'no', reason: 'public key differs from the event' };
      if (ev.signer !== addressOfPublicKey(m.pubKey)) return { result: 'no', reason: 'signer differs from the event' };
      const obs: JoinObservation = {
        activationEpoch: ev.activationEpoch,
        amount: ev.amount,
        blockNumber: ev.blockNumber,
      };
      return { result: 'yes', observation: obs };
    },
    post(ctx, m, observation) {
      const o = observation as JoinObservation;
      const r = replayed(ctx, m);
      if (r) return r;
      const signer = addressOfPublicKey(m.pubKey);
      if (getValidator(ctx.store, m.id) || getValidatorBySigner(ctx.store, signer))
        return rejected(StakingErrors.ValidatorAlreadyJoined);
      if (o.amount < ONE_TOKEN)
        return rejected(err(CommonErrors.InvalidMsg, `Invalid amount ${o.amount} for validator ${m.id}`));
      const v: Validator = {
        id: m.id,
        startEpoch: o.activationEpoch,
        endEpoch: 0n,
        power: o.amount / ONE_TOKEN,
        pubKey: m.pubKey,
        signer,
        lastUpdated: eventSequence(o.blockNumber, m.logIndex),
        jailed: false,
      };
      setValidator(ctx.store, v);
      markSeq(ctx.store, m.txHash, m.logIndex);
      ctx.events.push({
        type: 'validator-join',
        attributes: { 'validator-id': m.id.toString(), signer, power: v.power.toString() },
      });
      return OK;
    },
  },
};

// --- MsgStakeUpdate --------------------------------------------------------------------------

export type MsgStakeUpdate = EventRef;

interface StakeObservation {
  newAmount: bigint;
  blockNumber: bigint;
}

export const MsgStakeUpdateDef: MsgDef<MsgStakeUpdate> = {
  type: 'staking/MsgStakeUpdate',
  name: 'MsgStakeUpdate',
  route: 'staking',
  msgType: 'validator-stake-update',
  decode(value) {
    const o = asObject(value, P);
    noExtraKeys(o, ['from', 'id', 'tx_hash', 'log_index'], P);
    return decodeRef(o);
  },
  encode: refJson,
  signer: (m) => m.from,
  handle(ctx, m) {
    if (!getValidator(ctx.store, m.id)) return rejected(StakingErrors.NoValidator);
    return replayed(ctx, m) ?? OK;
  },
  side: {
    vote(m, state, observers) {
      const ev = readEvent('StakeUpdate', m, state, observers);
      if (isVote(ev)) return ev;
      const obs: StakeObservation = { newAmount: ev.newAmount, blockNumber: ev.blockNumber };
      return { result: 'yes', observation: obs };
    },
    post(ctx, m, observation) {
      const o = observation as StakeObservation;
      const r = replayed(ctx, m);
      if (r) return r;
      const v = getValidator(ctx.store, m.id);
      if (!v) return rejected(StakingErrors.NoValidator);
      if (o.newAmount < ONE_TOKEN)
        return rejected(err(CommonErrors.InvalidMsg, `Invalid amount ${o.newAmount} for validator ${m.id}`));
      setValidator(ctx.store, {
        ...v,
        power: o.newAmount / ONE_TOKEN,
        lastUpdated: eventSequence(o.blockNumber, m.logIndex),
      });
      markSeq(ctx.store, m.txHash, m.logIndex);
      ctx.events.push({
        type: 'stake-update',
        attributes: { 'validator-id': m.id.toString(), power: (o.newAmount / ONE_TOKEN).toString() },
      });
      return OK;
    },
  },
};

// --- MsgValidatorExit ------------------------------------------------------------------------

export type MsgValidatorExit = EventRef;

interface ExitObservation {
  deactivationEpoch: bigint;
  blockNumber: bigint;
}

export const MsgValidatorExitDef: MsgDef<MsgValidatorExit> = {
  type: 'staking/MsgValidatorExit',
  name: 'MsgValidatorExit',
  route: 'staking',
  msgType: 'validator-exit',
  decode(value) {
    const o = asObject(value, P);
    noExtraKeys(o, ['from', 'id', 'tx_hash', 'log_index'], P);
    return decodeRef(o);
  },
  encode: refJson,
  signer: (m) => m.from,
  handle(ctx, m) {
    const v = getValidator(ctx.store, m.id);
    if (!v) return rejected(StakingErrors.NoValidator);
    if (v.endEpoch !== 0n) return rejected(StakingErrors.ValUnbonded);
    return replayed(ctx, m) ?? OK;
  },
  side: {
    vote(m, state, observers) {
      const ev = readEvent('UnstakeInit', m, state, observers);
      if (isVote(ev)) return ev;
      const obs: ExitObservation = { deactivationEpoch: ev.deactivationEpoch, blockNumber: ev.blockNumber };
      return { result: 'yes', observation: obs };
    },
    post(ctx, m, observation) {
      const o = observation as ExitObservation;
      const r = replayed(ctx, m);
      if (r) return r;
      const v = getValidator(ctx.store, m.id);
      if (!v) return rejected(StakingErrors.NoValidator);
      if (v.endEpoch !== 0n) return rejected(StakingErrors.ValUnbonded);
      setValidator(ctx.store, {
        ...v,
        endEpoch: o.deactivationEpoch,
        lastUpdated: eventSequence(o.blockNumber, m.logIndex),
      });
      markSeq(ctx.store, m.txHash, m.logIndex);
      signerUpdateEvent(ctx, m.id, v.signer, v.signer);
      return OK;
    },
  },
};

// --- MsgSignerUpdate -------------------------------------------------------------------------

export interface MsgSignerUpdate extends EventRef {
  /** The new signer's 65-byte public key. */
  pubKey: Hex;
}

interface SignerObservation {
  blockNumber: bigint;
}

export const MsgSignerUpdateDef: MsgDef<MsgSignerUpdate> = {
  type: 'staking/MsgSignerUpdate',
  name: 'MsgSignerUpdate',
  fact: (m): StakingMsgFact => ({
    type: 'staking/MsgSignerUpdate',
    from: m.from,
    id: m.id,
    pubKey: m.pubKey,
    txHash: m.txHash,
    logIndex: m.logIndex,
  }),
  route: 'staking',
  msgType: 'signer-update',
  decode(value) {
    const o = asObject(value, P);
    noExtraKeys(o, ['from', 'id', 'pubKey', 'tx_hash', 'log_index'], P);
    return { ...decodeRef(o), pubKey: pubKey(o, 'pubKey', P) };
  },
  encode: (m) => ({ ...refJson(m), pubKey: m.pubKey }),
  signer: (m) => m.from,
  handle(ctx, m) {
    const v = getValidator(ctx.store, m.id);
    if (!v) return rejected(StakingErrors.NoValidator);
    const r = replayed(ctx, m);
    if (r) return r;
    if (addressOfPublicKey(m.pubKey) === v.signer) return rejected(StakingErrors.NoSignerChange);
    return OK;
  },
  side: {
    vote(m, state, observers) {
      const ev = readEvent('SignerChange', m, state, observers);
      if (isVote(ev)) return ev;
      if (ev.newSigner !== addressOfPublicKey(m.pubKey))
        return { result: 'no', reason: 'new signer differs from the event' };
      if (ev.signerPubkey !== `0x${m.pubKey.slice(4)}`)
        return { result: 'no', reason: 'public key differs from the event' };
      const obs: SignerObservation = { blockNumber: ev.blockNumber };
      return { result: 'yes', observation: obs };
    },
    post(ctx, m, observation) {
      const o = observation as SignerObservation;
      const r = replayed(ctx, m);
      if (r) return r;
      const v = getValidator(ctx.store, m.id);
      if (!v) return rejected(StakingErrors.NoValidator);
      const newSigner = addressOfPublicKey(m.pubKey);
      if (newSigner === v.signer) return rejected(StakingErrors.NoSignerChange);
      if (getValidatorBySigner(ctx.store, newSigner)) return rejected(StakingErrors.ValidatorAlreadyJoined);
      setValidator(ctx.store, {
        ...v,
        signer: newSigner,
        pubKey: m.pubKey,
        lastUpdated: eventSequence(o.blockNumber, m.logIndex),
      });
      // The old signer's whole balance moves to the new signer (heimdall §4.5).
      const balance = balanceOf(ctx.store, v.signer, FEE_DENOM);
      if (balance > 0n) {
        const e = sendCoins(ctx.store, v.signer, newSigner, [{ denom: FEE_DENOM, amount: balance }]);
        if (e) return rejected(e);
      }
      markSeq(ctx.store, m.txHash, m.logIndex);
      signerUpdateEvent(ctx, m.id, v.signer, newSigner);
      return OK;
    },
  },
};
