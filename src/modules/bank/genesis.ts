/** The bank module's genesis section: whether sends are enabled (`app_state.bank`). */
import { asObject, bool, noExtraKeys } from '../framework/decode';
import { type ModuleGenesis } from '../framework/module';
import { getBankParams, setSendEnabled } from './keeper';
import { type BankParams, bankParamsJson, DEFAULT_BANK_PARAMS } from './params';

export type BankGenesis = BankParams;

export const BANK_GENESIS: ModuleGenesis<BankGenesis> = {
  key: 'bank',
  defaults: () => DEFAULT_BANK_PARAMS,
  decode(value, path) {
    const o = asObject(value ?? {}, path);
    noExtraKeys(o, ['send_enabled'], path);
    return {
      sendEnabled: o.send_enabled === undefined ? DEFAULT_BANK_PARAMS.sendEnabled : bool(o, 'send_enabled', path),
    };
  },
  init: (store, g) => setSendEnabled(store, g.sendEnabled),
  export: (store) => bankParamsJson(getBankParams(store)),
};
