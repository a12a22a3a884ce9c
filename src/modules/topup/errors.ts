/** The topup codespace (topup/types/errors.go); 1401 carries the spec's text. */
import { defineErrors } from '../../core/errors';

export const TopupErrors = defineErrors('topup', {
  SendDisabled: [101, 'send transactions are currently disabled'],
  InvalidTopupMsg: [102, 'Invalid topup msg'],
  NoValidatorTopup: [103, 'no validator topup'],
  NoBalanceToWithdraw: [104, 'No balance to withdraw'],
  OldTx: [1401, 'Older invalid tx found'],
});
