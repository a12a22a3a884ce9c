/**
 * Byzantine crafts for the topup module: a top-up already minted or of an event that does not
 * exist, and fee withdrawals by an account that is no validator, of more than the sender has, or
 * with nothing left after the fee (`topup` 1401, side 5502, `1` 2501, `sdk` 10, `topup` 104). While
 * sends are disabled DeliverTx refuses every top-up first (`topup` 101), before its event is voted on.
 */
import { balanceOf } from '../../../src/modules/auth/keeper';
import { FEE_DENOM } from '../../../src/modules/auth/params';
import { sendEnabled } from '../../../src/modules/bank/keeper';
import { MsgTopupDef, MsgWithdrawFeeDef } from '../../../src/modules/topup/msgs';
import {
  BALANCES,
  type Craft,
  INSUFFICIENT_COINS,
  SIDE_REFUSED,
  canPay,
  fee,
  myValidatorId,
  one,
  one1,
  sign,
  topup,
  when,
  withRich,
} from './craftKit';

export const TOPUP_CRAFTS = {
  // --- kinds of the fault's first version (their names are kept) ---
  replayedTopup(env) {
    const m = env.seen.minted[env.seen.minted.length - 1];
    if (!m || !canPay(env)) return null;
    return one1(sign(env, MsgTopupDef, { ...m, fromAddress: env.me.address }), topup(1401));
  },

  // --- top-ups of made-up events, fee withdrawals ---
  topupNoEvent(env) {
    const id = myValidatorId(env);
    if (id === null || !canPay(env)) return null;
    return one1(
      sign(env, MsgTopupDef, { fromAddress: env.me.address, id, txHash: env.fresh(), logIndex: 0n }),
      sendEnabled(env.state) ? SIDE_REFUSED : topup(101),
    );
  },
  withdrawNotValidator: (env) =>
    withRich(env, () =>
      one1(sign(env, MsgWithdrawFeeDef, { fromAddress: env.rich.address, amount: 1n }, { as: env.rich }), one(2501)),
    ),
  withdrawOverBalance: when(BALANCES, (env) => {
    if (myValidatorId(env) === null || !canPay(env)) return null;
    const all = balanceOf(env.state, env.me.address, FEE_DENOM);
    return one1(sign(env, MsgWithdrawFeeDef, { fromAddress: env.me.address, amount: all }), INSUFFICIENT_COINS);
  }),
  withdrawNothing: when(BALANCES, (env) => {
    // Withdraw all but two fees (valid), then "the whole balance" with nothing left after the fee
    // (104). The block's fees go to its proposer, the sender: it can pay again afterwards.
    const f = fee(env);
    const all = balanceOf(env.state, env.me.address, FEE_DENOM);
    if (myValidatorId(env) === null || all <= 3n * f) return null;
    const first = sign(env, MsgWithdrawFeeDef, { fromAddress: env.me.address, amount: all - 2n * f });
    const second = sign(env, MsgWithdrawFeeDef, { fromAddress: env.me.address, amount: 0n }, { seqDelta: 1n });
    if (first === null || second === null) return null;
    return {
      txs: [
        { hex: first, expect: null, setup: true },
        { hex: second, expect: topup(104), ifAccepted: 0 },
      ],
    };
  }),
} satisfies Record<string, Craft>;
