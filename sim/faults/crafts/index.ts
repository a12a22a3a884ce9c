/**
 * What a Byzantine sender crafts, kind by kind (the `byzantineTxs` fault): for every validation
 * rule of the ante handler and of the message handlers, a transaction that breaks it, signed with
 * the sender's key (or a key it made up), and the result the reference gives it when a block
 * delivers it on the state it was crafted on: the ante codes of heimdall.md §6.2-§6.3 and README
 * item 24 (codespace `sdk`), the handler codes of each module's errors (codespaces `1`, `bank`,
 * `topup`), or a side-tx rejection (code 5502: the validators did not vote it through).
 *
 * Each module's kinds live in its own file (as sim/rules/ is split); the shared vocabulary is
 * craftKit.ts. This registry merges them and fixes the order a sender takes them in.
 */
import { ANTE_CRAFTS } from './ante';
import { BANK_CRAFTS } from './bank';
import { BLOCK_CRAFTS } from './block';
import { CHECKPOINT_CRAFTS } from './checkpoint';
import { CLERK_CRAFTS } from './clerk';
import { type Craft, type CraftEnv, type Crafted } from './craftKit';
import { DECODING_CRAFTS } from './decoding';
import { SPAN_CRAFTS } from './span';
import { STAKING_CRAFTS } from './staking';
import { TOPUP_CRAFTS } from './topup';

const CRAFTS = {
  ...ANTE_CRAFTS,
  ...BLOCK_CRAFTS,
  ...DECODING_CRAFTS,
  ...BANK_CRAFTS,
  ...TOPUP_CRAFTS,
  ...STAKING_CRAFTS,
  ...CHECKPOINT_CRAFTS,
  ...SPAN_CRAFTS,
  ...CLERK_CRAFTS,
};

export type ByzantineTx = keyof typeof CRAFTS;

/**
 * The kinds, in the order a sender takes them in turn. The swarm profiles draw from this list by
 * position: the first six are the fault's first version (drawn first, so earlier seeds keep their
 * draws), the others are filtered in this order from a stream of their own. So the order is
 * written down here rather than left to the modules' spread order, and a new kind goes at the end.
 * index.test.ts checks that it names every module's kinds once.
 */
export const BYZANTINE_TXS: readonly ByzantineTx[] = [
  // The first version: checkpoint, span, top-up.
  'earlyNoAck',
  'spanOutsideWindow',
  'spanOutOfSequence',
  'wrongRootCheckpoint',
  'wrongRangeCheckpoint',
  'replayedTopup',
  // The ante handler.
  'wrongChainId',
  'badSignature',
  'staleSequence',
  'futureSequence',
  'wrongAccountNumber',
  'memoTooLong',
  'noSignature',
  'unknownSender',
  'feeUnpaid',
  'txSizeOverGas',
  'txAtGasLimit',
  'txSigGasOverLimit',
  // The block's make-up.
  'blockGasOverLimit',
  'checkpointAfterTx',
  'txAfterCheckpoint',
  // Decoding.
  'badHex',
  'wrongLength',
  'uint64OutOfRange',
  'extraKey',
  'wrongType',
  'notJson',
  'nullTx',
  'nullMsgValue',
  'repeatedDenom',
  'shortHash',
  'unknownMsgType',
  // A message's own checks (ValidateBasic): bank, checkpoint, clerk.
  'sendNoCoins',
  'multiSendMismatch',
  'multiSendNoInputs',
  'multiSendNoOutputs',
  'multiSendTwoSigners',
  'checkpointZeroRoot',
  'checkpointZeroProposer',
  'checkpointBadRange',
  'stateSyncTooBig',
  // The handlers: bank, top-ups, staking, checkpoints, spans, state sync.
  'sendOverBalance',
  'multiSendOverBalance',
  'topupNoEvent',
  'withdrawNotValidator',
  'withdrawOverBalance',
  'withdrawNothing',
  'joinExistingId',
  'joinExistingSigner',
  'joinNoEvent',
  'joinReplayed',
  'stakeUpdateUnknown',
  'stakeUpdateNoEvent',
  'stakeUpdateReplayed',
  'exitUnknown',
  'exitExited',
  'exitNoEvent',
  'signerUpdateUnknown',
  'signerUpdateSame',
  'signerUpdateNoEvent',
  'signerUpdateReplayed',
  'checkpointWhileBuffered',
  'checkpointOld',
  'checkpointWrongAccountRoot',
  'checkpointInvalidProposer',
  'ackWithoutBuffer',
  'ackMismatch',
  'noAckOutsider',
  'noAckTooMany',
  'spanWrongChainId',
  'spanWrongDuration',
  'stateSyncDuplicateId',
  'stateSyncWrongChainId',
  'stateSyncReplayed',
  'stateSyncWrongContract',
  'stateSyncNoEvent',
  // Kinds after the default list was frozen (below): sent only when a file or a draw names them.
  'noAckTooFar',
];

/** The kinds the first version of the fault knew (drawn as they were; the others come from a stream of their own). */
export const FIRST_BYZANTINE_TXS: readonly ByzantineTx[] = BYZANTINE_TXS.slice(0, 6);

/**
 * What a `byzantineTxs` fault without `txs` sends, and what the swarm draws from: the kinds up to
 * `stateSyncNoEvent`, frozen. A kind added later is sent only when named (the explorer draws every
 * kind), so that the suite's files that take the default (every-message.json) and the swarm's
 * seeds keep their trace hashes when a kind is added.
 */
export const DEFAULT_BYZANTINE_TXS: readonly ByzantineTx[] = BYZANTINE_TXS.slice(
  0,
  BYZANTINE_TXS.indexOf('stateSyncNoEvent') + 1,
);

export function craft(kind: ByzantineTx, env: CraftEnv): Crafted | null {
  return (CRAFTS[kind] as Craft)(env);
}
