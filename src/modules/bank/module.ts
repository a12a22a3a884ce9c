/** The bank module: sends between accounts (MsgSend, MsgMultiSend) and whether sends are enabled. */
import { type Module } from '../framework/module';
import { BankErrors } from './errors';
import { BANK_GENESIS, type BankGenesis } from './genesis';
import { BANK_INVARIANTS } from './invariants';
import { getBankParams } from './keeper';
import { MsgMultiSendDef, MsgSendDef } from './msgs';
import { type BankParams, bankParamsJson, DEFAULT_BANK_PARAMS } from './params';
import { BANK_QUERIES } from './queries';

export const bankModule: Module<BankGenesis, BankParams> = {
  name: 'bank',
  msgs: [MsgSendDef, MsgMultiSendDef],
  queries: BANK_QUERIES,
  genesis: BANK_GENESIS,
  errors: BankErrors,
  params: { defaults: DEFAULT_BANK_PARAMS, read: getBankParams, json: bankParamsJson },
  invariants: BANK_INVARIANTS,
};
