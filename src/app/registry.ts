/** Every message the service handles, by amino type name. */
import { type MsgDef } from '../modules/framework/msgDef';
import { MsgSendDef, MsgMultiSendDef } from '../modules/bank/msgs';
import {
  MsgValidatorJoinDef,
  MsgStakeUpdateDef,
  MsgValidatorExitDef,
  MsgSignerUpdateDef,
} from '../modules/staking/msgs';
import { MsgProposeSpanDef } from '../modules/span/msgs';
import { MsgCheckpointDef, MsgCheckpointAckDef, MsgCheckpointNoAckDef } from '../modules/checkpoint/msgs';
import { MsgTopupDef, MsgWithdrawFeeDef } from '../modules/topup/msgs';
import { MsgEventRecordDef } from '../modules/clerk/msgs';

export const MSG_DEFS: readonly MsgDef[] = [
  MsgSendDef,
  MsgMultiSendDef,
  MsgValidatorJoinDef,
  MsgStakeUpdateDef,
  MsgValidatorExitDef,
  MsgSignerUpdateDef,
  MsgProposeSpanDef,
  MsgCheckpointDef,
  MsgCheckpointAckDef,
  MsgCheckpointNoAckDef,
  MsgTopupDef,
  MsgWithdrawFeeDef,
  MsgEventRecordDef,
];

export const MSG_REGISTRY: ReadonlyMap<string, MsgDef> = new Map(MSG_DEFS.map((d) => [d.type, d]));
