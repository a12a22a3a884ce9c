/**
 * What the checkpoints always satisfy: one acked checkpoint per ack, the acked ones continue each
 * other from sidechain block 0, and a buffered checkpoint continues the last acked one.
 */
import { type Invariant } from '../framework/module';
import { allCheckpoints, getAckCount, getBuffer } from './keeper';

export const CHECKPOINT_INVARIANTS: readonly Invariant[] = [
  {
    name: 'contiguous',
    check(store) {
      const acked = allCheckpoints(store);
      const count = getAckCount(store);
      if (BigInt(acked.length) !== count) return `${acked.length} acked checkpoints, ack count ${count}`;
      let next = 0n;
      for (const { number, checkpoint: c } of acked) {
        if (c.startBlock !== next) return `checkpoint ${number} starts at ${c.startBlock}, expected ${next}`;
        if (c.endBlock < c.startBlock) return `checkpoint ${number} ends (${c.endBlock}) before it starts`;
        next = c.endBlock + 1n;
      }
      const buf = getBuffer(store);
      if (buf && buf.startBlock !== next)
        return `the buffered checkpoint starts at ${buf.startBlock}, expected ${next}`;
      return null;
    },
  },
];
