/** The checkpoint module's codes (Heimdall codespace "1", 1500-1512). */
import { defineErrors, err } from '../../core/errors';

const codes = defineErrors('1', {
  InvalidProposer: [1500, 'Proposer is not valid'],
  BadBlockDetails: [1501, 'Wrong roothash for given start and end block numbers'],
  BadAck: [1502, 'Ack Not Valid'],
  NoAck: [1503, 'Checkpoint Already Exists In Buffer, ACK expected'],
  BadTimestamp: [1504, 'Invalid time stamp. It must be in near past.'],
  InvalidNoAck: [1505, 'Invalid No ACK -- Waiting for last checkpoint ACK'],
  TooManyNoAck: [1506, 'Too many no-acks'],
  LowBalance: [1507, 'Min balance should be greater than 0'],
  NoCheckpointFound: [1508, 'Checkpoint Not Found'],
  OldCheckpoint: [1509, 'Checkpoint already received for given start and end block'],
  DisContinuousCheckpoint: [1510, 'Checkpoint not in continuity'],
  NoCheckpointBuffer: [1511, 'Checkpoint buffer not found'],
  CheckpointBufferFound: [1512, 'Checkpoint buffer found'],
});

export const CheckpointErrors = {
  ...codes,
  /**
   * Heimdall's ErrInvalidNoACKProposer is code 1505 too, with its own text (heimdall.md §3.4 and
   * the code table): one code, two texts, so it is a variant of InvalidNoAck, not a second code.
   */
  InvalidNoAckProposer: err(codes.InvalidNoAck, 'Invalid No ACK Proposer'),
} as const;
