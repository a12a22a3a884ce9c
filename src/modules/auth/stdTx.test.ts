/**
 * The signing document (spec: Transaction envelope and signing document; Authentication 2): what a
 * signature covers, written out by hand here so a change of any field or of its encoding shows.
 */
import { describe, expect, it } from 'vitest';
import { toHex, utf8 } from '../../core/bytes';
import { keccak256Bytes } from '../../core/hash';
import { MsgSendDef } from '../bank/msgs';
import { decodedSignDigestOf, signDigestOf } from './stdTx';

const FROM = '0x1111111111111111111111111111111111111111';
const TO = '0x2222222222222222222222222222222222222222';

describe('the sign document', () => {
  it('is keccak256 of the sorted JSON {account_number, chain_id, memo, msg: {type, value}, sequence}, integers as strings', () => {
    const msg = { fromAddress: FROM, toAddress: TO, amount: [{ denom: 'matic', amount: 5n }] } as Parameters<
      typeof MsgSendDef.encode
    >[0];
    const doc = { chainId: 'lockstep-1', accountNumber: 3n, sequence: 7n, memo: 'hi' };
    const text =
      '{"account_number":"3","chain_id":"lockstep-1","memo":"hi","msg":{"type":"cosmos-sdk/MsgSend","value":' +
      `{"amount":[{"amount":{"i":"5"},"denom":"matic"}],"from_address":"${FROM}","to_address":"${TO}"}},"sequence":"7"}`;
    const digest = signDigestOf(MsgSendDef, msg, doc);
    expect(toHex(digest)).toBe(toHex(keccak256Bytes(utf8(text))));
    // Each field is covered: another chain id, account number, sequence or memo is another digest.
    for (const other of [
      { ...doc, chainId: 'lockstep-2' },
      { ...doc, accountNumber: 4n },
      { ...doc, sequence: 8n },
      { ...doc, memo: '' },
    ])
      expect(toHex(signDigestOf(MsgSendDef, msg, other))).not.toBe(toHex(digest));
  });

  it('of a decoded message, kept on the message object, is the same digest for every document, asked in any order', () => {
    const msg = { fromAddress: FROM, toAddress: TO, amount: [{ denom: 'matic', amount: 5n }] } as Parameters<
      typeof MsgSendDef.encode
    >[0];
    const doc = { chainId: 'lockstep-1', accountNumber: 3n, sequence: 7n, memo: 'hi' };
    const docs = [
      doc,
      { ...doc, sequence: 8n },
      doc,
      { ...doc, chainId: 'lockstep-2' },
      { ...doc, accountNumber: 4n },
      { ...doc, memo: '' },
      { ...doc, memo: '' },
      doc,
    ];
    for (const d of docs)
      expect(toHex(decodedSignDigestOf(MsgSendDef, msg, d))).toBe(toHex(signDigestOf(MsgSendDef, msg, d)));
    // The digest handed out is a copy: writing to it changes no later answer.
    decodedSignDigestOf(MsgSendDef, msg, doc).fill(0);
    expect(toHex(decodedSignDigestOf(MsgSendDef, msg, doc))).toBe(toHex(signDigestOf(MsgSendDef, msg, doc)));
  });
});
