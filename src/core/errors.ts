/**
 * Typed result codes for domain rejections, and `assert` for broken invariants.
 *
 * A domain rejection (a bad transaction, a bad query) is a value: `{ codespace, code, message }`,
 * as in the reference's ABCI log. A broken invariant is a bug in Lockstep itself and throws.
 */

export interface ResultError {
  readonly codespace: string;
  readonly code: number;
  readonly message: string;
}

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ResultError };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(error: ResultError): Result<T> {
  return { ok: false, error };
}

/** The ABCI log string of a failed tx or query: Go `encoding/json` field order, no HTML escaping. */
export function abciLog(e: ResultError): string {
  return `{"codespace":${JSON.stringify(e.codespace)},"code":${e.code},"message":${JSON.stringify(e.message)}}`;
}

/** Build an error with the code's standard text, or a custom text (the reference often formats one). */
export function err(spec: ResultError, message?: string): ResultError {
  return message === undefined ? spec : { codespace: spec.codespace, code: spec.code, message };
}

const sdk = (code: number, message: string): ResultError => ({ codespace: 'sdk', code, message });
const heimdall = (code: number, message: string): ResultError => ({ codespace: '1', code, message });
const topup = (code: number, message: string): ResultError => ({ codespace: 'topup', code, message });

/** SDK root codespace (cosmos-sdk types/errors.go). */
export const SdkErrors = {
  Internal: sdk(1, 'internal error'),
  TxDecode: sdk(2, 'tx parse error'),
  InvalidSequence: sdk(3, 'invalid sequence'),
  Unauthorized: sdk(4, 'unauthorized'),
  InsufficientFunds: sdk(5, 'insufficient funds'),
  UnknownRequest: sdk(6, 'unknown request'),
  InvalidAddress: sdk(7, 'invalid address'),
  InvalidPubKey: sdk(8, 'invalid pubkey'),
  UnknownAddress: sdk(9, 'unknown address'),
  InsufficientCoins: sdk(10, 'insufficient coins'),
  InvalidCoins: sdk(11, 'invalid coins'),
  OutOfGas: sdk(12, 'out of gas'),
  MemoTooLarge: sdk(13, 'memo too large'),
  InsufficientFee: sdk(14, 'insufficient fee'),
  TooManySignatures: sdk(15, 'too many signatures'),
  GasOverflow: sdk(16, 'gas overflow'),
  NoSignatures: sdk(17, 'no signatures'),
} as const;

/** Heimdall's common codespace "1" (common/error.go), the staking, span and clerk codes. */
export const HeimdallErrors = {
  InvalidMsg: heimdall(1400, 'Invalid message'),
  OldTx: heimdall(1401, 'Old txhash not allowed'),
  InvalidProposer: heimdall(1500, 'Proposer is not valid'),
  BadBlockDetails: heimdall(1501, 'Wrong roothash for given start and end block numbers'),
  BadAck: heimdall(1502, 'Ack Not Valid'),
  NoAck: heimdall(1503, 'Checkpoint Already Exists In Buffer, ACK expected'),
  BadTimestamp: heimdall(1504, 'Invalid time stamp. It must be in near past.'),
  InvalidNoAck: heimdall(1505, 'Invalid No ACK -- Waiting for last checkpoint ACK'),
  InvalidNoAckProposer: heimdall(1505, 'Invalid No ACK Proposer'),
  TooManyNoAck: heimdall(1506, 'Too many no-acks'),
  LowBalance: heimdall(1507, 'Min balance should be greater than 0'),
  NoCheckpointFound: heimdall(1508, 'Checkpoint Not Found'),
  OldCheckpoint: heimdall(1509, 'Checkpoint already received for given start and end block'),
  DisContinuousCheckpoint: heimdall(1510, 'Checkpoint not in continuity'),
  NoCheckpointBuffer: heimdall(1511, 'Checkpoint buffer not found'),
  CheckpointBufferFound: heimdall(1512, 'Checkpoint buffer found'),
  NoValidator: heimdall(2501, 'Validator information not found'),
  ValUnbonded: heimdall(2504, 'Validator already unbonded , cannot exit'),
  ValidatorAlreadyJoined: heimdall(2507, 'Validator already joined'),
  WaitForConfirmation: heimdall(2510, 'wait for confirmation time before sending transaction'),
  ValidatorSave: heimdall(2511, 'Cannot save validator'),
  InvalidReceipt: heimdall(2512, 'Invalid receipt'),
  NoSignerChange: heimdall(2513, 'New signer same as old signer'),
  SpanNotContinuous: heimdall(3501, 'Span not continuous'),
  UnableToFreezeValSet: heimdall(3502, 'Unable to freeze validator set for next span'),
  SpanNotFound: heimdall(3503, 'Span not found'),
  ValSetMisMatch: heimdall(3504, 'Validator set mismatch'),
  ProducerMisMatch: heimdall(3505, 'Producer set mismatch'),
  InvalidSidechainChainId: heimdall(3506, 'Invalid Bor chain id'),
  InvalidSpanDuration: heimdall(3507, 'wrong span duration'),
  SpanNotInTurn: heimdall(3508, 'Span proposed is not in-turn'),
  EventRecordAlreadySynced: heimdall(5400, 'Event record already synced'),
  EventRecordInvalid: heimdall(5401, 'Event record is invalid'),
  EventUpdate: heimdall(5402, 'Event record update error'),
  SizeExceed: heimdall(5403, 'Data size exceed'),
  InvalidBlockReceipt: heimdall(5501, 'Invalid block receipt'),
  SideTxValidation: heimdall(5502, 'External call majority validation failed. '),
} as const;

/** Topup codespace (topup/types/errors.go); 1401 carries the spec's text. */
export const TopupErrors = {
  SendDisabled: topup(101, 'send transactions are currently disabled'),
  InvalidTopupMsg: topup(102, 'Invalid topup msg'),
  NoValidatorTopup: topup(103, 'no validator topup'),
  NoBalanceToWithdraw: topup(104, 'No balance to withdraw'),
  OldTx: topup(1401, 'Older invalid tx found'),
} as const;

/** Bank codespace (Heimdall's bank/types/errors.go: 101 send disabled, 102 inputs/outputs). */
export const BankErrors = {
  NoInputs: { codespace: 'bank', code: 102, message: 'no inputs to send transaction' },
  NoOutputs: { codespace: 'bank', code: 102, message: 'no outputs to send transaction' },
  InputOutputMismatch: { codespace: 'bank', code: 102, message: 'sum inputs != sum outputs' },
  SendDisabled: { codespace: 'bank', code: 101, message: 'send transactions are currently disabled' },
} as const satisfies Record<string, ResultError>;

/** Thrown by `assert`: an invariant of Lockstep itself is broken. Carries context for the repro. */
export class InvariantError extends Error {
  constructor(
    message: string,
    readonly context: Readonly<Record<string, unknown>> = {},
  ) {
    super(Object.keys(context).length ? `${message} (${describeContext(context)})` : message);
    this.name = 'InvariantError';
  }
}

function describeContext(context: Readonly<Record<string, unknown>>): string {
  return Object.entries(context)
    .map(([k, v]) => `${k}=${typeof v === 'bigint' ? v.toString() : JSON.stringify(v)}`)
    .join(', ');
}

export function assert(
  condition: unknown,
  message: string,
  context?: Readonly<Record<string, unknown>>,
): asserts condition {
  if (!condition) throw new InvariantError(message, context);
}

/** Bad input from a user (a file, a flag, a library argument): the message names the bad field. */
export class InputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'InputError';
  }
}
