/**
 * Byzantine crafts for the checkpoint module: checkpoints with a made-up root or account root, a
 * zero root or proposer, a bad range, after a gap, inside the last range, not from the proposer or
 * while one is buffered; acks with nothing buffered or of another header block; no-acks too early,
 * from outside the set, too soon after the last one or from the proposer one rotation past the
 * next `count` (codespace `1`, or side 5502).
 */
import {
  getBuffer,
  getCheckpointParams,
  getLastCheckpoint,
  getLastNoAck,
} from '../../../src/modules/checkpoint/keeper';
import { MsgCheckpointAckDef, MsgCheckpointDef, MsgCheckpointNoAckDef } from '../../../src/modules/checkpoint/msgs';
import { getValidatorSet } from '../../../src/modules/staking/keeper';
import { ZERO_ADDRESS } from '../../../src/core/address';
import {
  CHECKPOINTS,
  type Craft,
  type CraftEnv,
  INVALID_MSG,
  SIDE_REFUSED,
  canPay,
  isCheckpointProposer,
  madeUpHash,
  nextCheckpoint,
  one,
  one1,
  sign,
  when,
  withRich,
  zeros,
} from './craftKit';

/** A buffered checkpoint that stays in the buffer for a while yet (the buffer time minus a margin). */
function liveBuffer(env: CraftEnv): boolean {
  const buf = getBuffer(env.state);
  if (!buf) return false;
  const ageMs = BigInt(env.timeMs) - buf.timestamp * 1000n;
  return ageMs + 10_000n < getCheckpointParams(env.state).checkpointBufferTimeMs;
}

export const CHECKPOINT_CRAFTS = {
  // --- kinds of the fault's first version (their names are kept) ---
  earlyNoAck: when(CHECKPOINTS, (env) => {
    // Early: within the buffer time of the last acked checkpoint (less a margin).
    const last = getLastCheckpoint(env.state);
    const bufferMs = getCheckpointParams(env.state).checkpointBufferTimeMs;
    if (!last || !canPay(env) || BigInt(env.timeMs) - last.checkpoint.timestamp * 1000n + 10_000n >= bufferMs)
      return null;
    return one1(sign(env, MsgCheckpointNoAckDef, { from: env.me.address }), one(1505));
  }),
  wrongRootCheckpoint: when(CHECKPOINTS, (env) => {
    if (getBuffer(env.state) || !canPay(env)) return null;
    const c = nextCheckpoint(env);
    const msg = { ...c, rootHash: madeUpHash(`not the root of ${c.startBlock}..${c.endBlock}`) };
    // The proposer's gets through DeliverTx and the validators vote no; anyone else's is refused there.
    return one1(sign(env, MsgCheckpointDef, msg), isCheckpointProposer(env) ? SIDE_REFUSED : INVALID_MSG);
  }),
  wrongRangeCheckpoint: when(CHECKPOINTS, (env) => {
    if (getBuffer(env.state) || !canPay(env)) return null;
    // One block after the next start: discontinuous (1510), or not from 0 before the first (1501).
    const expect = getLastCheckpoint(env.state) ? one(1510) : one(1501);
    return one1(sign(env, MsgCheckpointDef, nextCheckpoint(env, 1n)), expect);
  }),

  // --- a message's own checks (ValidateBasic) ---
  checkpointZeroRoot: (env) =>
    one1(sign(env, MsgCheckpointDef, { ...nextCheckpoint(env), rootHash: zeros(32) }), INVALID_MSG),
  checkpointZeroProposer: (env) =>
    one1(sign(env, MsgCheckpointDef, { ...nextCheckpoint(env), proposer: ZERO_ADDRESS }), INVALID_MSG),
  checkpointBadRange(env) {
    const c = nextCheckpoint(env);
    return one1(sign(env, MsgCheckpointDef, { ...c, endBlock: c.startBlock }), INVALID_MSG);
  },

  // --- the handlers: checkpoints, acks and no-acks ---
  checkpointWhileBuffered: when(CHECKPOINTS, (env) => {
    if (!liveBuffer(env) || !canPay(env)) return null;
    return one1(sign(env, MsgCheckpointDef, nextCheckpoint(env)), one(1503));
  }),
  checkpointOld: when(CHECKPOINTS, (env) => {
    const last = getLastCheckpoint(env.state);
    if (!last || getBuffer(env.state) || !canPay(env)) return null;
    // Starts inside the last acked range: already received (1509).
    const c = nextCheckpoint(env);
    const start = last.checkpoint.startBlock;
    return one1(sign(env, MsgCheckpointDef, { ...c, startBlock: start, endBlock: c.endBlock }), one(1509));
  }),
  checkpointWrongAccountRoot: when(CHECKPOINTS, (env) => {
    if (getBuffer(env.state) || !canPay(env)) return null;
    return one1(
      sign(env, MsgCheckpointDef, { ...nextCheckpoint(env), accountRootHash: madeUpHash('not the account root') }),
      one(1501),
    );
  }),
  checkpointInvalidProposer: when(CHECKPOINTS, (env) => {
    if (getBuffer(env.state) || isCheckpointProposer(env) || !canPay(env)) return null;
    return one1(sign(env, MsgCheckpointDef, nextCheckpoint(env)), INVALID_MSG);
  }),
  ackWithoutBuffer: when(CHECKPOINTS, (env) => {
    if (getBuffer(env.state) || !canPay(env)) return null;
    const last = getLastCheckpoint(env.state);
    return one1(
      sign(env, MsgCheckpointAckDef, {
        from: env.me.address,
        headerBlock: last?.number ?? 1n,
        txHash: env.fresh(),
        logIndex: 0n,
      }),
      one(1502),
    );
  }),
  ackMismatch: when(CHECKPOINTS, (env) => {
    // An ack of a header block that is not the buffered checkpoint (the last acked one, or none):
    // DeliverTx takes it, the validators compare it with the parent chain and vote it down.
    if (!liveBuffer(env) || !canPay(env)) return null;
    const last = getLastCheckpoint(env.state);
    return one1(
      sign(env, MsgCheckpointAckDef, {
        from: env.me.address,
        headerBlock: last?.number ?? 999_999n,
        txHash: env.fresh(),
        logIndex: 0n,
      }),
      SIDE_REFUSED,
    );
  }),
  noAckOutsider: (env) =>
    // From an account outside the validator set: early (1505) or not among the next proposers (1505).
    withRich(env, () =>
      one1(sign(env, MsgCheckpointNoAckDef, { from: env.rich.address }, { as: env.rich }), one(1505)),
    ),
  noAckTooMany: when(CHECKPOINTS, (env) => {
    // A no-ack from one of the next proposers, on time, but within the buffer time of the last
    // no-ack (1506). Whether the sender is one of the next `count` proposers is read off the stored
    // set's own rotation (count = whole buffer times since the last checkpoint), at the block's time.
    const bufferMs = getCheckpointParams(env.state).checkpointBufferTimeMs;
    const now = BigInt(env.timeMs);
    const lastMs = (getLastCheckpoint(env.state)?.checkpoint.timestamp ?? 0n) * 1000n;
    const lastNoAckMs = getLastNoAck(env.state) * 1000n;
    if (now - lastMs < bufferMs || lastNoAckMs === 0n || now - lastNoAckMs >= bufferMs || !canPay(env)) return null;
    const set = getValidatorSet(env.state).copy();
    let allowed = false;
    for (let i = 0n; i < (now - lastMs) / bufferMs && !allowed; i++) {
      set.incrementProposerPriority(1);
      allowed = set.proposer?.address === env.me.address;
    }
    if (!allowed) return null;
    return one1(sign(env, MsgCheckpointNoAckDef, { from: env.me.address }), one(1506));
  }),
  noAckTooFar: when(CHECKPOINTS, (env) => {
    // A no-ack on time from a validator that is not one of the next `count` proposers (count =
    // whole buffer times since the last checkpoint) but the one right after them: a rotation that
    // went one step too far would take it (1505, an invalid no-ack proposer). Made only when the
    // sender is that one, on the stored set's own rotation at the block's time.
    const bufferMs = getCheckpointParams(env.state).checkpointBufferTimeMs;
    const now = BigInt(env.timeMs);
    const lastMs = (getLastCheckpoint(env.state)?.checkpoint.timestamp ?? 0n) * 1000n;
    if (now < lastMs || now - lastMs < bufferMs || !canPay(env)) return null;
    const count = (now - lastMs) / bufferMs;
    const set = getValidatorSet(env.state).copy();
    // Past a few rotations of the set every validator is among the next proposers.
    if (count > BigInt(2 * set.size)) return null;
    for (let i = 0n; i < count; i++) {
      set.incrementProposerPriority(1);
      if (set.proposer?.address === env.me.address) return null;
    }
    set.incrementProposerPriority(1);
    if (set.proposer?.address !== env.me.address) return null;
    return one1(sign(env, MsgCheckpointNoAckDef, { from: env.me.address }), one(1505));
  }),
} satisfies Record<string, Craft>;
