/** The staking module's codes (Heimdall codespace "1", 2500-2514). */
import { defineErrors } from '../../core/errors';

export const StakingErrors = defineErrors('1', {
  NoValidator: [2501, 'Validator information not found'],
  ValUnbonded: [2504, 'Validator already unbonded , cannot exit'],
  ValidatorAlreadyJoined: [2507, 'Validator already joined'],
  WaitForConfirmation: [2510, 'wait for confirmation time before sending transaction'],
  ValidatorSave: [2511, 'Cannot save validator'],
  InvalidReceipt: [2512, 'Invalid receipt'],
  NoSignerChange: [2513, 'New signer same as old signer'],
});
