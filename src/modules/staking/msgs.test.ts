/**
 * Staking messages through the real app (deliver, side votes, post at H+2, end block): every
 * success effect and every rejection of MsgValidatorJoin, MsgStakeUpdate, MsgValidatorExit and
 * MsgSignerUpdate, plus the side-tx tally rules these messages rely on.
 */
import { restQuery } from '../../rpc/testing/restQuery';
import { describe, expect, it } from 'vitest';
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { TestChain, testKey, TOKEN, type AccountJson, type TestKey } from '../../app/testing/testChain';
import { FakeObservers, fakeTxHash as labelTxHash, sidechainRoot } from '../../app/testing/fakeObservers';
import { type SideTxResult, type TxResult } from '../../app/blockResults';
import {
  type ParentEvent,
  type SignerChangeEvent,
  type StakedEvent,
  type StakeUpdateEvent,
  type UnstakeInitEvent,
} from '../framework/observers';
import { MsgCheckpointAckDef, MsgCheckpointDef } from '../checkpoint/msgs';
import {
  MsgSignerUpdateDef,
  MsgStakeUpdateDef,
  MsgValidatorExitDef,
  MsgValidatorJoinDef,
  type MsgValidatorJoin,
} from './msgs';

// --- helpers ---------------------------------------------------------------------------------

const BLOCK = 4321n;

/** A parent-chain tx hash never used before in this file (fakeTxHash is a pure function of its label). */
let hashCounter = 0;
const fakeTxHash = (label: string): Hex => labelTxHash(`staking-msgs-test/${label}/${hashCounter++}`);

interface SetMemberJson {
  ID: number;
  power: number;
  signer: Address;
  accum: number;
}

function setMembers(chain: TestChain): SetMemberJson[] {
  return chain.queryResult<{ validators: SetMemberJson[] }>('/staking/validator-set').validators;
}

function memberPower(chain: TestChain, address: Address): number | undefined {
  return setMembers(chain).find((m) => m.signer === address)?.power;
}

function validatorInfo(chain: TestChain, id: number | bigint): Record<string, unknown> | null {
  const r = restQuery(chain.app, `/staking/validator/${id}`);
  return r.status === 200 ? (r.body as { result: Record<string, unknown> }).result : null;
}

function sequenceOf(chain: TestChain, address: Address): string {
  return chain.queryResult<AccountJson>(`/auth/accounts/${address}`).value.sequence;
}

const bare = (pub: Hex): Hex => `0x${pub.slice(4)}`;

function staked(
  chain: TestChain,
  key: TestKey,
  id: bigint,
  opts: Partial<StakedEvent> = {},
  confirmations?: bigint,
): StakedEvent {
  const ev: StakedEvent = {
    name: 'Staked',
    txHash: fakeTxHash('staked'),
    logIndex: 7n,
    blockNumber: BLOCK,
    signer: key.address,
    validatorId: id,
    activationEpoch: 1n,
    amount: 25n * TOKEN,
    total: 25n * TOKEN,
    signerPubkey: bare(key.pubKey),
    ...opts,
  };
  chain.observers.addEvent(ev, confirmations);
  return ev;
}

function stakeUpdate(
  chain: TestChain,
  id: bigint,
  newAmount: bigint,
  opts: Partial<StakeUpdateEvent> = {},
): StakeUpdateEvent {
  const ev: StakeUpdateEvent = {
    name: 'StakeUpdate',
    txHash: fakeTxHash('stake-update'),
    logIndex: 2n,
    blockNumber: BLOCK + 10n,
    validatorId: id,
    newAmount,
    ...opts,
  };
  chain.observers.addEvent(ev);
  return ev;
}

function unstakeInit(
  chain: TestChain,
  id: bigint,
  deactivationEpoch: bigint,
  opts: Partial<UnstakeInitEvent> = {},
): UnstakeInitEvent {
  const user = chain.validators[Number(id) - 1]?.address ?? testKey('unknown-user').address;
  const ev: UnstakeInitEvent = {
    name: 'UnstakeInit',
    txHash: fakeTxHash('unstake'),
    logIndex: 1n,
    blockNumber: BLOCK + 20n,
    user,
    validatorId: id,
    deactivationEpoch,
    amount: 100n * TOKEN,
    ...opts,
  };
  chain.observers.addEvent(ev);
  return ev;
}

function signerChange(
  chain: TestChain,
  id: bigint,
  oldSigner: Address,
  next: TestKey,
  opts: Partial<SignerChangeEvent> = {},
): SignerChangeEvent {
  const ev: SignerChangeEvent = {
    name: 'SignerChange',
    txHash: fakeTxHash('signer-change'),
    logIndex: 4n,
    blockNumber: BLOCK + 30n,
    validatorId: id,
    oldSigner,
    newSigner: next.address,
    signerPubkey: bare(next.pubKey),
    ...opts,
  };
  chain.observers.addEvent(ev);
  return ev;
}

const joinMsg = (from: Address, id: bigint, key: TestKey, ev: { txHash: Hex; logIndex: bigint }): MsgValidatorJoin => ({
  from,
  id,
  pubKey: key.pubKey,
  txHash: ev.txHash,
  logIndex: ev.logIndex,
});
const refMsg = (from: Address, id: bigint, ev: { txHash: Hex; logIndex: bigint }) => ({
  from,
  id,
  txHash: ev.txHash,
  logIndex: ev.logIndex,
});

function expectRejected(r: TxResult | SideTxResult | undefined, code: number, codespace = '1'): void {
  expect(r, 'result present').toBeDefined();
  expect({ code: r!.code, codespace: r!.codespace }).toEqual({ code, codespace });
  expect(JSON.parse(r!.log)).toMatchObject({ code, codespace });
}

function expectOk(r: TxResult | SideTxResult | undefined): void {
  expect(r, 'result present').toBeDefined();
  expect({ code: r!.code, log: r!.log }).toEqual({ code: 0, log: '' });
}

/** Deliver one tx and settle it; returns its deliver result and its single side result. */
function settleOne(
  chain: TestChain,
  tx: Uint8Array,
): { tx: TxResult; side: SideTxResult | undefined; all: SideTxResult[] } {
  const r = chain.blockAndSettle([tx]);
  return { tx: r.txs[0]!, side: r.side[0], all: r.side };
}

/**
 * Propose, verify and acknowledge the next checkpoint through the real checkpoint messages, so
 * the ack count rises by one (the epoch clock of staking).
 */
function ackCheckpoint(chain: TestChain, keys: readonly TestKey[]): void {
  const count = BigInt(chain.queryResult<{ result: number }>('/checkpoints/count').result);
  const latest = count === 0n ? null : chain.queryResult<{ endBlock: number }>('/checkpoints/latest');
  const startBlock = latest === null ? 0n : BigInt(latest.endBlock) + 1n;
  const endBlock = startBlock + 63n;
  if ((chain.observers.sidechainHead ?? 0n) < endBlock + 10n) chain.observers.sidechainHead = endBlock + 10n;
  const proposer = chain.queryResult<{ signer: Address }>('/staking/current-proposer').signer;
  const key = keys.find((k) => k.address === proposer);
  if (!key) throw new Error(`no key for the checkpoint proposer ${proposer}`);
  const rootHash = sidechainRoot(startBlock, endBlock);
  const accountRootHash = chain.queryResult<{ accountRootHash: Hex }>('/topup/dividend-account-root').accountRootHash;
  const cp = chain.blockAndSettle([
    chain.tx(MsgCheckpointDef, { proposer, startBlock, endBlock, rootHash, accountRootHash }, key),
  ]);
  expectOk(cp.txs[0]);
  expectOk(cp.side[0]);
  const number = count + 1n;
  chain.observers.headerBlocks.set(number, { number, proposer, startBlock, endBlock, rootHash, accountRootHash });
  const sender = chain.validators[0]!;
  const ack = chain.blockAndSettle([
    chain.tx(
      MsgCheckpointAckDef,
      { from: sender.address, headerBlock: number, txHash: fakeTxHash('ack'), logIndex: 0n },
      sender,
    ),
  ]);
  expectOk(ack.txs[0]);
  expectOk(ack.side[0]);
  expect(chain.queryResult<{ result: number }>('/checkpoints/count').result).toBe(Number(number));
}

/** Re-encode a signed tx with its message value changed (the decoder runs before any signature check). */
function tamper(txBytes: Uint8Array, edit: (value: Record<string, unknown>) => void): Uint8Array {
  const tx = JSON.parse(new TextDecoder().decode(txBytes)) as { msg: { value: Record<string, unknown> } };
  edit(tx.msg.value);
  return new TextEncoder().encode(JSON.stringify(tx));
}

function expectDecodeError(r: TxResult, field: string): void {
  expect({ code: r.code, codespace: r.codespace }).toEqual({ code: 2, codespace: 'sdk' });
  const log = JSON.parse(r.log) as { message: string };
  expect(log.message.startsWith(`${field}:`), `log ${r.log} names ${field}`).toBe(true);
}

// --- MsgValidatorJoin ------------------------------------------------------------------------

describe('MsgValidatorJoin', () => {
  it('stores the validator from the Staked event and adds it to the set at the end block of the post block', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const newcomer = testKey('join/newcomer');
    const ev = staked(chain, newcomer, 5n, {
      amount: 25n * TOKEN + 999_999_999_999_999_999n,
      logIndex: 7n,
      blockNumber: BLOCK,
    });
    const tx = chain.tx(MsgValidatorJoinDef, joinMsg(a!.address, 5n, newcomer, ev), a!);

    // H: deliver only pre-checks; nothing is stored yet.
    const h = chain.block([tx]);
    expectOk(h.txs[0]);
    expect(h.end.validatorUpdates).toEqual([]);
    expect(validatorInfo(chain, 5)).toBeNull();
    expect(sequenceOf(chain, a!.address)).toBe('1');

    // H+1: the votes are being gathered; still nothing.
    const h1 = chain.block();
    expect(h1.end.sideTxResults).toEqual([]);
    expect(validatorInfo(chain, 5)).toBeNull();

    // H+2: the post handler stores the validator; end block adds it to the set.
    const h2 = chain.block();
    expect(h2.end.sideTxResults).toHaveLength(1);
    const side = h2.end.sideTxResults[0]!;
    expectOk(side);
    expect(side.msgType).toBe('staking/MsgValidatorJoin');
    expect(side.tally).toMatchObject({ result: 'yes', yesPower: 400n, totalPower: 400n });
    expect(side.events).toContainEqual({
      type: 'validator-join',
      attributes: { 'validator-id': '5', signer: newcomer.address, power: '25' },
    });
    expect(h2.end.validatorUpdates).toEqual([{ address: newcomer.address, power: 25n }]);

    const info = validatorInfo(chain, 5)!;
    expect(Object.keys(info)).toEqual([
      'ID',
      'startEpoch',
      'endEpoch',
      'power',
      'pubKey',
      'signer',
      'last_updated',
      'accum',
    ]);
    expect(info).toMatchObject({
      ID: 5,
      startEpoch: 1,
      endEpoch: 0,
      power: 25,
      pubKey: newcomer.pubKey,
      signer: newcomer.address,
    });
    // last_updated is the reference's event sequence, a JSON integer in validator-info results.
    expect(info.last_updated).toBe(Number(BLOCK) * 100000 + 7);
    expect(chain.queryResult(`/staking/signer/${newcomer.address}`)).toMatchObject({ ID: 5 });
    expect(memberPower(chain, newcomer.address)).toBe(25);
    expect(chain.queryResult(`/staking/isoldtx?txhash=${ev.txHash}&logindex=7`)).toBe(true);
    expect(chain.queryResult(`/staking/isoldtx?txhash=${ev.txHash}&logindex=8`)).toBe(false);
  });

  it('power is floor(amount / 1e18): exactly one token gives power 1', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const k = testKey('join/one-token');
    const ev = staked(chain, k, 5n, { amount: TOKEN });
    const r = settleOne(chain, chain.tx(MsgValidatorJoinDef, joinMsg(a!.address, 5n, k, ev), a!));
    expectOk(r.side);
    expect(validatorInfo(chain, 5)).toMatchObject({ power: 1 });
    expect(memberPower(chain, k.address)).toBe(1);
  });

  it('the new validator votes on later side txs once it is in the set', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const k = testKey('join/voter');
    const ev = staked(chain, k, 5n, { amount: 400n * TOKEN });
    const r0 = settleOne(chain, chain.tx(MsgValidatorJoinDef, joinMsg(a!.address, 5n, k, ev), a!));
    expectOk(r0.side);
    const k2 = testKey('join/voter-2');
    const ev2 = staked(chain, k2, 6n);
    const r = settleOne(chain, chain.tx(MsgValidatorJoinDef, joinMsg(a!.address, 6n, k2, ev2), a!));
    expectOk(r.side);
    expect(r.side!.tally).toMatchObject({ yesPower: 800n, totalPower: 800n });
  });

  it('a future activationEpoch keeps the validator out of the set until ackCount + 1 >= activationEpoch', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const k = testKey('join/future');
    const ev = staked(chain, k, 5n, { activationEpoch: 3n, amount: 30n * TOKEN });
    const r = settleOne(chain, chain.tx(MsgValidatorJoinDef, joinMsg(a!.address, 5n, k, ev), a!));
    expectOk(r.side);
    // Stored with startEpoch = activationEpoch, but not current at epoch 1.
    expect(validatorInfo(chain, 5)).toMatchObject({ startEpoch: 3, power: 30 });
    expect(memberPower(chain, k.address)).toBeUndefined();
    chain.block();
    expect(memberPower(chain, k.address)).toBeUndefined();

    ackCheckpoint(chain, chain.validators); // ackCount 1, epoch 2
    expect(memberPower(chain, k.address)).toBeUndefined();

    ackCheckpoint(chain, chain.validators); // ackCount 2, epoch 3 = activationEpoch
    expect(memberPower(chain, k.address)).toBe(30);
    expect(setMembers(chain)).toHaveLength(5);
  });

  it('activationEpoch 0 (already passed) joins at once', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const k = testKey('join/epoch-0');
    const ev = staked(chain, k, 5n, { activationEpoch: 0n });
    expectOk(settleOne(chain, chain.tx(MsgValidatorJoinDef, joinMsg(a!.address, 5n, k, ev), a!)).side);
    expect(validatorInfo(chain, 5)).toMatchObject({ startEpoch: 0 });
    expect(memberPower(chain, k.address)).toBe(25);
  });

  it('rejects an id that already joined with 2507 at deliver (state untouched)', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const k = testKey('join/dup-id');
    const ev = staked(chain, k, 2n);
    const before = chain.app.appHash;
    const r = chain.block([chain.tx(MsgValidatorJoinDef, joinMsg(a!.address, 2n, k, ev), a!)]);
    expectRejected(r.txs[0], 2507);
    expect(JSON.parse(r.txs[0]!.log).message).toBe('Validator already joined');
    expect(sequenceOf(chain, a!.address)).toBe('0');
    // A rejected tx leaves the state untouched: no fee, no sequence, no pending side tx.
    expect(chain.app.appHash).toBe(before);
    // Nothing pending: no side result arrives.
    expect([...chain.block().end.sideTxResults, ...chain.block().end.sideTxResults]).toEqual([]);
  });

  it('rejects a signer that is already used by another validator with 2507 at deliver', () => {
    const chain = new TestChain();
    const [a, b] = chain.validators;
    const ev = staked(chain, b!, 9n);
    const r = chain.block([chain.tx(MsgValidatorJoinDef, joinMsg(a!.address, 9n, b!, ev), a!)]);
    expectRejected(r.txs[0], 2507);
  });

  it('rejects a replayed (tx_hash, log_index) with 1401 at deliver', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const k = testKey('join/replay-1');
    const ev = staked(chain, k, 5n);
    expectOk(settleOne(chain, chain.tx(MsgValidatorJoinDef, joinMsg(a!.address, 5n, k, ev), a!)).side);
    // Another id and key, same parent-chain log.
    const other = testKey('join/replay-2');
    const r = chain.block([chain.tx(MsgValidatorJoinDef, joinMsg(a!.address, 6n, other, ev), a!)]);
    expectRejected(r.txs[0], 1401);
    expect(JSON.parse(r.txs[0]!.log).message).toBe('Old txhash not allowed');
  });

  it('rejects the second of two identical joins in one block with 1401 at post', () => {
    const chain = new TestChain();
    const [a, b] = chain.validators;
    const k = testKey('join/post-replay');
    const ev = staked(chain, k, 5n);
    const msg = joinMsg(a!.address, 5n, k, ev);
    const r = chain.blockAndSettle([
      chain.tx(MsgValidatorJoinDef, msg, a!),
      chain.tx(MsgValidatorJoinDef, { ...msg, from: b!.address }, b!),
    ]);
    expectOk(r.txs[0]);
    expectOk(r.txs[1]);
    expect(r.side).toHaveLength(2);
    expectOk(r.side[0]);
    expectRejected(r.side[1], 1401);
    expect(r.side[1]!.events).toEqual([]);
    expect(validatorInfo(chain, 5)).toMatchObject({ power: 25 });
  });

  it('rejects an amount below one token with 1400 at post', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const k = testKey('join/small');
    const ev = staked(chain, k, 5n, { amount: TOKEN - 1n });
    const r = settleOne(chain, chain.tx(MsgValidatorJoinDef, joinMsg(a!.address, 5n, k, ev), a!));
    expectOk(r.tx);
    expectRejected(r.side, 1400);
    expect(JSON.parse(r.side!.log).message).toBe(`Invalid amount ${TOKEN - 1n} for validator 5`);
    expect(r.side!.tally.result).toBe('yes');
    expect(validatorInfo(chain, 5)).toBeNull();
    // A failed post does not burn the replay key.
    expect(chain.queryResult(`/staking/isoldtx?txhash=${ev.txHash}&logindex=${ev.logIndex}`)).toBe(false);
  });

  it('an event that is missing or not yet confirmed makes validators skip: 5502, and a later retry succeeds', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const k = testKey('join/unconfirmed');
    // Missing: no event at all.
    const missing = { txHash: fakeTxHash('nowhere'), logIndex: 0n };
    const r0 = settleOne(chain, chain.tx(MsgValidatorJoinDef, joinMsg(a!.address, 5n, k, missing), a!));
    expectOk(r0.tx);
    expectRejected(r0.side, 5502);
    expect(r0.side!.tally.result).toBe('skip');
    expect(JSON.parse(r0.side!.log).message).toBe('External call majority validation failed. ');

    // Unconfirmed: 5 confirmations, 6 required.
    const ev = staked(chain, k, 5n, {}, 5n);
    const r1 = settleOne(chain, chain.tx(MsgValidatorJoinDef, joinMsg(a!.address, 5n, k, ev), a!));
    expectRejected(r1.side, 5502);
    expect(r1.side!.tally.result).toBe('skip');
    expect(validatorInfo(chain, 5)).toBeNull();

    // Confirmed now: the same message goes through.
    chain.observers.addEvent(ev, 6n);
    const r2 = settleOne(chain, chain.tx(MsgValidatorJoinDef, joinMsg(a!.address, 5n, k, ev), a!));
    expectOk(r2.side);
    expect(validatorInfo(chain, 5)).toMatchObject({ ID: 5 });
  });

  it('votes no (5502) on a wrong event type, validator id, public key or signer', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const k = testKey('join/mismatch');
    const other = testKey('join/mismatch-other');
    const cases: Array<[string, ParentEvent]> = [
      [
        'wrong event type',
        {
          name: 'StakeUpdate',
          txHash: fakeTxHash('wrong-type'),
          logIndex: 0n,
          blockNumber: BLOCK,
          validatorId: 5n,
          newAmount: 25n * TOKEN,
        },
      ],
      ['wrong validator id', staked(chain, k, 6n)],
      ['wrong public key', staked(chain, k, 5n, { signerPubkey: bare(other.pubKey) })],
      ['wrong signer', staked(chain, k, 5n, { signer: other.address })],
    ];
    for (const [label, ev] of cases) {
      chain.observers.addEvent(ev);
      const r = settleOne(chain, chain.tx(MsgValidatorJoinDef, joinMsg(a!.address, 5n, k, ev), a!));
      expect(r.tx.code, label).toBe(0);
      expect(r.side?.code, label).toBe(5502);
      expect(r.side?.tally.result, label).toBe('no');
    }
    expect(validatorInfo(chain, 5)).toBeNull();
    expect(setMembers(chain)).toHaveLength(4);
  });

  it('decode errors are sdk code 2 and name the bad field', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const k = testKey('join/decode');
    const ev = staked(chain, k, 5n);
    const good = chain.tx(MsgValidatorJoinDef, joinMsg(a!.address, 5n, k, ev), a!);
    const cases: Array<[string, (v: Record<string, unknown>) => void]> = [
      ['tx.msg.value.pub_key', (v) => (v.pub_key = '0x1234')],
      ['tx.msg.value.pub_key', (v) => (v.pub_key = `0x05${k.pubKey.slice(4)}`)],
      ['tx.msg.value.pub_key', (v) => delete v.pub_key],
      ['tx.msg.value.tx_hash', (v) => (v.tx_hash = '0x' + '11'.repeat(31))],
      ['tx.msg.value.log_index', (v) => (v.log_index = '-1')],
      ['tx.msg.value.log_index', (v) => (v.log_index = '18446744073709551616')],
      ['tx.msg.value.id', (v) => (v.id = 'five')],
      ['tx.msg.value.from', (v) => (v.from = '0x1234')],
      ['tx.msg.value.amount', (v) => (v.amount = '1000')],
    ];
    const results = chain.block(cases.map(([, edit]) => tamper(good, edit))).txs;
    for (const [i, [field]] of cases.entries()) expectDecodeError(results[i]!, field);
    expect(sequenceOf(chain, a!.address)).toBe('0');
  });
});

// --- MsgStakeUpdate --------------------------------------------------------------------------

describe('MsgStakeUpdate', () => {
  it('sets power = floor(newAmount / 1e18) and last_updated; the set power changes at the end block of the post block', () => {
    const chain = new TestChain();
    const [a, b] = chain.validators;
    const ev = stakeUpdate(chain, 2n, 333n * TOKEN + 5n, { logIndex: 9n, blockNumber: 777n });
    const tx = chain.tx(MsgStakeUpdateDef, refMsg(a!.address, 2n, ev), a!);
    const h = chain.block([tx]);
    expectOk(h.txs[0]);
    chain.block();
    expect(memberPower(chain, b!.address)).toBe(100);
    const h2 = chain.block();
    expectOk(h2.end.sideTxResults[0]);
    expect(h2.end.sideTxResults[0]!.events).toContainEqual({
      type: 'stake-update',
      attributes: { 'validator-id': '2', power: '333' },
    });
    expect(h2.end.validatorUpdates).toEqual([{ address: b!.address, power: 333n }]);
    expect(memberPower(chain, b!.address)).toBe(333);
    expect(validatorInfo(chain, 2)).toMatchObject({ power: 333, last_updated: 777 * 100000 + 9 });
  });

  it('rejects an unknown validator id with 2501 at deliver', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const ev = stakeUpdate(chain, 42n, 10n * TOKEN);
    const r = chain.block([chain.tx(MsgStakeUpdateDef, refMsg(a!.address, 42n, ev), a!)]);
    expectRejected(r.txs[0], 2501);
    expect(JSON.parse(r.txs[0]!.log).message).toBe('Validator information not found');
  });

  it('rejects a replayed (tx_hash, log_index) with 1401 at deliver and at post', () => {
    const chain = new TestChain();
    const [a, b] = chain.validators;
    const ev = stakeUpdate(chain, 2n, 50n * TOKEN);
    const msg = refMsg(a!.address, 2n, ev);
    // Post: the same update twice in one block.
    const r = chain.blockAndSettle([
      chain.tx(MsgStakeUpdateDef, msg, a!),
      chain.tx(MsgStakeUpdateDef, { ...msg, from: b!.address }, b!),
    ]);
    expectOk(r.side[0]);
    expectRejected(r.side[1], 1401);
    // Deliver: once more, even for another validator id.
    const again = chain.block([
      chain.tx(MsgStakeUpdateDef, msg, a!),
      chain.tx(MsgStakeUpdateDef, refMsg(b!.address, 3n, ev), b!),
    ]);
    expectRejected(again.txs[0], 1401);
    expectRejected(again.txs[1], 1401);
    expect(memberPower(chain, b!.address)).toBe(50);
  });

  it('rejects a new amount below one token with 1400 at post (power unchanged)', () => {
    const chain = new TestChain();
    const [a, b] = chain.validators;
    const ev = stakeUpdate(chain, 2n, TOKEN - 1n);
    const r = settleOne(chain, chain.tx(MsgStakeUpdateDef, refMsg(a!.address, 2n, ev), a!));
    expectOk(r.tx);
    expectRejected(r.side, 1400);
    expect(JSON.parse(r.side!.log).message).toBe(`Invalid amount ${TOKEN - 1n} for validator 2`);
    expect(memberPower(chain, b!.address)).toBe(100);
    expect(validatorInfo(chain, 2)).toMatchObject({ power: 100 });
  });

  it('votes no (5502) on a wrong event type or validator id; skips (5502) on a missing event', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const wrongId = stakeUpdate(chain, 3n, 50n * TOKEN);
    const wrongType = staked(chain, testKey('su/x'), 2n);
    for (const ev of [wrongId, wrongType]) {
      const r = settleOne(chain, chain.tx(MsgStakeUpdateDef, refMsg(a!.address, 2n, ev), a!));
      expectRejected(r.side, 5502);
      expect(r.side!.tally.result).toBe('no');
    }
    const r = settleOne(
      chain,
      chain.tx(MsgStakeUpdateDef, refMsg(a!.address, 2n, { txHash: fakeTxHash('none'), logIndex: 0n }), a!),
    );
    expectRejected(r.side, 5502);
    expect(r.side!.tally.result).toBe('skip');
    expect(validatorInfo(chain, 2)).toMatchObject({ power: 100 });
  });

  it('decode errors name the field', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const good = chain.tx(MsgStakeUpdateDef, refMsg(a!.address, 2n, { txHash: fakeTxHash('d'), logIndex: 0n }), a!);
    const r = chain.block([
      tamper(good, (v) => (v.amount = '5')),
      tamper(good, (v) => (v.tx_hash = 'zz')),
      tamper(good, (v) => delete v.id),
    ]).txs;
    expectDecodeError(r[0]!, 'tx.msg.value.amount');
    expectDecodeError(r[1]!, 'tx.msg.value.tx_hash');
    expectDecodeError(r[2]!, 'tx.msg.value.id');
  });
});

// --- MsgValidatorExit ------------------------------------------------------------------------

describe('MsgValidatorExit', () => {
  it('sets endEpoch and emits SignerUpdate; the validator stays in the set until ackCount + 1 >= deactivationEpoch', () => {
    const chain = new TestChain();
    const [a, , c] = chain.validators;
    const ev = unstakeInit(chain, 3n, 2n, { logIndex: 11n, blockNumber: 999n });
    const r = settleOne(chain, chain.tx(MsgValidatorExitDef, refMsg(a!.address, 3n, ev), a!));
    expectOk(r.side);
    expect(r.side!.events).toContainEqual({
      type: 'SignerUpdate',
      attributes: { validatorId: '3', oldSigner: c!.address, newSigner: c!.address },
    });
    expect(validatorInfo(chain, 3)).toMatchObject({ endEpoch: 2, last_updated: 999 * 100000 + 11 });
    // Epoch 1: endEpoch 2 > 1, still current.
    expect(memberPower(chain, c!.address)).toBe(100);
    chain.block();
    expect(memberPower(chain, c!.address)).toBe(100);

    ackCheckpoint(chain, chain.validators); // epoch 2 = deactivationEpoch
    expect(memberPower(chain, c!.address)).toBeUndefined();
    expect(setMembers(chain)).toHaveLength(3);
    // The record stays (with its endEpoch).
    expect(validatorInfo(chain, 3)).toMatchObject({ ID: 3, endEpoch: 2, power: 100 });
  });

  it('a deactivationEpoch already reached removes the validator at the end block of the post block', () => {
    const chain = new TestChain();
    const [a, , c] = chain.validators;
    const ev = unstakeInit(chain, 3n, 1n);
    chain.block([chain.tx(MsgValidatorExitDef, refMsg(a!.address, 3n, ev), a!)]);
    chain.block();
    const h2 = chain.block();
    expectOk(h2.end.sideTxResults[0]);
    expect(h2.end.validatorUpdates).toEqual([{ address: c!.address, power: 0n }]);
    expect(memberPower(chain, c!.address)).toBeUndefined();
    // The removed validator no longer counts in tallies.
    const ev2 = stakeUpdate(chain, 2n, 10n * TOKEN);
    const r = settleOne(chain, chain.tx(MsgStakeUpdateDef, refMsg(a!.address, 2n, ev2), a!));
    expectOk(r.side);
    expect(r.side!.tally.totalPower).toBe(300n);
  });

  it('rejects an unknown validator with 2501 and an exiting one with 2504 at deliver', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const unknown = unstakeInit(chain, 77n, 5n);
    expectRejected(chain.block([chain.tx(MsgValidatorExitDef, refMsg(a!.address, 77n, unknown), a!)]).txs[0], 2501);

    const ev = unstakeInit(chain, 3n, 5n);
    expectOk(settleOne(chain, chain.tx(MsgValidatorExitDef, refMsg(a!.address, 3n, ev), a!)).side);
    const again = unstakeInit(chain, 3n, 6n);
    const r = chain.block([chain.tx(MsgValidatorExitDef, refMsg(a!.address, 3n, again), a!)]);
    expectRejected(r.txs[0], 2504);
    expect(JSON.parse(r.txs[0]!.log).message).toBe('Validator already unbonded , cannot exit');
    expect(validatorInfo(chain, 3)).toMatchObject({ endEpoch: 5 });
  });

  it('rejects a replayed (tx_hash, log_index) with 1401 at deliver and at post', () => {
    const chain = new TestChain();
    const [a, b] = chain.validators;
    const ev = unstakeInit(chain, 3n, 5n);
    const msg = refMsg(a!.address, 3n, ev);
    const r = chain.blockAndSettle([
      chain.tx(MsgValidatorExitDef, msg, a!),
      chain.tx(MsgValidatorExitDef, { ...msg, from: b!.address }, b!),
    ]);
    expectOk(r.side[0]);
    expectRejected(r.side[1], 1401);
    // Another validator (not exiting), same log: 1401 at deliver.
    const d = chain.block([chain.tx(MsgValidatorExitDef, refMsg(a!.address, 4n, ev), a!)]);
    expectRejected(d.txs[0], 1401);
    expect(validatorInfo(chain, 4)).toMatchObject({ endEpoch: 0 });
  });

  it('votes no (5502) on a wrong event type or validator id', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const wrongId = unstakeInit(chain, 4n, 5n);
    const wrongType = stakeUpdate(chain, 3n, 5n * TOKEN);
    for (const ev of [wrongId, wrongType]) {
      const r = settleOne(chain, chain.tx(MsgValidatorExitDef, refMsg(a!.address, 3n, ev), a!));
      expectRejected(r.side, 5502);
      expect(r.side!.tally.result).toBe('no');
    }
    expect(validatorInfo(chain, 3)).toMatchObject({ endEpoch: 0 });
  });
});

// --- MsgSignerUpdate -------------------------------------------------------------------------

describe('MsgSignerUpdate', () => {
  it('changes signer and pubKey, moves the whole matic balance, replaces the set member and emits SignerUpdate', () => {
    const chain = new TestChain();
    const [a, b, , d] = chain.validators;
    const next = testKey('signer/new');
    const ev = signerChange(chain, 2n, b!.address, next, { logIndex: 5n, blockNumber: 888n });
    const oldBalance = chain.balance(b!.address);
    expect(oldBalance).toBe(1000n * TOKEN);
    const tx = chain.tx(MsgSignerUpdateDef, { ...refMsg(a!.address, 2n, ev), pubKey: next.pubKey }, a!);
    // d proposes, so b's balance does not change through fees meanwhile.
    chain.block([tx], { proposer: d!.address });
    chain.block([], { proposer: d!.address });
    expect(memberPower(chain, b!.address)).toBe(100);
    const h2 = chain.block([], { proposer: d!.address });
    const side = h2.end.sideTxResults[0]!;
    expectOk(side);
    expect(side.events).toContainEqual({
      type: 'SignerUpdate',
      attributes: { validatorId: '2', oldSigner: b!.address, newSigner: next.address },
    });
    expect(h2.end.validatorUpdates).toEqual(
      [
        { address: b!.address, power: 0n },
        { address: next.address, power: 100n },
      ].sort((x, y) => (x.address < y.address ? -1 : 1)),
    );
    expect(chain.balance(b!.address)).toBe(0n);
    expect(chain.balance(next.address)).toBe(oldBalance);
    expect(validatorInfo(chain, 2)).toMatchObject({
      ID: 2,
      signer: next.address,
      pubKey: next.pubKey,
      power: 100,
      last_updated: 888 * 100000 + 5,
    });
    expect(memberPower(chain, b!.address)).toBeUndefined();
    expect(memberPower(chain, next.address)).toBe(100);
    expect(setMembers(chain)).toHaveLength(4);
    expect(chain.queryResult(`/staking/signer/${next.address}`)).toMatchObject({ ID: 2 });
    expect(restQuery(chain.app, `/staking/signer/${b!.address}`).status).toBe(404);

    // The new signer votes from now on.
    const ev2 = stakeUpdate(chain, 1n, 10n * TOKEN);
    const r = settleOne(chain, chain.tx(MsgStakeUpdateDef, refMsg(a!.address, 1n, ev2), a!));
    expectOk(r.side);
    expect(r.side!.tally).toMatchObject({ yesPower: 400n, totalPower: 400n });
  });

  it('rejects an unknown validator with 2501 and an unchanged signer with 2513 at deliver', () => {
    const chain = new TestChain();
    const [a, b] = chain.validators;
    const next = testKey('signer/unknown');
    const ev = signerChange(chain, 12n, b!.address, next);
    expectRejected(
      chain.block([chain.tx(MsgSignerUpdateDef, { ...refMsg(a!.address, 12n, ev), pubKey: next.pubKey }, a!)]).txs[0],
      2501,
    );
    const same = signerChange(chain, 2n, b!.address, b!);
    const r = chain.block([chain.tx(MsgSignerUpdateDef, { ...refMsg(a!.address, 2n, same), pubKey: b!.pubKey }, a!)]);
    expectRejected(r.txs[0], 2513);
    expect(JSON.parse(r.txs[0]!.log).message).toBe('New signer same as old signer');
  });

  it('rejects a replayed (tx_hash, log_index) with 1401 at deliver and at post', () => {
    const chain = new TestChain();
    const [a, b, c] = chain.validators;
    const next = testKey('signer/replay');
    const ev = signerChange(chain, 2n, b!.address, next);
    const msg = { ...refMsg(a!.address, 2n, ev), pubKey: next.pubKey };
    const r = chain.blockAndSettle([
      chain.tx(MsgSignerUpdateDef, msg, a!),
      chain.tx(MsgSignerUpdateDef, { ...msg, from: c!.address }, c!),
    ]);
    expectOk(r.side[0]);
    expectRejected(r.side[1], 1401);
    const third = testKey('signer/replay-3');
    const d = chain.block([chain.tx(MsgSignerUpdateDef, { ...refMsg(a!.address, 2n, ev), pubKey: third.pubKey }, a!)]);
    expectRejected(d.txs[0], 1401);
    expect(validatorInfo(chain, 2)).toMatchObject({ signer: next.address });
  });

  it('rejects at post (2507) a new signer that another validator already uses', () => {
    const chain = new TestChain();
    const [a, b, c] = chain.validators;
    const ev = signerChange(chain, 2n, b!.address, c!);
    const r = settleOne(chain, chain.tx(MsgSignerUpdateDef, { ...refMsg(a!.address, 2n, ev), pubKey: c!.pubKey }, a!));
    expectOk(r.tx);
    expectRejected(r.side, 2507);
    expect(validatorInfo(chain, 2)).toMatchObject({ signer: b!.address });
    expect(validatorInfo(chain, 3)).toMatchObject({ signer: c!.address });
  });

  it('votes no (5502) when the event names another signer or public key, or another validator', () => {
    const chain = new TestChain();
    const [a, b] = chain.validators;
    const next = testKey('signer/mismatch');
    const other = testKey('signer/mismatch-other');
    const cases = [
      signerChange(chain, 2n, b!.address, other),
      signerChange(chain, 2n, b!.address, next, { signerPubkey: bare(other.pubKey) }),
      signerChange(chain, 3n, b!.address, next),
    ];
    for (const ev of cases) {
      const r = settleOne(
        chain,
        chain.tx(MsgSignerUpdateDef, { ...refMsg(a!.address, 2n, ev), pubKey: next.pubKey }, a!),
      );
      expectRejected(r.side, 5502);
      expect(r.side!.tally.result).toBe('no');
    }
    expect(validatorInfo(chain, 2)).toMatchObject({ signer: b!.address });
    expect(chain.balance(next.address)).toBe(0n);
  });

  it('decode errors name the field (pubKey, not pub_key)', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const next = testKey('signer/decode');
    const good = chain.tx(
      MsgSignerUpdateDef,
      { ...refMsg(a!.address, 2n, { txHash: fakeTxHash('d'), logIndex: 0n }), pubKey: next.pubKey },
      a!,
    );
    const r = chain.block([
      tamper(good, (v) => (v.pubKey = next.address)),
      tamper(good, (v) => {
        v.pub_key = v.pubKey;
        delete v.pubKey;
      }),
    ]).txs;
    expectDecodeError(r[0]!, 'tx.msg.value.pubKey');
    expectDecodeError(r[1]!, 'tx.msg.value.pub_key');
  });
});

// --- side-tx validation ----------------------------------------------------------------------

describe('side-tx validation of staking messages', () => {
  function deviantObservers(chain: TestChain, ev: StakedEvent, amount: bigint): FakeObservers {
    const o = new FakeObservers();
    o.sidechainHead = chain.observers.sidechainHead;
    o.addEvent({ ...ev, amount });
    return o;
  }

  it('one validator reporting a different observation cannot change the applied one', () => {
    const chain = new TestChain();
    const [a, , , d] = chain.validators;
    const k = testKey('side/minority');
    const ev = staked(chain, k, 5n, { amount: 10n * TOKEN });
    chain.observerOf.set(d!.address, deviantObservers(chain, ev, 99n * TOKEN));
    const r = settleOne(chain, chain.tx(MsgValidatorJoinDef, joinMsg(a!.address, 5n, k, ev), a!));
    expectOk(r.side);
    expect(r.side!.tally).toMatchObject({ result: 'yes', yesPower: 300n, totalPower: 400n });
    expect(validatorInfo(chain, 5)).toMatchObject({ power: 10 });
  });

  it('a forged observation held by the largest validator (< 2/3) wins nothing, and blocks the honest 1/2: 5502', () => {
    const chain = new TestChain({ powers: [100n, 100n, 100n, 301n] });
    const [a, , , d] = chain.validators;
    const k = testKey('side/forged');
    const ev = staked(chain, k, 5n, { amount: 10n * TOKEN });
    chain.voteOverride.set(d!.address, () => ({
      result: 'yes',
      observation: { activationEpoch: 1n, amount: 5000n * TOKEN, blockNumber: ev.blockNumber },
    }));
    const r = settleOne(chain, chain.tx(MsgValidatorJoinDef, joinMsg(a!.address, 5n, k, ev), a!));
    expectRejected(r.side, 5502);
    expect(r.side!.tally).toMatchObject({ result: 'skip', yesPower: 301n, totalPower: 601n });
    expect(validatorInfo(chain, 5)).toBeNull();
  });

  it('an even split between two observations fails with 5502', () => {
    const chain = new TestChain();
    const [a, , c, d] = chain.validators;
    const k = testKey('side/split');
    const ev = staked(chain, k, 5n, { amount: 10n * TOKEN });
    const deviant = deviantObservers(chain, ev, 20n * TOKEN);
    chain.observerOf.set(c!.address, deviant);
    chain.observerOf.set(d!.address, deviant);
    const r = settleOne(chain, chain.tx(MsgValidatorJoinDef, joinMsg(a!.address, 5n, k, ev), a!));
    expectRejected(r.side, 5502);
    expect(r.side!.tally.yesPower).toBe(200n);
    expect(validatorInfo(chain, 5)).toBeNull();
  });

  it('with 1/3 or more of the power silent the post fails with 5502; with less it passes', () => {
    const chain = new TestChain({ validators: 3 });
    const [a, , c] = chain.validators;
    const k = testKey('side/silent');
    const ev = staked(chain, k, 5n);
    chain.silent.add(c!.address); // exactly 1/3 silent: 200 is not more than 2/3 of 300
    const r = settleOne(chain, chain.tx(MsgValidatorJoinDef, joinMsg(a!.address, 5n, k, ev), a!));
    expectRejected(r.side, 5502);
    expect(r.side!.tally).toMatchObject({ result: 'skip', yesPower: 200n, totalPower: 300n });
    expect(validatorInfo(chain, 5)).toBeNull();

    const four = new TestChain();
    const [w, , y, z] = four.validators;
    const ev4 = staked(four, k, 5n);
    four.silent.add(y!.address);
    four.silent.add(z!.address);
    const r2 = settleOne(four, four.tx(MsgValidatorJoinDef, joinMsg(w!.address, 5n, k, ev4), w!));
    expectRejected(r2.side, 5502);
    expect(r2.side!.tally.yesPower).toBe(200n);
    four.silent.delete(y!.address);
    const r3 = settleOne(four, four.tx(MsgValidatorJoinDef, joinMsg(w!.address, 5n, k, ev4), w!));
    expectOk(r3.side);
    expect(r3.side!.tally).toMatchObject({ yesPower: 300n, totalPower: 400n });
  });
});
