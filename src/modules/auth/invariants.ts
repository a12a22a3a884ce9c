/** What the auth module's state always satisfies: account numbers are unique and already handed out. */
import { type Invariant } from '../framework/module';
import { allAccounts, nextAccountNumber } from './keeper';

export const AUTH_INVARIANTS: readonly Invariant[] = [
  {
    name: 'accountNumbers',
    check(store) {
      const next = nextAccountNumber(store);
      const seen = new Set<bigint>();
      for (const a of allAccounts(store)) {
        if (a.accountNumber >= next) return `account ${a.address} has number ${a.accountNumber}, next is ${next}`;
        if (seen.has(a.accountNumber)) return `account number ${a.accountNumber} is used twice`;
        seen.add(a.accountNumber);
      }
      return null;
    },
  },
];
