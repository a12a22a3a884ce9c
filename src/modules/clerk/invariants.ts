/** What the event records always satisfy: the parent-chain event of each is marked seen (no record twice). */
import { type Invariant } from '../framework/module';
import { allRecords, isClerkSeqSeen } from './keeper';

export const CLERK_INVARIANTS: readonly Invariant[] = [
  {
    name: 'replayKeys',
    check(store) {
      for (const r of allRecords(store)) {
        if (!isClerkSeqSeen(store, r.txHash, r.logIndex))
          return `event record ${r.id}'s event ${r.txHash}/${r.logIndex} is not marked seen`;
      }
      return null;
    },
  },
];
