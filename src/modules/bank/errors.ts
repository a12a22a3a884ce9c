/**
 * The bank codespace (Heimdall's bank/types/errors.go): 101 send disabled, 102 invalid inputs or
 * outputs. The reference gives 102 three texts; the code is registered once and the texts are
 * variants of it.
 */
import { defineErrors, err } from '../../core/errors';

const codes = defineErrors('bank', {
  SendDisabled: [101, 'send transactions are currently disabled'],
  InvalidInputsOutputs: [102, 'invalid inputs or outputs'],
});

/** (The code's own text is never sent: every use is one of the three variants.) */
export const BankErrors = {
  ...codes,
  NoInputs: err(codes.InvalidInputsOutputs, 'no inputs to send transaction'),
  NoOutputs: err(codes.InvalidInputsOutputs, 'no outputs to send transaction'),
  InputOutputMismatch: err(codes.InvalidInputsOutputs, 'sum inputs != sum outputs'),
} as const;
