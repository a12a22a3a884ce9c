/**
 * The message reach of a run, from hand-built records: each committed height counted once; a side
 * message accepted once its side-tx result is, refused by `side <code>` otherwise, pending without
 * one; each Byzantine kind's crafted txs judged where its own block committed them.
 */
import { describe, expect, it } from 'vitest';
import { type Hex } from '../../src/core/bytes';
import { type TxFact } from '../../src/node/observations';
import { type RunObservation } from '../core/record';
import { VALIDATORS, commit, hash, rec, tx } from '../oracles/testing/observations';
import { addReach, byzantineTable, messageReach, reachTable } from './messageReach';

const V1 = VALIDATORS[0]!.signer;
const send = { type: 'cosmos-sdk/MsgSend' as const, fromAddress: V1, toAddress: V1, amount: [] };
const topup = { type: 'topup/MsgTopup' as const, fromAddress: V1, id: 1n, txHash: hash('ev'), logIndex: 0n };
const undecodable = (label: string): TxFact => ({ ...tx(9, V1, send, 2, label), msg: null, signer: null });

describe('message reach', () => {
  const records = [
    commit(1n, {
      txs: [
        tx(0, V1, send, 0, 's1'),
        { ...tx(1, V1, send, 4, 's2'), codespace: 'sdk' },
        tx(2, V1, topup, 0, 't1'),
        tx(3, V1, topup, 0, 't2'),
        undecodable('junk'),
      ],
    }),
    // Another node's report of the same height is not counted again.
    commit(1n, { txs: [tx(0, V1, send, 0, 's1')] }),
    commit(3n, { sideTxs: [{ txHash: hash('t1'), msgType: 'topup/MsgTopup', tally: 'yes', code: 0 }] }),
  ].map((o, i) => rec(i, i === 1 ? 'svc-2' : 'svc-1', o));

  it('counts delivered, accepted and refused by code, once per height', () => {
    const r = messageReach(records);
    expect(r.messages.MsgSend).toEqual({ delivered: 2, accepted: 1, refused: { 'sdk/4': 1 }, pending: 0 });
    // t1's side-tx result is in (accepted); t2's is not (pending).
    expect(r.messages.MsgTopup).toEqual({ delivered: 2, accepted: 1, refused: {}, pending: 1 });
    expect(r.messages.undecodable).toEqual({ delivered: 1, accepted: 0, refused: { 'sdk/2': 1 }, pending: 0 });
    const refusedBySide = messageReach([
      ...records,
      rec(
        9,
        'svc-1',
        commit(4n, { sideTxs: [{ txHash: hash('t2'), msgType: 'topup/MsgTopup', tally: 'no', code: 5502 }] }),
      ),
    ]);
    expect(refusedBySide.messages.MsgTopup).toEqual({
      delivered: 2,
      accepted: 1,
      refused: { 'side 5502': 1 },
      pending: 0,
    });
  });

  it('judges a Byzantine kind where its own block committed it', () => {
    const crafted = (label: string, height: bigint, index: number, codes: number[]): RunObservation => ({
      kind: 'byzantine.tx',
      validator: 1,
      craft: 'wrongChainId',
      txHash: hash(label) as Hex,
      via: 'block',
      height,
      index,
      expect: { stage: 'deliver', codespace: 'sdk', codes },
      ifAccepted: null,
    });
    const r = messageReach([
      rec(0, 'svc-1', crafted('s2', 1n, 1, [4])),
      // Crafted for height 2, but that block did not commit.
      rec(0, 'svc-1', crafted('gone', 2n, 0, [4])),
      // Delivered, with another code than the reference's.
      rec(0, 'svc-1', crafted('s1', 1n, 0, [4])),
      ...records,
    ]);
    expect(r.byzantine.wrongChainId).toMatchObject({
      crafted: 3,
      delivered: 2,
      asExpected: 1,
      results: { 'sdk/4': 1, accepted: 1 },
    });
  });

  it('adds up, and prints every message type of the client table', () => {
    const r = messageReach(records);
    const twice = addReach(r, r);
    expect(twice.messages.MsgSend?.delivered).toBe(4);
    expect(twice.messages.MsgSend?.refused).toEqual({ 'sdk/4': 2 });
    const table = reachTable(twice, true).join('\n');
    expect(table).toContain('| MsgSend | 4 | 2 | sdk/4×2 |');
    expect(table).toContain('| MsgTopup | 4 | 2 | pending×2 |');
    expect(table).toContain('| MsgWithdrawFee | 0 | 0 |  |');
    expect(byzantineTable(twice, ['wrongChainId'], true).join('\n')).toContain('| wrongChainId | 0 | 0 | 0 | 0 |  |');
  });
});
