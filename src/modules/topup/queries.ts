/** The topup module's reads: the replay check, the dividend account root, one dividend account. */
import { failed, found, type QueryRoute } from '../framework/query';
import { isOldTx, notUint, uintArg } from '../framework/queryArgs';
import { getValidator } from '../staking/keeper';
import { dividendAccountRoot } from './accountRoot';
import { type DividendAccount, getDividendAccount, isTopupSeen } from './keeper';

export function dividendAccountJson(a: DividendAccount): Record<string, unknown> {
  return { ID: Number(a.id), feeAmount: a.feeAmount.toString(), slashedAmount: a.slashedAmount.toString() };
}

export const TOPUP_QUERIES: readonly QueryRoute[] = [
  { name: 'topup.isOldTx', path: /^\/topup\/isoldtx$/, handle: (q) => isOldTx(q, isTopupSeen) },
  {
    name: 'topup.accountRoot',
    path: /^\/topup\/dividend-account-root$/,
    handle: (q) => found({ accountRootHash: dividendAccountRoot(q.store) }),
  },
  {
    name: 'topup.dividendAccount',
    path: /^\/topup\/dividend-account\/([^/]+)$/,
    handle(q, [id]) {
      const n = uintArg(id);
      if (n === null) return notUint(id!);
      if (!getValidator(q.store, n)) return failed('notFound', 'No validator found');
      return found(dividendAccountJson(getDividendAccount(q.store, n)));
    },
  },
];
