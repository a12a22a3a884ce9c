/**
 * The error codes every module shares: the SDK root codespace (cosmos-sdk types/errors.go) and
 * Heimdall's common codes in codespace "1" (common/error.go) that no single module owns.
 */
import { defineErrors } from '../../core/errors';

export const SdkErrors = defineErrors('sdk', {
  Internal: [1, 'internal error'],
  TxDecode: [2, 'tx parse error'],
  InvalidSequence: [3, 'invalid sequence'],
  Unauthorized: [4, 'unauthorized'],
  InsufficientFunds: [5, 'insufficient funds'],
  UnknownRequest: [6, 'unknown request'],
  InvalidAddress: [7, 'invalid address'],
  InvalidPubKey: [8, 'invalid pubkey'],
  UnknownAddress: [9, 'unknown address'],
  InsufficientCoins: [10, 'insufficient coins'],
  InvalidCoins: [11, 'invalid coins'],
  OutOfGas: [12, 'out of gas'],
  MemoTooLarge: [13, 'memo too large'],
  InsufficientFee: [14, 'insufficient fee'],
  TooManySignatures: [15, 'too many signatures'],
  GasOverflow: [16, 'gas overflow'],
  NoSignatures: [17, 'no signatures'],
});

export const CommonErrors = defineErrors('1', {
  InvalidMsg: [1400, 'Invalid message'],
  OldTx: [1401, 'Old txhash not allowed'],
  InvalidBlockReceipt: [5501, 'Invalid block receipt'],
  SideTxValidation: [5502, 'External call majority validation failed. '],
});
