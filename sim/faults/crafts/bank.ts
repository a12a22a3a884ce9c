/**
 * Byzantine crafts for the bank module: sends and multi-sends that break a message's own checks
 * (no coins, inputs and outputs that do not match, two signers: `sdk` 11, `bank` 102, `sdk` 4) or
 * move more than the sender has after the fee (`sdk` 10, or `bank` 101 while sends are disabled: the
 * handler checks `sendenabled` before it moves a coin).
 */
import { balanceOf } from '../../../src/modules/auth/keeper';
import { FEE_DENOM } from '../../../src/modules/auth/params';
import { sendEnabled } from '../../../src/modules/bank/keeper';
import { MsgMultiSendDef, MsgSendDef } from '../../../src/modules/bank/msgs';
import {
  BALANCES,
  type ByzantineExpect,
  type Craft,
  type CraftEnv,
  INSUFFICIENT_COINS,
  INVALID_COINS,
  UNAUTHORIZED,
  bank,
  canPay,
  dust,
  one1,
  sign,
  when,
} from './craftKit';

export const BANK_CRAFTS = {
  // --- a message's own checks (ValidateBasic) ---
  sendNoCoins: (env) =>
    one1(sign(env, MsgSendDef, { fromAddress: env.me.address, toAddress: env.me.address, amount: [] }), INVALID_COINS),
  multiSendMismatch: (env) =>
    one1(
      sign(env, MsgMultiSendDef, {
        inputs: [{ address: env.me.address, coins: [{ denom: FEE_DENOM, amount: 2n }] }],
        outputs: [{ address: env.rich.address, coins: [{ denom: FEE_DENOM, amount: 1n }] }],
      }),
      bank(102),
    ),
  multiSendNoInputs: (env) =>
    one1(
      sign(env, MsgMultiSendDef, {
        inputs: [],
        outputs: [{ address: env.rich.address, coins: [{ denom: FEE_DENOM, amount: 1n }] }],
      }),
      bank(102),
    ),
  multiSendNoOutputs: (env) =>
    one1(
      sign(env, MsgMultiSendDef, {
        inputs: [{ address: env.me.address, coins: [{ denom: FEE_DENOM, amount: 1n }] }],
        outputs: [],
      }),
      bank(102),
    ),
  multiSendTwoSigners: (env) =>
    one1(
      sign(env, MsgMultiSendDef, {
        inputs: [
          { address: env.me.address, coins: [{ denom: FEE_DENOM, amount: 1n }] },
          { address: env.rich.address, coins: [{ denom: FEE_DENOM, amount: 1n }] },
        ],
        outputs: [{ address: env.me.address, coins: [{ denom: FEE_DENOM, amount: 2n }] }],
      }),
      UNAUTHORIZED,
    ),

  // --- the handler ---
  sendOverBalance: when(BALANCES, (env) => {
    if (!canPay(env)) return null;
    // Its whole balance: after the fee it has less than that.
    const all = balanceOf(env.state, env.me.address, FEE_DENOM);
    return one1(sign(env, MsgSendDef, dust(env.me.address, env.rich.address, all)), overBalance(env));
  }),
  multiSendOverBalance: when(BALANCES, (env) => {
    if (!canPay(env)) return null;
    const all = balanceOf(env.state, env.me.address, FEE_DENOM);
    return one1(
      sign(env, MsgMultiSendDef, {
        inputs: [{ address: env.me.address, coins: [{ denom: FEE_DENOM, amount: all }] }],
        outputs: [{ address: env.rich.address, coins: [{ denom: FEE_DENOM, amount: all }] }],
      }),
      overBalance(env),
    );
  }),
} satisfies Record<string, Craft>;

/** What a send of more than the sender has gets: the handler refuses a disabled send first. */
function overBalance(env: CraftEnv): ByzantineExpect {
  return sendEnabled(env.state) ? INSUFFICIENT_COINS : bank(101);
}
