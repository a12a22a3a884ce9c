/**
 * What the bank's balances always satisfy: every stored amount is positive (a zero balance is
 * dropped, Cosmos's NonnegativeBalanceInvariant), and the fee collector is empty after a block
 * (end block pays the block's fees to its proposer).
 */
import { allAccounts, FEE_COLLECTOR } from '../auth/keeper';
import { type Invariant } from '../framework/module';

export const BANK_INVARIANTS: readonly Invariant[] = [
  {
    name: 'positiveBalances',
    check(store) {
      for (const a of allAccounts(store))
        for (const [denom, amount] of Object.entries(a.coins))
          if (amount <= 0n) return `account ${a.address} holds ${amount}${denom}`;
      return null;
    },
  },
  {
    name: 'feesPaidOut',
    check(store) {
      const left = allAccounts(store).find((a) => a.address === FEE_COLLECTOR && Object.keys(a.coins).length > 0);
      return left ? `the fee collector still holds ${JSON.stringify(left.coins, (_k, v) => String(v))}` : null;
    },
  },
];
