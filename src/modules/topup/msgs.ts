/**
 * MsgTopup mints the parent-chain TopUpFee once per (tx_hash, log_index) and pays the relayer the
 * fixed fee from it (reference §5, README items 20-21); a repeat fails with code 1401 in codespace
 * `topup` and the text `Older invalid tx found`. MsgWithdrawFee moves coins into the validator's
 * dividend account, which the next checkpoint's accountRootHash carries.
 */
import { SdkErrors } from '../framework/errors';
import { StakingErrors } from '../staking/errors';
import { TopupErrors } from './errors';
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { err } from '../../core/errors';
import { type MsgDef, OK, rejected, type Ctx } from '../framework/msgDef';
import { addr, asObject, hexN, noExtraKeys, uint64, uint256, field } from '../framework/decode';
import { getChainParams } from '../chain/keeper';
import { sendEnabled, addCoins, sendCoins, subCoins } from '../bank/keeper';
import { getValidator, getValidatorBySigner } from '../staking/keeper';
import { FEE_DENOM, DEFAULT_AUTH_PARAMS } from '../auth/params';
import { balanceOf } from '../auth/keeper';
import { addFeeToDividendAccount, isTopupReplay, markTopup } from './keeper';
import { parseUint } from '../../core/amount';

const P = 'tx.msg.value';

/** The relayer's reward moved out of each top-up (reference DefaultFeeWantedPerTx = 10^15). */
export const FEE_WANTED_PER_TX = DEFAULT_AUTH_PARAMS.txFees;

export interface MsgTopup {
  fromAddress: Address;
  id: bigint;
  txHash: Hex;
  logIndex: bigint;
}

interface TopupObservation {
  user: Address;
  fee: bigint;
  blockNumber: bigint;
}

function checkTopup(ctx: Ctx, m: MsgTopup) {
  if (!sendEnabled(ctx.store)) return rejected(TopupErrors.SendDisabled);
  if (isTopupReplay(ctx.store, m.txHash, m.logIndex)) return rejected(TopupErrors.OldTx);
  return OK;
}

/** What a node reports of a delivered topup message (src/node/observations.ts). */
export type TopupMsgFact =
  | { type: 'topup/MsgTopup'; fromAddress: Address; id: bigint; txHash: Hex; logIndex: bigint }
  | { type: 'topup/MsgWithdrawFee'; fromAddress: Address; amount: bigint };

export const MsgTopupDef: MsgDef<MsgTopup> = {
  type: 'topup/MsgTopup',
  name: 'MsgTopup',
  fact: (m): TopupMsgFact => ({
    type: 'topup/MsgTopup',
    fromAddress: m.fromAddress,
    id: m.id,
    txHash: m.txHash,
    logIndex: m.logIndex,
  }),
  // POST /topup/fee: `{base_req, id, tx_hash, log_index}`; the sender is `base_req.from` (README item
  // 20: the validator id replaces the reference's user, fee and block number).
  prepare: {
    path: '/topup/fee',
    fromBody: (b, from) => ({
      fromAddress: from,
      id: uint64(b, 'id', 'body'),
      txHash: hexN(b, 'tx_hash', 'body', 32),
      logIndex: uint64(b, 'log_index', 'body'),
    }),
  },
  route: 'topup',
  msgType: 'topup',
  decode(value) {
    const o = asObject(value, P);
    noExtraKeys(o, ['from_address', 'id', 'tx_hash', 'log_index'], P);
    return {
      fromAddress: addr(o, 'from_address', P),
      id: uint64(o, 'id', P),
      txHash: hexN(o, 'tx_hash', P, 32),
      logIndex: uint64(o, 'log_index', P),
    };
  },
  encode: (m) => ({ from_address: m.fromAddress, id: m.id, tx_hash: m.txHash, log_index: m.logIndex }),
  signer: (m) => m.fromAddress,
  handle: checkTopup,
  side: {
    vote(m, state, observers) {
      const ev = observers.parent.event(m.txHash, m.logIndex, getChainParams(state).parentChainTxConfirmations);
      if (ev === null) return { result: 'skip', reason: 'event not found or not yet confirmed' };
      if (ev.name !== 'TopUpFee') return { result: 'no', reason: `expected TopUpFee, found ${ev.name}` };
      const v = getValidator(state, m.id);
      if (!v) return { result: 'no', reason: `no validator ${m.id}` };
      // README item 20 (decided): the event's user must be the signer of validator `id`.
      if (ev.user !== v.signer) return { result: 'no', reason: 'top-up user is not the signer of the validator' };
      const obs: TopupObservation = { user: ev.user, fee: ev.fee, blockNumber: ev.blockNumber };
      return { result: 'yes', observation: obs };
    },
    post(ctx, m, observation) {
      const o = observation as TopupObservation;
      const c = checkTopup(ctx, m);
      if (!c.ok) return c;
      addCoins(ctx.store, o.user, [{ denom: FEE_DENOM, amount: o.fee }]);
      const e = sendCoins(ctx.store, o.user, m.fromAddress, [{ denom: FEE_DENOM, amount: FEE_WANTED_PER_TX }]);
      if (e) return rejected(e);
      markTopup(ctx.store, m.txHash, m.logIndex);
      ctx.events.push({
        type: 'topup',
        attributes: {
          sender: m.fromAddress,
          recipient: o.user,
          'topup-amount': o.fee.toString(),
          'tx-hash': m.txHash,
          'log-index': m.logIndex.toString(),
        },
      });
      return OK;
    },
  },
};

export interface MsgWithdrawFee {
  fromAddress: Address;
  /** 0 = the whole balance. */
  amount: bigint;
}

export const MsgWithdrawFeeDef: MsgDef<MsgWithdrawFee> = {
  type: 'topup/MsgWithdrawFee',
  name: 'MsgWithdrawFee',
  fact: (m): TopupMsgFact => ({ type: 'topup/MsgWithdrawFee', fromAddress: m.fromAddress, amount: m.amount }),
  // POST /topup/withdraw: `{base_req, amount}`; an empty or missing amount is 0, "withdraw everything".
  prepare: {
    path: '/topup/withdraw',
    fromBody: (b, from) => {
      const empty = b.amount === undefined || b.amount === null || b.amount === '';
      return { fromAddress: from, amount: empty ? 0n : uint256(b, 'amount', 'body') };
    },
  },
  route: 'topup',
  msgType: 'withdraw',
  decode(value) {
    const o = asObject(value, P);
    noExtraKeys(o, ['from_address', 'amount'], P);
    const amount = field(o, 'amount', P);
    return {
      fromAddress: addr(o, 'from_address', P),
      amount: typeof amount === 'string' && amount === '' ? 0n : parseUint(amount, `${P}.amount`),
    };
  },
  encode: (m) => ({ from_address: m.fromAddress, amount: m.amount }),
  signer: (m) => m.fromAddress,
  handle(ctx, m) {
    const v = getValidatorBySigner(ctx.store, m.fromAddress);
    if (!v) return rejected(err(StakingErrors.NoValidator, `Validator information not found for ${m.fromAddress}`));
    const amount = m.amount === 0n ? balanceOf(ctx.store, m.fromAddress, FEE_DENOM) : m.amount;
    if (amount === 0n) return rejected(TopupErrors.NoBalanceToWithdraw);
    const e = subCoins(ctx.store, m.fromAddress, [{ denom: FEE_DENOM, amount }]);
    if (e) return rejected(e.code === SdkErrors.InsufficientCoins.code ? e : e);
    const acc = addFeeToDividendAccount(ctx.store, v.id, amount);
    ctx.events.push({
      type: 'fee-withdraw',
      attributes: {
        'validator-id': v.id.toString(),
        user: m.fromAddress,
        amount: amount.toString(),
        'fee-amount': acc.feeAmount.toString(),
      },
    });
    return OK;
  },
};
