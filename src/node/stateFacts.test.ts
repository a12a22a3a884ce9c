/**
 * The state facts a service node reports: written through the modules' own keepers, every record
 * kind the oracles read is recognised (a renamed store key fails here, not silently in a run), and
 * a block's writes and transactions come out as typed facts.
 */
import { describe, expect, it } from 'vitest';
import { type Hex } from '../core/bytes';
import { TestChain, testKey, TOKEN } from '../app/testing/testChain';
import { MsgSendDef } from '../modules/bank/msgs';
import { addFeeToDividendAccount } from '../modules/topup/keeper';
import { addCheckpoint, flushBuffer, setBuffer, setLastNoAck } from '../modules/checkpoint/keeper';
import { setAckCount } from '../modules/checkpoint/keeper';
import { freezeSet } from '../modules/span/freezeSet';
import { incrementAccum, markSeq } from '../modules/staking/keeper';
import { markClerkSeq, setRecord } from '../modules/clerk/keeper';
import { markTopup } from '../modules/topup/keeper';
import { blockHash, type ServiceBlock } from '../consensus/types';
import { stateWritesOf, txFactOf } from './stateFacts';
import { type StateWrite } from './observations';

const kinds = (ws: StateWrite[]) => [...new Set(ws.map((w) => w.what))].sort();
const ROOT: Hex = `0x${'11'.repeat(32)}`;

describe('state facts', () => {
  it('the genesis state: accounts, validators, the validator set, the ack count and span 0', () => {
    const chain = new TestChain({ validators: 4 });
    const facts = stateWritesOf(chain.app.store.entries());
    expect(kinds(facts)).toEqual(['account', 'ackCount', 'nextAccountNumber', 'span', 'validator', 'validatorSet']);
    const set = facts.find((w) => w.what === 'validatorSet');
    expect(set).toMatchObject({ what: 'validatorSet', proposer: expect.stringMatching(/^0x[0-9a-f]{40}$/) });
    expect(facts.filter((w) => w.what === 'validator')).toHaveLength(4);
    expect(facts.find((w) => w.what === 'span')).toMatchObject({ id: 0n, startBlock: 0n });
  });

  it('every record kind an oracle reads, written through its keeper', () => {
    const chain = new TestChain({ validators: 4 });
    const b = chain.app.store.branch();
    const cp = {
      proposer: chain.validators[0]!.address,
      startBlock: 0n,
      endBlock: 63n,
      rootHash: ROOT,
      accountRootHash: ROOT,
      timestamp: 17n,
    };
    setBuffer(b, cp);
    addCheckpoint(b, 1n, cp);
    setAckCount(b, 1n);
    setLastNoAck(b, 99n);
    addFeeToDividendAccount(b, 2n, 5n);
    incrementAccum(b, 1);
    freezeSet(b, 1n, 256n, 1855n, '15001', ROOT);
    const record = {
      id: 7n,
      contract: chain.validators[1]!.address,
      data: '0x1234' as Hex,
      txHash: ROOT,
      logIndex: 3n,
      sidechainChainId: '15001',
      recordTimeMs: 5000,
    };
    setRecord(b, record);
    markClerkSeq(b, ROOT, 3n);
    markTopup(b, ROOT, 4n);
    markSeq(b, ROOT, 5n);
    const facts = stateWritesOf(b.changes());
    expect(kinds(facts)).toEqual([
      'ackCount',
      'checkpoint',
      'checkpointBuffer',
      'dividend',
      'lastNoAck',
      'record',
      'replayKey',
      'span',
      'spanSeedBlock',
      'validatorSet',
    ]);
    expect(facts).toContainEqual({ what: 'record', ...record });
    for (const [module, logIndex] of [
      ['clerk', 3n],
      ['topup', 4n],
      ['staking', 5n],
    ] as const)
      expect(facts).toContainEqual({ what: 'replayKey', module, txHash: ROOT, logIndex });
    const span = facts.find((w) => w.what === 'span');
    expect(span).toMatchObject({ id: 1n, members: expect.arrayContaining([expect.objectContaining({ id: 1n })]) });
    const { timestamp: _t, ...fields } = cp;
    expect(facts).toContainEqual({ what: 'checkpoint', number: 1n, ...fields, timestampS: 17n });
    expect(facts).toContainEqual({ what: 'dividend', id: 2n, feeAmount: 5n, slashedAmount: 0n });
    expect(facts).toContainEqual({ what: 'lastNoAck', seconds: 99n });
    flushBuffer(b);
    expect(stateWritesOf(b.changes())).toContainEqual({ what: 'checkpointBuffer', checkpoint: null });
  });

  it("a block's writes and its transactions as facts", () => {
    const bob = testKey('bob');
    const chain = new TestChain({ validators: 4 });
    const alice = chain.validators[0]!;
    const raw = chain.tx(
      MsgSendDef,
      { fromAddress: alice.address, toAddress: bob.address, amount: [{ denom: 'matic', amount: 5n * TOKEN }] },
      alice,
    );
    const txHex = `0x${Buffer.from(raw).toString('hex')}` as Hex;
    const block: ServiceBlock = {
      height: 1n,
      timeMs: 1000,
      proposer: chain.validators[1]!.address,
      lastBlockHash: ROOT,
      lastAppHash: chain.app.appHash,
      lastCommit: [],
      txs: [txHex],
    };
    const applied = chain.app.applyBlock(
      { timeMs: block.timeMs, proposer: block.proposer },
      block.txs,
      block,
      blockHash(block),
    );
    const facts = stateWritesOf(applied.writes);
    const accounts = facts.filter((w) => w.what === 'account').map((w) => (w.what === 'account' ? w.address : ''));
    expect(accounts).toEqual(expect.arrayContaining([alice.address, bob.address, block.proposer]));
    expect(facts.find((w) => w.what === 'account' && w.address === alice.address)).toMatchObject({ sequence: 1n });
    const fact = txFactOf(0, txHex, applied.results[0]!);
    expect(fact).toMatchObject({
      index: 0,
      signer: alice.address,
      code: 0,
      msg: { type: 'cosmos-sdk/MsgSend', fromAddress: alice.address, toAddress: bob.address },
    });
    expect(txFactOf(1, '0x7b7d', { ...applied.results[0]!, code: 2 })).toMatchObject({ signer: null, msg: null });
  });
});
