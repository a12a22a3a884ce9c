/** The span module's codes (Heimdall's bor module, codespace "1", 3501-3510). */
import { defineErrors } from '../../core/errors';

export const SpanErrors = defineErrors('1', {
  SpanNotContinuous: [3501, 'Span not continuous'],
  UnableToFreezeValSet: [3502, 'Unable to freeze validator set for next span'],
  SpanNotFound: [3503, 'Span not found'],
  ValSetMisMatch: [3504, 'Validator set mismatch'],
  ProducerMisMatch: [3505, 'Producer set mismatch'],
  InvalidSidechainChainId: [3506, 'Invalid Bor chain id'],
  InvalidSpanDuration: [3507, 'wrong span duration'],
  SpanNotInTurn: [3508, 'Span proposed is not in-turn'],
});
