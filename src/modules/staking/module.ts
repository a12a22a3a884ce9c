/**
 * The staking module: validators and the validator set, kept in line with the parent chain's
 * staking events (join, stake update, exit, signer update) through side transactions.
 */
import { type Module } from '../framework/module';
import { StakingErrors } from './errors';
import { STAKING_GENESIS, type StakingGenesis } from './genesis';
import { STAKING_INVARIANTS } from './invariants';
import { MsgSignerUpdateDef, MsgStakeUpdateDef, MsgValidatorExitDef, MsgValidatorJoinDef } from './msgs';
import { STAKING_PARAMS } from './params';
import { STAKING_QUERIES } from './queries';

export const stakingModule: Module<StakingGenesis, null> = {
  name: 'staking',
  msgs: [MsgValidatorJoinDef, MsgStakeUpdateDef, MsgValidatorExitDef, MsgSignerUpdateDef],
  queries: STAKING_QUERIES,
  genesis: STAKING_GENESIS,
  errors: StakingErrors,
  params: STAKING_PARAMS,
  invariants: STAKING_INVARIANTS,
};
