/**
 * The checkpoint module: checkpoints of sidechain blocks, verified by side vote, buffered, and
 * acked (or timed out with a no-ack) against the parent chain's root chain.
 */
import { type Module } from '../framework/module';
import { CheckpointErrors } from './errors';
import { CHECKPOINT_GENESIS, type CheckpointGenesis } from './genesis';
import { CHECKPOINT_INVARIANTS } from './invariants';
import { getCheckpointParams } from './keeper';
import { MsgCheckpointAckDef, MsgCheckpointDef, MsgCheckpointNoAckDef } from './msgs';
import { type CheckpointParams, checkpointParamsJson, DEFAULT_CHECKPOINT_PARAMS } from './params';
import { CHECKPOINT_QUERIES } from './queries';

export const checkpointModule: Module<CheckpointGenesis, CheckpointParams> = {
  name: 'checkpoint',
  msgs: [MsgCheckpointDef, MsgCheckpointAckDef, MsgCheckpointNoAckDef],
  queries: CHECKPOINT_QUERIES,
  genesis: CHECKPOINT_GENESIS,
  errors: CheckpointErrors,
  params: { defaults: DEFAULT_CHECKPOINT_PARAMS, read: getCheckpointParams, json: checkpointParamsJson },
  invariants: CHECKPOINT_INVARIANTS,
};
