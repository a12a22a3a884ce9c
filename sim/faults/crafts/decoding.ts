/**
 * Byzantine crafts for decoding (codespace `sdk` 2): a signed tx whose bytes the decoder must
 * refuse before any handler sees it (a field that is not hex or has the wrong length, a number out
 * of range, an unknown field or message type, a wrong JSON type, not JSON at all). Decoding judges
 * every message alike: these mangle a dust send, or a top-up where the field is a top-up's.
 */
import { toHex, utf8 } from '../../../src/core/bytes';
import { MsgSendDef } from '../../../src/modules/bank/msgs';
import { MsgTopupDef } from '../../../src/modules/topup/msgs';
import { type Craft, type CraftEnv, TX_DECODE, dust, mangled, myValidatorId, one1 } from './craftKit';

/** A dust send mangled so that decoding refuses it. */
const decodeKind =
  (edit: (tx: Record<string, unknown>, env: CraftEnv) => void): Craft =>
  (env) =>
    one1(
      mangled(env, MsgSendDef, dust(env.me.address, env.me.address), (tx) => edit(tx, env)),
      TX_DECODE,
    );

const msgValue = (tx: Record<string, unknown>) => (tx.msg as { value: Record<string, unknown> }).value;

/** A top-up of the sender's own validator, its message value changed by `edit` after signing: decoding must refuse it. */
const topupDecodeKind =
  (edit: (value: Record<string, unknown>) => void): Craft =>
  (env) => {
    const id = myValidatorId(env);
    if (id === null) return null;
    const topup = { fromAddress: env.me.address, id, txHash: env.fresh(), logIndex: 0n };
    return one1(
      mangled(env, MsgTopupDef, topup, (tx) => edit(msgValue(tx))),
      TX_DECODE,
    );
  };

export const DECODING_CRAFTS = {
  badHex: decodeKind((tx) => {
    msgValue(tx).to_address = `0x${'zz'.repeat(20)}`;
  }),
  wrongLength: decodeKind((tx) => {
    msgValue(tx).to_address = `0x${'ab'.repeat(19)}`;
  }),
  uint64OutOfRange: topupDecodeKind((value) => {
    value.log_index = '18446744073709551616';
  }),
  extraKey: decodeKind((tx) => {
    msgValue(tx).note = 'not a field of MsgSend';
  }),
  wrongType: decodeKind((tx) => {
    msgValue(tx).amount = 5;
  }),
  notJson: () => one1(toHex(utf8('this is not a transaction')), TX_DECODE),
  // JSON, but null where an object must be: the whole tx, then the message's value.
  nullTx: () => one1(toHex(utf8('null')), TX_DECODE),
  nullMsgValue: decodeKind((tx) => {
    (tx.msg as { value: unknown }).value = null;
  }),
  // The same denomination twice in one amount (coins must be sorted and unique).
  repeatedDenom: decodeKind((tx) => {
    const coins = msgValue(tx).amount as unknown[];
    msgValue(tx).amount = [coins[0], coins[0]];
  }),
  // A 31-byte tx hash in a top-up (hashes are 32 bytes).
  shortHash: topupDecodeKind((value) => {
    value.tx_hash = `0x${'ab'.repeat(31)}`;
  }),
  unknownMsgType: decodeKind((tx) => {
    (tx.msg as { type: string }).type = 'bank/MsgBurn';
  }),
} satisfies Record<string, Craft>;
