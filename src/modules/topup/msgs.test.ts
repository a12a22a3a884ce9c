/**
 * Topup messages through the real app (heimdall §5, README items 11-12, 20-21): MsgTopup mints the
 * parent-chain TopUpFee once per (tx_hash, log_index) after the validators' vote, paying the relayer
 * 10^15; MsgWithdrawFee moves a validator's balance into its dividend account, whose root the next
 * checkpoint must carry.
 */
import { describe, expect, it } from 'vitest';
import {
  TestChain,
  testKey,
  TOKEN,
  type TestChainOptions,
  type TestKey,
  type TxJson,
} from '../../app/testing/testChain';
import { fakeTxHash, sidechainRoot } from '../../app/testing/fakeObservers';
import { type SideTxResult, type TxResult } from '../../app/blockResults';
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { abciLog } from '../../core/errors';
import { accountRootHash } from '../../index';
import { getValidatorSet } from '../staking/keeper';
import { getAccount } from '../auth/keeper';
import { type TopUpFeeEvent } from '../framework/observers';
import { MsgCheckpointDef } from '../checkpoint/msgs';
import { MsgTopupDef, MsgWithdrawFeeDef } from './msgs';

const FEE = 10n ** 15n;
const BALANCE = 1000n * TOKEN;
const OLD_TX_LOG = '{"codespace":"topup","code":1401,"message":"Older invalid tx found"}';
const SIDE_FAILED = {
  code: 5502,
  codespace: '1',
  log: abciLog({ codespace: '1', code: 5502, message: 'External call majority validation failed. ' }),
};
/** Blocks are proposed by an address outside the test, so fees never flow back to a participant. */
const proposer = testKey('topup-block-proposer').address;

function expectError(
  r: { code: number; codespace: string; log: string } | undefined,
  codespace: string,
  code: number,
  message: string,
): void {
  expect(r).toBeDefined();
  expect({ code: r!.code, codespace: r!.codespace, log: r!.log }).toEqual({
    code,
    codespace,
    log: abciLog({ codespace, code, message }),
  });
}

function settle(chain: TestChain, txs: Uint8Array[]): { txs: TxResult[]; side: SideTxResult[] } {
  return chain.blockAndSettle(txs, { proposer });
}

/** Rejected at deliver: the state is exactly what an empty block would leave. */
function expectRejected(chain: TestChain, tx: Uint8Array, codespace: string, code: number, message: string): void {
  const before = chain.app.exportState();
  const r = chain.block([tx], { proposer });
  expectError(r.txs[0], codespace, code, message);
  expect(chain.app.exportState()).toBe(before);
}

function topupEvent(
  chain: TestChain,
  label: string,
  user: Address,
  fee: bigint,
  logIndex = 3n,
  confirmations?: bigint,
): TopUpFeeEvent {
  const ev: TopUpFeeEvent = { name: 'TopUpFee', txHash: fakeTxHash(label), logIndex, blockNumber: 77n, user, fee };
  chain.observers.addEvent(ev, confirmations);
  return ev;
}

function topupTx(
  chain: TestChain,
  relayer: TestKey,
  id: bigint,
  ev: { txHash: Hex; logIndex: bigint },
  opts: { sequenceOffset?: bigint } = {},
): Uint8Array {
  return chain.tx(
    MsgTopupDef,
    { fromAddress: relayer.address, id, txHash: ev.txHash, logIndex: ev.logIndex },
    relayer,
    opts,
  );
}

function withdrawTx(chain: TestChain, key: TestKey, amount: bigint): Uint8Array {
  return chain.tx(MsgWithdrawFeeDef, { fromAddress: key.address, amount }, key);
}

const isOld = (chain: TestChain, ev: { txHash: Hex; logIndex: bigint }) =>
  chain.queryResult(`/topup/isoldtx?txhash=${ev.txHash}&logindex=${ev.logIndex}`);

describe('MsgTopup', () => {
  it('mints the event fee to the validator signer and moves 10^15 of it to the relayer', () => {
    const chain = new TestChain();
    const [v1, v2] = chain.validators;
    const ev = topupEvent(chain, 'topup-success', v1!.address, 50n * TOKEN);
    expect(isOld(chain, ev)).toBe(false);
    const r = settle(chain, [topupTx(chain, v2!, 1n, ev)]);
    expect(r.txs[0]!.code).toBe(0);
    expect(r.side).toHaveLength(1);
    expect(r.side[0]).toMatchObject({ code: 0, codespace: '', log: '', msgType: 'topup/MsgTopup' });
    expect(r.side[0]!.events).toEqual([
      {
        type: 'topup',
        attributes: {
          sender: v2!.address,
          recipient: v1!.address,
          'topup-amount': (50n * TOKEN).toString(),
          'tx-hash': ev.txHash,
          'log-index': '3',
        },
      },
    ]);
    expect(chain.balance(v1!.address)).toBe(BALANCE + 50n * TOKEN - FEE);
    // The relayer paid the tx fee and got the same amount back from the top-up.
    expect(chain.balance(v2!.address)).toBe(BALANCE - FEE + FEE);
    expect(chain.balance(proposer)).toBe(FEE);
    expect(isOld(chain, ev)).toBe(true);
  });

  it('a validator topping itself up gets fee - tx fee', () => {
    const chain = new TestChain();
    const v3 = chain.validators[2]!;
    const ev = topupEvent(chain, 'topup-self', v3.address, 7n * TOKEN, 0n);
    const r = settle(chain, [topupTx(chain, v3, 3n, ev)]);
    expect(r.side[0]!.code).toBe(0);
    expect(chain.balance(v3.address)).toBe(BALANCE - FEE + 7n * TOKEN);
  });

  it('a repeat of a processed (tx_hash, log_index) fails at deliver with topup 1401 "Older invalid tx found", balance unchanged', () => {
    const chain = new TestChain();
    const [v1, v2, v3] = chain.validators;
    const ev = topupEvent(chain, 'topup-repeat', v1!.address, 50n * TOKEN);
    expect(settle(chain, [topupTx(chain, v2!, 1n, ev)]).side[0]!.code).toBe(0);
    const balances = chain.validators.map((k) => chain.balance(k.address));
    for (const relayer of [v2!, v3!]) {
      const before = chain.app.exportState();
      const r = chain.block([topupTx(chain, relayer, 1n, ev)], { proposer });
      expect(r.txs[0]).toMatchObject({ code: 1401, codespace: 'topup', log: OLD_TX_LOG });
      expect(chain.app.exportState()).toBe(before);
    }
    // Another log index of the same parent tx is a different top-up.
    const ev2 = topupEvent(chain, 'topup-repeat', v1!.address, 1n * TOKEN, 4n);
    expect(ev2.txHash).toBe(ev.txHash);
    expect(chain.block([], { proposer }).txs).toEqual([]);
    expect(chain.validators.map((k) => chain.balance(k.address))).toEqual(balances);
    expect(settle(chain, [topupTx(chain, v2!, 1n, ev2)]).side[0]!.code).toBe(0);
    expect(chain.balance(v1!.address)).toBe(balances[0]! + 1n * TOKEN - FEE);
  });

  it('two relays delivered before the first is post-handled: the second fails at post with 1401, minted once', () => {
    const chain = new TestChain();
    const [v1, v2, v3] = chain.validators;
    const ev = topupEvent(chain, 'topup-race', v1!.address, 50n * TOKEN);
    // Same block.
    const r = settle(chain, [topupTx(chain, v2!, 1n, ev), topupTx(chain, v3!, 1n, ev)]);
    expect(r.txs.map((t) => t.code)).toEqual([0, 0]);
    expect(r.side.map((s) => s.code)).toEqual([0, 1401]);
    expect(r.side[1]).toMatchObject({ codespace: 'topup', log: OLD_TX_LOG, events: [] });
    expect(chain.balance(v1!.address)).toBe(BALANCE + 50n * TOKEN - FEE);
    expect(chain.balance(v2!.address)).toBe(BALANCE);
    expect(chain.balance(v3!.address)).toBe(BALANCE - FEE);

    // Consecutive blocks: the second is delivered before the first's post handler ran.
    const ev2 = topupEvent(chain, 'topup-race-2', v1!.address, 20n * TOKEN);
    const b1 = chain.block([topupTx(chain, v2!, 1n, ev2)], { proposer });
    const b2 = chain.block([topupTx(chain, v3!, 1n, ev2)], { proposer });
    expect([b1.txs[0]!.code, b2.txs[0]!.code]).toEqual([0, 0]);
    const p1 = chain.block([], { proposer });
    const p2 = chain.block([], { proposer });
    expect(p1.end.sideTxResults.map((s) => s.code)).toEqual([0]);
    expect(p2.end.sideTxResults).toHaveLength(1);
    expect(p2.end.sideTxResults[0]).toMatchObject({ code: 1401, codespace: 'topup', log: OLD_TX_LOG });
    expect(chain.balance(v1!.address)).toBe(BALANCE + 70n * TOKEN - 2n * FEE);
  });

  it('the event user is not the signer of validator id (or no such validator, or not a TopUpFee): vote no, 5502, nothing minted', () => {
    const chain = new TestChain();
    const [v1, v2] = chain.validators;
    const stranger = testKey('topup-stranger').address;
    const cases: Array<[bigint, TopUpFeeEvent | { txHash: Hex; logIndex: bigint }]> = [
      [1n, topupEvent(chain, 'topup-wrong-user', v2!.address, 5n * TOKEN)],
      [1n, topupEvent(chain, 'topup-stranger', stranger, 5n * TOKEN)],
      [99n, topupEvent(chain, 'topup-no-validator', v1!.address, 5n * TOKEN)],
    ];
    const stake = {
      name: 'StakeUpdate' as const,
      txHash: fakeTxHash('topup-not-topup'),
      logIndex: 0n,
      blockNumber: 77n,
      validatorId: 1n,
      newAmount: 5n,
    };
    chain.observers.addEvent(stake);
    cases.push([1n, stake]);
    for (const [id, ev] of cases) {
      const balances = chain.validators.map((k) => chain.balance(k.address));
      const r = settle(chain, [topupTx(chain, v2!, id, ev)]);
      expect(r.txs[0]!.code).toBe(0);
      expect(r.side[0]).toMatchObject(SIDE_FAILED);
      expect(r.side[0]!.tally.result).toBe('no');
      // Only the relayer's tx fee moved.
      expect(chain.validators.map((k) => chain.balance(k.address))).toEqual(
        balances.map((b, i) => (i === 1 ? b - FEE : b)),
      );
      expect(chain.balance(stranger)).toBe(0n);
      expect(isOld(chain, ev)).toBe(false);
    }
  });

  it('an unconfirmed event (fewer than 6 confirmations) or a missing one: skip, 5502; once confirmed it can be relayed', () => {
    const chain = new TestChain();
    const [v1, v2] = chain.validators;
    const ev = topupEvent(chain, 'topup-unconfirmed', v1!.address, 5n * TOKEN, 3n, 5n);
    const missing = { txHash: fakeTxHash('topup-missing'), logIndex: 0n };
    for (const e of [ev, missing]) {
      const r = settle(chain, [topupTx(chain, v2!, 1n, e)]);
      expect(r.side[0]).toMatchObject(SIDE_FAILED);
      expect(r.side[0]!.tally.result).toBe('skip');
    }
    expect(chain.balance(v1!.address)).toBe(BALANCE);
    expect(isOld(chain, ev)).toBe(false);
    chain.observers.addEvent(ev, 6n);
    expect(settle(chain, [topupTx(chain, v2!, 1n, ev)]).side[0]!.code).toBe(0);
    expect(chain.balance(v1!.address)).toBe(BALANCE + 5n * TOKEN - FEE);
  });

  it('send disabled: topup 101 at deliver, no trace', () => {
    const chain = new TestChain({ appState: { bank: { send_enabled: false } } });
    const [v1, v2] = chain.validators;
    const ev = topupEvent(chain, 'topup-disabled', v1!.address, 5n * TOKEN);
    expectRejected(chain, topupTx(chain, v2!, 1n, ev), 'topup', 101, 'send transactions are currently disabled');
  });

  it('decode: tx_hash must be 32 bytes, id and log_index uint64 (sdk 2, naming the field)', () => {
    const chain = new TestChain();
    const v = chain.validators[0]!;
    const good = topupTx(chain, v, 1n, { txHash: fakeTxHash('topup-decode'), logIndex: 0n });
    const mutate = (fn: (o: TxJson) => void) => {
      const o = JSON.parse(new TextDecoder().decode(good));
      fn(o);
      return new TextEncoder().encode(JSON.stringify(o));
    };
    const cases: Array<[Uint8Array, string]> = [
      [mutate((o) => (o.msg.value.tx_hash = '0x1234')), 'tx.msg.value.tx_hash: expected 32 bytes'],
      [mutate((o) => (o.msg.value.log_index = '-1')), 'tx.msg.value.log_index: not a decimal integer'],
      [mutate((o) => (o.msg.value.id = '18446744073709551616')), 'tx.msg.value.id: out of range'],
      [mutate((o) => delete o.msg.value.from_address), 'tx.msg.value.from_address'],
    ];
    const before = chain.app.exportState();
    const r = chain.block(
      cases.map(([tx]) => tx),
      { proposer },
    );
    cases.forEach(([, msg], i) => {
      expect(r.txs[i]).toMatchObject({ code: 2, codespace: 'sdk' });
      expect((JSON.parse(r.txs[i]!.log) as { message: string }).message.startsWith(msg)).toBe(true);
    });
    expect(chain.app.exportState()).toBe(before);
  });
});

describe('MsgWithdrawFee', () => {
  const rootOf = (fees: bigint[]) =>
    accountRootHash(fees.map((feeAmount, i) => ({ id: i + 1, feeAmount, slashedAmount: 0n })));
  const dividendRoot = (chain: TestChain): Hex =>
    chain.queryResult<{ accountRootHash: Hex }>('/topup/dividend-account-root').accountRootHash;

  it('amount 0 withdraws the whole balance (after the fee) into the dividend account', () => {
    const chain = new TestChain();
    const v2 = chain.validators[1]!;
    const r = chain.block([withdrawTx(chain, v2, 0n)], { proposer });
    expect(r.txs[0]!.code).toBe(0);
    expect(r.txs[0]!.events).toEqual([
      {
        type: 'fee-withdraw',
        attributes: {
          'validator-id': '2',
          user: v2.address,
          amount: (BALANCE - FEE).toString(),
          'fee-amount': (BALANCE - FEE).toString(),
        },
      },
    ]);
    expect(chain.balance(v2.address)).toBe(0n);
    expect(chain.queryResult('/topup/dividend-account/2')).toEqual({
      ID: 2,
      feeAmount: (BALANCE - FEE).toString(),
      slashedAmount: '0',
    });
    expect(dividendRoot(chain)).toBe(rootOf([0n, BALANCE - FEE, 0n, 0n]));
  });

  it('an empty amount string means 0 (the whole balance); a negative or fractional amount is refused at decode', () => {
    const chain = new TestChain();
    const v = chain.validators[0]!;
    // The sign bytes are built from the decoded message, so "" signs like "0".
    const withAmount = (amount: unknown) => {
      const o = JSON.parse(new TextDecoder().decode(withdrawTx(chain, v, 0n)));
      expect(o.msg.value.amount).toBe('0');
      o.msg.value.amount = amount;
      return new TextEncoder().encode(JSON.stringify(o));
    };
    const before = chain.app.exportState();
    const bad = chain.block([withAmount('-1'), withAmount('1.5'), withAmount(null)], { proposer });
    expect(bad.txs.map((t) => [t.code, t.codespace])).toEqual([
      [2, 'sdk'],
      [2, 'sdk'],
      [2, 'sdk'],
    ]);
    for (const t of bad.txs)
      expect((JSON.parse(t.log) as { message: string }).message.startsWith('tx.msg.value.amount')).toBe(true);
    expect(chain.app.exportState()).toBe(before);
    const r = chain.block([withAmount('')], { proposer });
    expect(r.txs[0]!.code).toBe(0);
    expect(chain.balance(v.address)).toBe(0n);
    expect(chain.queryResult('/topup/dividend-account/1')).toEqual({
      ID: 1,
      feeAmount: (BALANCE - FEE).toString(),
      slashedAmount: '0',
    });
  });

  it('a given amount withdraws exactly that; fee amounts accumulate; the root follows and equals accountRootHash over all validators', () => {
    const chain = new TestChain();
    const [v1, , v3] = chain.validators;
    const root0 = dividendRoot(chain);
    expect(root0).toBe(rootOf([0n, 0n, 0n, 0n]));
    expect(chain.block([withdrawTx(chain, v1!, 10n * TOKEN)], { proposer }).txs[0]!.code).toBe(0);
    expect(chain.balance(v1!.address)).toBe(BALANCE - FEE - 10n * TOKEN);
    const root1 = dividendRoot(chain);
    expect(root1).not.toBe(root0);
    expect(root1).toBe(rootOf([10n * TOKEN, 0n, 0n, 0n]));
    expect(
      chain
        .block([withdrawTx(chain, v1!, 5n * TOKEN), withdrawTx(chain, v3!, 1n)], { proposer })
        .txs.map((t) => t.code),
    ).toEqual([0, 0]);
    expect(chain.queryResult('/topup/dividend-account/1')).toEqual({
      ID: 1,
      feeAmount: (15n * TOKEN).toString(),
      slashedAmount: '0',
    });
    expect(chain.queryResult('/topup/dividend-account/3')).toEqual({ ID: 3, feeAmount: '1', slashedAmount: '0' });
    expect(chain.queryResult('/topup/dividend-account/2')).toEqual({ ID: 2, feeAmount: '0', slashedAmount: '0' });
    expect(chain.balance(v1!.address)).toBe(BALANCE - 2n * FEE - 15n * TOKEN);
    expect(dividendRoot(chain)).toBe(rootOf([15n * TOKEN, 0n, 1n, 0n]));
  });

  it('nothing left to withdraw: topup 104, no trace', () => {
    const chain = new TestChain();
    const v = chain.validators[0]!;
    // Leave exactly one fee behind, so the next tx pays it and has a zero balance.
    expect(chain.block([withdrawTx(chain, v, BALANCE - 2n * FEE)], { proposer }).txs[0]!.code).toBe(0);
    expect(chain.balance(v.address)).toBe(FEE);
    expectRejected(chain, withdrawTx(chain, v, 0n), 'topup', 104, 'No balance to withdraw');
    expect(chain.balance(v.address)).toBe(FEE);
  });

  it('more than the balance: sdk 10, no trace', () => {
    const chain = new TestChain();
    const v = chain.validators[0]!;
    expectRejected(
      chain,
      withdrawTx(chain, v, BALANCE),
      'sdk',
      10,
      `insufficient account funds; ${BALANCE - FEE}matic < ${BALANCE}matic`,
    );
    expect(chain.queryResult('/topup/dividend-account/1')).toEqual({ ID: 1, feeAmount: '0', slashedAmount: '0' });
  });

  it('a sender that is not a validator signer: 2501, no trace', () => {
    const outsider = testKey('withdraw-outsider');
    const chain = new TestChain({ accounts: [{ key: outsider, amount: 10n * TOKEN }] });
    expectRejected(
      chain,
      withdrawTx(chain, outsider, 0n),
      '1',
      2501,
      `Validator information not found for ${outsider.address}`,
    );
    expect(getAccount(chain.app.store, outsider.address)!.sequence).toBe(0n);
  });

  it('the next checkpoint must carry the new accountRootHash: the stale root is refused with 1501, the new one buffered', () => {
    const opts: TestChainOptions = {};
    const chain = new TestChain(opts);
    chain.observers.sidechainHead = 10_000n;
    const stale = dividendRoot(chain);
    const v2 = chain.validators[1]!;
    expect(chain.block([withdrawTx(chain, v2, 3n * TOKEN)], { proposer }).txs[0]!.code).toBe(0);
    const fresh = dividendRoot(chain);
    expect(fresh).toBe(rootOf([0n, 3n * TOKEN, 0n, 0n]));
    const p = chain.validators.find((k) => k.address === getValidatorSet(chain.app.store).proposer.address)!;
    const cp = (accountRoot: Hex) =>
      chain.tx(
        MsgCheckpointDef,
        {
          proposer: p.address,
          startBlock: 0n,
          endBlock: 255n,
          rootHash: sidechainRoot(0n, 255n),
          accountRootHash: accountRoot,
        },
        p,
      );
    expectRejected(chain, cp(stale), '1', 1501, 'Wrong roothash for given start and end block numbers');
    const r = settle(chain, [cp(fresh)]);
    expect(r.txs[0]!.code).toBe(0);
    expect(r.side[0]!.code).toBe(0);
    expect(chain.queryResult('/checkpoints/buffer').accountRootHash).toBe(fresh);
  });
});
