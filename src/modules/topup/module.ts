/** The topup module: fee top-ups minted from the parent chain (MsgTopup) and withdrawals into dividend accounts. */
import { type EmptyGenesis } from '../framework/emptyGenesis';
import { type Module } from '../framework/module';
import { TopupErrors } from './errors';
import { TOPUP_GENESIS } from './genesis';
import { TOPUP_INVARIANTS } from './invariants';
import { MsgTopupDef, MsgWithdrawFeeDef } from './msgs';
import { TOPUP_PARAMS } from './params';
import { TOPUP_QUERIES } from './queries';

export const topupModule: Module<EmptyGenesis, null> = {
  name: 'topup',
  msgs: [MsgTopupDef, MsgWithdrawFeeDef],
  queries: TOPUP_QUERIES,
  genesis: TOPUP_GENESIS,
  errors: TopupErrors,
  params: TOPUP_PARAMS,
  invariants: TOPUP_INVARIANTS,
};
