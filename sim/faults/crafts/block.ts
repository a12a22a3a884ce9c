/**
 * Byzantine crafts for a block's make-up (the app, codespace `sdk` 12): more gas than a block may
 * hold, and a checkpoint sharing its block with another tx (a block holding a checkpoint holds
 * nothing else). Only a proposer can make these: the fault never gossips them.
 */
import { MsgSendDef } from '../../../src/modules/bank/msgs';
import { MsgCheckpointDef } from '../../../src/modules/checkpoint/msgs';
import { MsgEventRecordDef } from '../../../src/modules/clerk/msgs';
import { getBuffer } from '../../../src/modules/checkpoint/keeper';
import {
  CHECKPOINTS,
  type Craft,
  type CraftEnv,
  type CraftedTx,
  OUT_OF_GAS,
  canPay,
  dust,
  isCheckpointProposer,
  lastRecordId,
  nextCheckpoint,
  sign,
  stateSync,
  viewedCheckpoint,
  when,
  zeros,
} from './craftKit';

export const BLOCK_CRAFTS = {
  blockGasOverLimit(env) {
    // Eleven txs of about 98 KB (981,000 gas each, under a tx's limit): ten fill 9.8 M of the
    // block's 10 M gas, the eleventh does not fit. Valid otherwise: each is delivered (a state-sync
    // record no validator can confirm, voted down later).
    const n = 11;
    if (!canPay(env, BigInt(n))) return null;
    const txs: CraftedTx[] = [];
    const base = lastRecordId(env) + 2000n;
    for (let i = 0; i < n; i++) {
      const hex = sign(env, MsgEventRecordDef, stateSync(env, base + BigInt(i), { data: zeros(48_900) }), {
        seqDelta: BigInt(i),
      });
      if (hex === null) return null;
      txs.push(i === n - 1 ? { hex, expect: OUT_OF_GAS } : { hex, expect: null, setup: true });
    }
    return { txs };
  },
  checkpointAfterTx(env) {
    // A valid send, then a checkpoint: a block holding a checkpoint holds no other transaction.
    if (!canPay(env, 2n)) return null;
    const send = sign(env, MsgSendDef, dust(env.me.address, env.me.address));
    const cp = sign(env, MsgCheckpointDef, nextCheckpoint(env), { seqDelta: 1n });
    if (send === null || cp === null) return null;
    return {
      txs: [
        { hex: send, expect: null, setup: true },
        { hex: cp, expect: OUT_OF_GAS, ifAccepted: 0 },
      ],
    };
  },
  txAfterCheckpoint: when(CHECKPOINTS, (env) => {
    // The checkpoint proposer's own checkpoint (its root as its sidechain view has it), then a valid
    // send: a block holding a checkpoint holds no other transaction. (Also made when the sender's
    // block starts with a checkpoint from its mempool: craftAfterCheckpoint below, byzantineTxs.ts.)
    const c = viewedCheckpoint(env);
    if (getBuffer(env.state) || !isCheckpointProposer(env) || !c.viewed || !canPay(env, 2n)) return null;
    const cp = sign(env, MsgCheckpointDef, c.msg);
    const send = sign(env, MsgSendDef, dust(env.me.address, env.me.address), { seqDelta: 1n });
    if (cp === null || send === null) return null;
    return {
      txs: [
        { hex: cp, expect: null, setup: true },
        { hex: send, expect: OUT_OF_GAS, ifAccepted: 0 },
      ],
    };
  }),
} satisfies Record<string, Craft>;

/**
 * What the sender appends after a checkpoint its block starts with: a valid send, refused (12) as
 * the checkpoint was accepted. `seqDelta` is 1 when the checkpoint is the sender's own.
 */
export function craftAfterCheckpoint(env: CraftEnv, seqDelta: bigint): CraftedTx | null {
  if (!canPay(env, 1n + seqDelta)) return null;
  const hex = sign(env, MsgSendDef, dust(env.me.address, env.me.address), { seqDelta });
  return hex === null ? null : { hex, expect: OUT_OF_GAS, ifAccepted: 0 };
}
