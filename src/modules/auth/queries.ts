/** The auth module's reads: an account, its number and sequence, and the params (spec REST table). */
import { fromHex } from '../../core/bytes';
import { accountCoins, coinsJson } from '../bank/coins';
import { failed, found, type QueryRoute } from '../framework/query';
import { addressArg } from '../framework/queryArgs';
import { getAccount } from './keeper';
import { authParamsJson } from './params';
import { getAuthParams } from './keeper';

export const AUTH_QUERIES: readonly QueryRoute[] = [
  {
    name: 'auth.sequence',
    path: /^\/auth\/accounts\/([^/]+)\/sequence$/,
    handle(q, [a]) {
      const address = addressArg(a!);
      if (!address) return failed('badArgument', 'Invalid address');
      const acc = getAccount(q.store, address);
      return found({
        address,
        account_number: (acc?.accountNumber ?? 0n).toString(),
        sequence: (acc?.sequence ?? 0n).toString(),
      });
    },
  },
  {
    name: 'auth.account',
    path: /^\/auth\/accounts\/([^/]+)$/,
    handle(q, [a]) {
      const address = addressArg(a!);
      if (!address) return failed('badArgument', 'Invalid address');
      const acc = getAccount(q.store, address);
      return found({
        type: 'auth/Account',
        value: {
          address,
          coins: coinsJson(accountCoins(acc?.coins ?? {})),
          public_key: acc?.pubKey
            ? { type: 'tendermint/PubKeySecp256k1', value: Buffer.from(fromHex(acc.pubKey)).toString('base64') }
            : null,
          account_number: (acc?.accountNumber ?? 0n).toString(),
          sequence: (acc?.sequence ?? 0n).toString(),
        },
      });
    },
  },
  { name: 'auth.params', path: /^\/auth\/params$/, handle: (q) => found(authParamsJson(getAuthParams(q.store))) },
];
