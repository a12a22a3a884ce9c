/**
 * What the model says a transaction or a side transaction's post handler comes to: accepted, or
 * refused with a code in a codespace (the reference's codes, heimdall.md §6.3 and the modules'
 * tables; README item 24 for the ante handler), with the model's reason in words.
 */
import { type RuleId } from '../../ruleId';

export interface Outcome {
  code: number;
  codespace: string;
  why: string;
  /** The rule of the inventory (sim/rules) that decided it; null for an acceptance. */
  rule: RuleId | null;
}

export const ACCEPTED: Outcome = { code: 0, codespace: '', why: 'accepted', rule: null };

export const refuse = (codespace: string, code: number, why: string, rule: RuleId | null = null): Outcome => ({
  code,
  codespace,
  why,
  rule,
});

/** The same outcome, naming the rule that decided it. */
export const by = (rule: RuleId, o: Outcome): Outcome => ({ ...o, rule });

/** The codes the model predicts, by name, as the reference numbers them. */
export const SDK = {
  txDecode: (why: string) => refuse('sdk', 2, why),
  unauthorized: (why: string) => refuse('sdk', 4, why),
  insufficientFunds: (why: string) => refuse('sdk', 5, why),
  unknownAddress: (why: string) => refuse('sdk', 9, why),
  insufficientCoins: (why: string) => refuse('sdk', 10, why),
  invalidCoins: (why: string) => refuse('sdk', 11, why),
  outOfGas: (why: string) => refuse('sdk', 12, why),
  memoTooLarge: (why: string) => refuse('sdk', 13, why),
  tooManySignatures: (why: string) => refuse('sdk', 15, why),
  noSignatures: (why: string) => refuse('sdk', 17, why),
};

/** Heimdall's codespace "1" (and the bank, topup codespaces), by the reference's numbers. */
export const H = {
  invalidMsg: (why: string) => refuse('1', 1400, why),
  oldTx: (why: string) => refuse('1', 1401, why),
  badBlockDetails: (why: string) => refuse('1', 1501, why),
  badAck: (why: string) => refuse('1', 1502, why),
  noAck: (why: string) => refuse('1', 1503, why),
  invalidNoAck: (why: string) => refuse('1', 1505, why),
  tooManyNoAck: (why: string) => refuse('1', 1506, why),
  oldCheckpoint: (why: string) => refuse('1', 1509, why),
  disContinuous: (why: string) => refuse('1', 1510, why),
  noValidator: (why: string) => refuse('1', 2501, why),
  valUnbonded: (why: string) => refuse('1', 2504, why),
  alreadyJoined: (why: string) => refuse('1', 2507, why),
  noSignerChange: (why: string) => refuse('1', 2513, why),
  spanNotContinuous: (why: string) => refuse('1', 3501, why),
  spanNotFound: (why: string) => refuse('1', 3503, why),
  badChainId: (why: string) => refuse('1', 3506, why),
  badSpanDuration: (why: string) => refuse('1', 3507, why),
  recordSynced: (why: string) => refuse('1', 5400, why),
  dataTooBig: (why: string) => refuse('1', 5403, why),
  sideTxFailed: (why: string) => refuse('1', 5502, why),
  bankSendDisabled: (why: string) => refuse('bank', 101, why),
  bankInputsOutputs: (why: string) => refuse('bank', 102, why),
  topupSendDisabled: (why: string) => refuse('topup', 101, why),
  topupNoBalance: (why: string) => refuse('topup', 104, why),
  topupOldTx: (why: string) => refuse('topup', 1401, why),
};
