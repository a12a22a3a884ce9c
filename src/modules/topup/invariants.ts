/** What the dividend accounts always satisfy: each belongs to a known validator and nothing is slashed (not modelled). */
import { type Invariant } from '../framework/module';
import { getValidator } from '../staking/keeper';
import { storedDividendAccounts } from './keeper';

export const TOPUP_INVARIANTS: readonly Invariant[] = [
  {
    name: 'dividendAccounts',
    check(store) {
      for (const a of storedDividendAccounts(store)) {
        if (!getValidator(store, a.id)) return `dividend account ${a.id} has no validator`;
        if (a.slashedAmount !== 0n) return `dividend account ${a.id} is slashed ${a.slashedAmount}`;
      }
      return null;
    },
  },
];
