/** The clerk module's codes (clerk/types/errors.go: codespace "1", 5400-5403). */
import { defineErrors } from '../../core/errors';

export const ClerkErrors = defineErrors('1', {
  EventRecordAlreadySynced: [5400, 'Event record already synced'],
  EventRecordInvalid: [5401, 'Event record is invalid'],
  EventUpdate: [5402, 'Event record update error'],
  SizeExceed: [5403, 'Data size exceed'],
});
