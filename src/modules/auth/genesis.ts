/** The auth module's genesis section: params and funded accounts (`app_state.auth`). */
import { type Address, parseAddress } from '../../core/address';
import { InputError } from '../../core/errors';
import { accountCoins, type Coin, coinsJson, decodeCoins } from '../bank/coins';
import { addCoins } from '../bank/keeper';
import { asArray, asObject, noExtraKeys } from '../framework/decode';
import { type ModuleGenesis } from '../framework/module';
import { allAccounts, FEE_COLLECTOR, getAuthParams, getOrCreateAccount, setAuthParams } from './keeper';
import { type AuthParams, authParamsJson, DEFAULT_AUTH_PARAMS, decodeAuthParams } from './params';

export interface AuthGenesis {
  params: AuthParams;
  /** Accounts numbered in this order (account numbers come from genesis order). */
  accounts: Array<{ address: Address; coins: Coin[] }>;
}

export const AUTH_GENESIS: ModuleGenesis<AuthGenesis> = {
  key: 'auth',
  defaults: () => ({ params: DEFAULT_AUTH_PARAMS, accounts: [] }),
  decode(value, path) {
    const o = asObject(value ?? {}, path);
    noExtraKeys(o, ['params', 'accounts'], path);
    const params = o.params === undefined ? DEFAULT_AUTH_PARAMS : decodeAuthParams(o.params, `${path}.params`);
    const seen = new Set<string>();
    const accounts = asArray(o.accounts ?? [], `${path}.accounts`).map((item, i) => {
      const p = `${path}.accounts[${i}]`;
      const a = asObject(item, p);
      noExtraKeys(a, ['address', 'coins'], p);
      const address = parseAddress(a.address, `${p}.address`);
      if (seen.has(address)) throw new InputError(`${p}.address`, `duplicate account ${address}`);
      seen.add(address);
      return { address, coins: a.coins === undefined ? [] : decodeCoins(a.coins, `${p}.coins`) };
    });
    return { params, accounts };
  },
  init(store, g) {
    setAuthParams(store, g.params);
    for (const a of g.accounts) {
      getOrCreateAccount(store, a.address);
      if (a.coins.length) addCoins(store, a.address, a.coins);
    }
  },
  export(store) {
    return {
      params: authParamsJson(getAuthParams(store)),
      // In account-number order, so a chain started from the export numbers them the same way.
      accounts: allAccounts(store)
        .filter((a) => a.address !== FEE_COLLECTOR)
        .sort((a, b) => (a.accountNumber < b.accountNumber ? -1 : a.accountNumber > b.accountNumber ? 1 : 0))
        .map((a) => ({ address: a.address, coins: coinsJson(accountCoins(a.coins)) })),
    };
  },
};
