/**
 * The ante handler through the real app (heimdall §6.2, README item 24): every rejection with its
 * code, codespace and message, and the project rule that a rejected transaction leaves no trace —
 * the app hash after the block equals that of a twin chain that got an empty block instead.
 * Then the success effects (fee to the proposer at end block, sequence + 1, public key recorded),
 * and the block limits (block gas 10,000,000; a block holding MsgCheckpoint holds nothing else).
 */
import { describe, expect, it } from 'vitest';
import {
  TestChain,
  testKey,
  TOKEN,
  type AccountJson,
  type TestKey,
  type TestChainOptions,
  type TxJson,
} from '../../app/testing/testChain';
import { fakeTxHash, sidechainRoot } from '../../app/testing/fakeObservers';
import { MsgTopupDef } from '../topup/msgs';
import { MsgSendDef, MsgMultiSendDef, type MsgMultiSend } from '../bank/msgs';
import { MsgCheckpointDef } from '../checkpoint/msgs';
import { getValidatorSet } from '../staking/keeper';
import { getAccount } from './keeper';
import { accountRootHash } from '../../index';
import { type Address } from '../../core/address';
import { type TxResult } from '../../app/blockResults';

const FEE = 10n ** 15n;
const BALANCE = 1000n * TOKEN;
const utf8 = (s: string) => new TextEncoder().encode(s);

/** Two chains with the same genesis; `a` gets the txs under test, `b` empty blocks. */
function twins(opts: TestChainOptions = {}): [TestChain, TestChain] {
  return [new TestChain(opts), new TestChain(opts)];
}

/** Apply `txs` to `a` and an empty block to `b`; every tx must be rejected and leave no trace. */
function expectRejectedWithoutTrace(a: TestChain, b: TestChain, txs: Uint8Array[], proposer?: Address): TxResult[] {
  const r = a.block(txs, proposer ? { proposer } : {});
  b.block([], proposer ? { proposer } : {});
  for (const t of r.txs) expect(t.code).not.toBe(0);
  expect(a.app.appHash).toBe(b.app.appHash);
  expect(a.app.exportState()).toBe(b.app.exportState());
  return r.txs;
}

function send(
  chain: TestChain,
  from: TestKey,
  to: Address,
  amount: bigint,
  opts: Parameters<TestChain['tx']>[3] = {},
  signWith: TestKey = from,
): Uint8Array {
  return chain.tx(
    MsgSendDef,
    { fromAddress: from.address, toAddress: to, amount: [{ denom: 'matic', amount }] },
    signWith,
    opts,
  );
}

/** Re-encode a tx after changing its JSON (the signature is not fixed up). */
function mutate(tx: Uint8Array, fn: (o: TxJson) => void): Uint8Array {
  const o = JSON.parse(new TextDecoder().decode(tx));
  fn(o);
  return utf8(JSON.stringify(o));
}

function expectError(r: TxResult | undefined, codespace: string, code: number, message: string): void {
  expect(r).toBeDefined();
  expect({ code: r!.code, codespace: r!.codespace, log: r!.log }).toEqual({
    code,
    codespace,
    log: JSON.stringify({ codespace, code, message }),
  });
}

const SIG_FAILED = 'signature verification failed; verify correct account sequence and chain-id';
const receiver = testKey('ante-receiver').address;
const proposerAddr = testKey('ante-block-proposer').address;

describe('ante rejections leave no trace', () => {
  it('empty signature: sdk 17 "No signers"', () => {
    const [a, b] = twins();
    const v = a.validators[0]!;
    for (const sig of ['', '0x']) {
      const tx = mutate(send(a, v, receiver, 1n), (o) => (o.signature = sig));
      expectError(expectRejectedWithoutTrace(a, b, [tx])[0], 'sdk', 17, 'No signers');
    }
    const tx = mutate(send(a, v, receiver, 1n), (o) => delete o.signature);
    expectError(expectRejectedWithoutTrace(a, b, [tx])[0], 'sdk', 17, 'No signers');
  });

  it('memo longer than 256 characters: sdk 13; 256 characters are accepted', () => {
    const [a, b] = twins();
    const v = a.validators[0]!;
    const r = expectRejectedWithoutTrace(a, b, [send(a, v, receiver, 1n, { memo: 'm'.repeat(257) })]);
    expectError(r[0], 'sdk', 13, 'maximum number of characters is 256 but received 257 characters');
    expect(a.block([send(a, v, receiver, 1n, { memo: 'm'.repeat(256) })]).txs[0]!.code).toBe(0);
  });

  it('unknown signer account: sdk 9', () => {
    const [a, b] = twins();
    const stranger = testKey('ante-stranger');
    const r = expectRejectedWithoutTrace(a, b, [send(a, stranger, receiver, 1n)]);
    expectError(r[0], 'sdk', 9, `account ${stranger.address} does not exist`);
    expect(getAccount(a.app.store, stranger.address)).toBeUndefined();
  });

  it('balance below the fixed fee: sdk 5 "insufficient funds to pay for fees; …"', () => {
    const poor = testKey('ante-poor');
    const [a, b] = twins({ accounts: [{ key: poor, amount: FEE - 1n }] });
    const r = expectRejectedWithoutTrace(a, b, [send(a, poor, receiver, 1n)]);
    expectError(r[0], 'sdk', 5, `insufficient funds to pay for fees; ${FEE - 1n}matic < ${FEE}matic`);
    expect(a.balance(poor.address)).toBe(FEE - 1n);
    expect(getAccount(a.app.store, poor.address)!.sequence).toBe(0n);
  });

  it('a balance of exactly the fee pays it', () => {
    const exact = testKey('ante-exact');
    const chain = new TestChain({ accounts: [{ key: exact, amount: FEE }] });
    // MsgTopup passes its deliver handler whatever the parent chain holds; it only needs the fee.
    const tx = chain.tx(
      MsgTopupDef,
      { fromAddress: exact.address, id: 1n, txHash: fakeTxHash('ante-exact'), logIndex: 0n },
      exact,
    );
    const r = chain.block([tx], { proposer: proposerAddr });
    expect(r.txs[0]!.code).toBe(0);
    expect(chain.balance(exact.address)).toBe(0n);
    expect(chain.balance(proposerAddr)).toBe(FEE);
  });

  it('wrong chain id: sdk 4', () => {
    const [a, b] = twins();
    const r = expectRejectedWithoutTrace(a, b, [send(a, a.validators[0]!, receiver, 1n, { chainId: 'other-chain' })]);
    expectError(r[0], 'sdk', 4, SIG_FAILED);
  });

  it('wrong sequence (ahead or behind): sdk 4 with the same message; a replayed tx fails the same way', () => {
    const [a, b] = twins();
    const v = a.validators[0]!;
    expectError(
      expectRejectedWithoutTrace(a, b, [send(a, v, receiver, 1n, { sequence: 1n })])[0],
      'sdk',
      4,
      SIG_FAILED,
    );
    // Advance both chains by one good tx, then replay it and sign with the old sequence.
    const good = send(a, v, receiver, 1n);
    expect(a.block([good]).txs[0]!.code).toBe(0);
    expect(b.block([good]).txs[0]!.code).toBe(0);
    expect(a.app.appHash).toBe(b.app.appHash);
    expectError(expectRejectedWithoutTrace(a, b, [good])[0], 'sdk', 4, SIG_FAILED);
    expectError(
      expectRejectedWithoutTrace(a, b, [send(a, v, receiver, 1n, { sequence: 0n })])[0],
      'sdk',
      4,
      SIG_FAILED,
    );
    expect(getAccount(a.app.store, v.address)!.sequence).toBe(1n);
  });

  it('signature by another key: sdk 4', () => {
    const [a, b] = twins();
    const [v1, v2] = a.validators;
    const r = expectRejectedWithoutTrace(a, b, [
      send(a, v1!, receiver, 1n, {}, v2!),
      send(a, v1!, receiver, 1n, {}, testKey('ante-intruder')),
    ]);
    expectError(r[0], 'sdk', 4, SIG_FAILED);
    expectError(r[1], 'sdk', 4, SIG_FAILED);
  });

  it('signature with v = 27 (or 28), or of the wrong length: sdk 4', () => {
    const [a, b] = twins();
    const v = a.validators[0]!;
    const good = send(a, v, receiver, 1n);
    const sigOf = (tx: Uint8Array) => JSON.parse(new TextDecoder().decode(tx)).signature as string;
    const sig = sigOf(good);
    const vByte = parseInt(sig.slice(-2), 16);
    expect([0, 1]).toContain(vByte);
    const v27 = mutate(good, (o) => (o.signature = sig.slice(0, -2) + (vByte + 27).toString(16)));
    const short = mutate(good, (o) => (o.signature = sig.slice(0, -2)));
    const r = expectRejectedWithoutTrace(a, b, [v27, short]);
    expectError(r[0], 'sdk', 4, SIG_FAILED);
    expectError(r[1], 'sdk', 4, SIG_FAILED);
    // The untouched original still goes through.
    expect(a.block([good]).txs[0]!.code).toBe(0);
  });

  it('undecodable tx, unknown message type, bad field: sdk 2 naming the field', () => {
    const [a, b] = twins();
    const v = a.validators[0]!;
    const good = send(a, v, receiver, 1n);
    const cases: Array<[Uint8Array, string]> = [
      [new Uint8Array([0xff, 0xfe, 0x00]), 'tx: not UTF-8'],
      [utf8('{"msg":'), 'tx: not JSON'],
      [utf8('[]'), 'tx: expected an object'],
      [
        mutate(good, (o) => (o.msg.type = 'cosmos-sdk/MsgBurn')),
        'tx.msg.type: unknown message type "cosmos-sdk/MsgBurn"',
      ],
      [mutate(good, (o) => delete o.msg.type), 'tx.msg.type: is required'],
      [mutate(good, (o) => (o.msg.value.to_address = '0x1234')), 'tx.msg.value.to_address'],
      [mutate(good, (o) => (o.msg.value.from_address = 42)), 'tx.msg.value.from_address'],
      [mutate(good, (o) => (o.msg.value.extra = 1)), 'tx.msg.value.extra: unknown field'],
      [mutate(good, (o) => (o.fee = '1')), 'tx.fee: unknown field'],
      [mutate(good, (o) => (o.signature = '0xzz')), 'tx.signature'],
      [mutate(good, (o) => (o.memo = 5)), 'tx.memo'],
    ];
    const r = expectRejectedWithoutTrace(
      a,
      b,
      cases.map(([tx]) => tx),
    );
    cases.forEach(([, field], i) => {
      expect(r[i]).toMatchObject({ code: 2, codespace: 'sdk' });
      const log = JSON.parse(r[i]!.log) as { codespace: string; code: number; message: string };
      expect(log.codespace).toBe('sdk');
      expect(log.code).toBe(2);
      expect(log.message.startsWith(field)).toBe(true);
    });
  });

  it('a message handler failure rolls back the fee and the sequence too (rejected tx = untouched state)', () => {
    const [a, b] = twins();
    const v = a.validators[0]!;
    const r = expectRejectedWithoutTrace(a, b, [send(a, v, receiver, 2000n * TOKEN)], proposerAddr);
    expect(r[0]).toMatchObject({ code: 10, codespace: 'sdk' });
    expect(a.balance(v.address)).toBe(BALANCE);
    expect(a.balance(proposerAddr)).toBe(0n);
    expect(getAccount(a.app.store, v.address)!.sequence).toBe(0n);
  });
});

describe('ante success', () => {
  it('deducts the fee (paid to the block proposer at end block), bumps the sequence and records the public key', () => {
    const chain = new TestChain();
    const v = chain.validators[1]!;
    const acc0 = chain.queryResult<AccountJson>(`/auth/accounts/${v.address}`).value;
    expect(acc0.public_key).toBeNull();
    expect(acc0.sequence).toBe('0');
    const r = chain.block([send(chain, v, receiver, 7n)], { proposer: proposerAddr });
    expect(r.txs[0]).toMatchObject({ code: 0, codespace: '', log: '' });
    expect(chain.balance(v.address)).toBe(BALANCE - FEE - 7n);
    expect(chain.balance(receiver)).toBe(7n);
    expect(chain.balance(proposerAddr)).toBe(FEE);
    const acc1 = chain.queryResult<AccountJson>(`/auth/accounts/${v.address}`).value;
    expect(acc1.sequence).toBe('1');
    expect(acc1.public_key).toEqual({
      type: 'tendermint/PubKeySecp256k1',
      value: Buffer.from(v.pubKey.slice(2), 'hex').toString('base64'),
    });
    expect(getAccount(chain.app.store, v.address)!.pubKey).toBe(v.pubKey);
    expect(chain.queryResult(`/auth/accounts/${v.address}/sequence`)).toEqual({
      address: v.address,
      account_number: acc1.account_number,
      sequence: '1',
    });
  });

  it('the fee collector is emptied into the proposer at end block, summed over the block', () => {
    const chain = new TestChain();
    const [v1, v2, v3] = chain.validators;
    const r = chain.block(
      [send(chain, v1!, receiver, 1n), send(chain, v2!, receiver, 1n), send(chain, v3!, receiver, 1n)],
      { proposer: proposerAddr },
    );
    expect(r.txs.map((t) => t.code)).toEqual([0, 0, 0]);
    expect(chain.balance(proposerAddr)).toBe(3n * FEE);
  });

  it('two txs from one account in one block, signed with consecutive sequences', () => {
    const chain = new TestChain();
    const v = chain.validators[0]!;
    const r = chain.block([send(chain, v, receiver, 1n), send(chain, v, receiver, 2n, { sequenceOffset: 1n })], {
      proposer: proposerAddr,
    });
    expect(r.txs.map((t) => t.code)).toEqual([0, 0]);
    expect(getAccount(chain.app.store, v.address)!.sequence).toBe(2n);
    expect(chain.balance(v.address)).toBe(BALANCE - 2n * FEE - 3n);
    // The same pair in the wrong order: the first fails (sequence 1 expected 0), the second then too.
    const seq = getAccount(chain.app.store, v.address)!.sequence;
    const r2 = chain.block([send(chain, v, receiver, 1n, { sequenceOffset: 1n }), send(chain, v, receiver, 1n)]);
    expect(r2.txs.map((t) => t.code)).toEqual([4, 0]);
    expect(getAccount(chain.app.store, v.address)!.sequence).toBe(seq + 1n);
  });

  it('gas used = size × 10 + 1000 and gas wanted = max tx gas', () => {
    const chain = new TestChain();
    const tx = send(chain, chain.validators[0]!, receiver, 1n);
    const r = chain.block([tx]);
    expect(r.txs[0]!.gasUsed).toBe(BigInt(tx.length) * 10n + 1000n);
    expect(r.txs[0]!.gasWanted).toBe(1_000_000n);
  });
});

// --- size and gas -------------------------------------------------------------------------------

/** Synthetic output addresses (no key derivation needed). */
const outAddr = (i: number) => ('0x' + (0xa0000 + i).toString(16).padStart(40, '0')) as Address;

function multiSend(from: Address, outputs: number): MsgMultiSend {
  return {
    inputs: [{ address: from, coins: [{ denom: 'matic', amount: BigInt(outputs) }] }],
    outputs: Array.from({ length: outputs }, (_, i) => ({
      address: outAddr(i),
      coins: [{ denom: 'matic', amount: 1n }],
    })),
  };
}

/** Output count per target size, found once (every sender's address has the same length). */
const outputsForSize = new Map<number, { n: number; pad: number }>();

/** A MultiSend tx of exactly `size` bytes (outputs for the bulk, memo padding for the rest). */
function txOfSize(chain: TestChain, key: TestKey, size: number, sequenceOffset = 0n): Uint8Array {
  let plan = outputsForSize.get(size);
  if (!plan) {
    const len = (n: number) => chain.tx(MsgMultiSendDef, multiSend(key.address, n), key, { sequenceOffset }).length;
    const one = len(1);
    const perOutput = len(11) - len(10);
    let n = Math.max(1, Math.floor((size - one - 128) / perOutput));
    for (;;) {
      const pad = size - len(n);
      if (pad >= 0 && pad <= 256) {
        plan = { n, pad };
        break;
      }
      n += pad < 0 ? -1 : Math.max(1, Math.floor((pad - 128) / perOutput));
    }
    outputsForSize.set(size, plan);
  }
  const tx = chain.tx(MsgMultiSendDef, multiSend(key.address, plan.n), key, {
    sequenceOffset,
    memo: 'p'.repeat(plan.pad),
  });
  expect(tx.length).toBe(size);
  return tx;
}

describe('tx gas limit (size × 10 + 1000 ≤ 1,000,000)', () => {
  it('a tx of 99,900 bytes uses exactly 1,000,000 gas and is accepted', () => {
    const chain = new TestChain();
    const tx = txOfSize(chain, chain.validators[0]!, 99_900);
    const r = chain.block([tx]);
    expect(r.txs[0]).toMatchObject({ code: 0, gasUsed: 1_000_000n, gasWanted: 1_000_000n });
  });

  it('99,901 bytes: sdk 12 out of gas at the signature check; 100,001 bytes: at txSize; no trace', () => {
    const [a, b] = twins();
    const v = a.validators[0]!;
    const r = expectRejectedWithoutTrace(a, b, [txOfSize(a, v, 99_901), txOfSize(a, v, 100_001)]);
    expectError(
      r[0],
      'sdk',
      12,
      'out of gas in location: ante verify: secp256k1; gasWanted: 1000000, gasUsed: 1000010',
    );
    expectError(r[1], 'sdk', 12, 'out of gas in location: txSize; gasWanted: 1000000, gasUsed: 1000010');
    expect(a.balance(v.address)).toBe(BALANCE);
  });
});

describe('block limits', () => {
  it('block gas 10,000,000: ten 1,000,000-gas txs fit exactly, the eleventh is rejected without trace', () => {
    const senders = Array.from({ length: 11 }, (_, i) => testKey(`ante-bulk-${i}`));
    const opts = { accounts: senders.map((key) => ({ key, amount: BALANCE })) };
    const [a, b] = twins(opts);
    const txs = senders.map((k) => txOfSize(a, k, 99_900));
    const r = a.block(txs, { proposer: proposerAddr });
    expect(r.txs.slice(0, 10).map((t) => t.code)).toEqual(Array(10).fill(0));
    expectError(r.txs[10], 'sdk', 12, 'out of gas in location: block; block gas 10000000 + 1000000 exceeds 10000000');
    // The twin gets the ten that fit: the eleventh left nothing behind (no fee, no sequence).
    b.block(txs.slice(0, 10), { proposer: proposerAddr });
    expect(a.app.appHash).toBe(b.app.appHash);
    expect(a.balance(senders[10]!.address)).toBe(BALANCE);
    expect(a.balance(proposerAddr)).toBe(10n * FEE);
  });

  it('normal-sized txs: the block holds floor(10,000,000 / (size × 10 + 1000)) of them', () => {
    // Equal-sized txs of ~80 kB (801,000 gas each): 12 fit, the 13th does not.
    const senders = Array.from({ length: 13 }, (_, i) => testKey(`ante-mid-${i}`));
    const chain = new TestChain({ accounts: senders.map((key) => ({ key, amount: BALANCE })) });
    const size = 80_000;
    const gas = BigInt(size) * 10n + 1000n;
    const fit = Number(10_000_000n / gas);
    expect(fit).toBe(12);
    const r = chain.block(senders.map((k) => txOfSize(chain, k, size)));
    expect(r.txs.map((t) => t.code)).toEqual([...Array(fit).fill(0), 12]);
    expect(r.txs[fit]!.log).toContain(
      `out of gas in location: block; block gas ${gas * BigInt(fit)} + ${gas} exceeds 10000000`,
    );
  });

  describe('a block holding MsgCheckpoint holds no other tx', () => {
    function checkpointSetup() {
      const [a, b] = twins();
      for (const c of [a, b]) c.observers.sidechainHead = 1_000n;
      const set = getValidatorSet(a.app.store);
      const proposer = a.validators.find((k) => k.address === set.proposer.address)!;
      const other = a.validators.find((k) => k.address !== proposer.address)!;
      const msg = {
        proposer: proposer.address,
        startBlock: 0n,
        endBlock: 255n,
        rootHash: sidechainRoot(0n, 255n),
        accountRootHash: accountRootHash(a.validators.map((_, i) => ({ id: i + 1, feeAmount: 0n, slashedAmount: 0n }))),
      };
      const cp = a.tx(MsgCheckpointDef, msg, proposer);
      return { a, b, cp, proposer, other };
    }
    const EXCLUSIVE = 'out of gas in location: block; a block holding MsgCheckpoint holds no other transaction';

    it('checkpoint first: the next tx is rejected (and leaves no trace); the checkpoint uses 10,000,000 gas', () => {
      const { a, b, cp, other } = checkpointSetup();
      const s = send(a, other, receiver, 1n);
      const r = a.block([cp, s]);
      b.block([cp]);
      expect(r.txs[0]).toMatchObject({ code: 0, gasUsed: 10_000_000n, gasWanted: 10_000_000n });
      expectError(r.txs[1], 'sdk', 12, EXCLUSIVE);
      expect(a.app.appHash).toBe(b.app.appHash);
    });

    it('another tx first: the checkpoint is rejected (and leaves no trace)', () => {
      const { a, b, cp, other } = checkpointSetup();
      const s = send(a, other, receiver, 1n);
      const r = a.block([s, cp]);
      b.block([s]);
      expect(r.txs[0]!.code).toBe(0);
      expectError(r.txs[1], 'sdk', 12, EXCLUSIVE);
      expect(a.app.appHash).toBe(b.app.appHash);
    });

    it('a second checkpoint tx in the same block is rejected too', () => {
      const { a, cp, proposer } = checkpointSetup();
      const msg2 = {
        proposer: proposer.address,
        startBlock: 0n,
        endBlock: 300n,
        rootHash: sidechainRoot(0n, 300n),
        accountRootHash: accountRootHash(a.validators.map((_, i) => ({ id: i + 1, feeAmount: 0n, slashedAmount: 0n }))),
      };
      const cp2 = a.tx(MsgCheckpointDef, msg2, proposer, { sequenceOffset: 1n });
      const r = a.block([cp, cp2]);
      expect(r.txs[0]!.code).toBe(0);
      expectError(r.txs[1], 'sdk', 12, EXCLUSIVE);
    });
  });
});
