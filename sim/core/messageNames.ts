/**
 * The names the testbed gives the service's messages: the spec's name of each message type of
 * the client table, by the amino name a transaction carries (the order is the client table's),
 * and the name of bytes that decode to no transaction. Scenario files, reports and campaign
 * summaries all use these names.
 */
/** The client table's message types, by the amino name a delivered tx carries, in the spec's names. */
export const MESSAGE_NAMES: ReadonlyMap<string, string> = new Map([
  ['cosmos-sdk/MsgSend', 'MsgSend'],
  ['cosmos-sdk/MsgMultiSend', 'MsgMultiSend'],
  ['topup/MsgTopup', 'MsgTopup'],
  ['topup/MsgWithdrawFee', 'MsgWithdrawFee'],
  ['staking/MsgValidatorJoin', 'MsgValidatorJoin'],
  ['staking/MsgStakeUpdate', 'MsgStakeUpdate'],
  ['staking/MsgValidatorExit', 'MsgValidatorExit'],
  ['staking/MsgSignerUpdate', 'MsgSignerUpdate'],
  ['checkpoint/MsgCheckpoint', 'MsgCheckpoint'],
  ['checkpoint/MsgCheckpointACK', 'MsgCheckpointAck'],
  ['checkpoint/MsgCheckpointNoACK', 'MsgCheckpointNoAck'],
  ['sidechain/MsgProposeSpan', 'MsgProposeSpan'],
  ['clerk/MsgEventRecord', 'MsgEventRecord'],
]);

/** Bytes a block carried that do not decode to a transaction. */
export const UNDECODABLE = 'undecodable';
