/**
 * Checkpoint messages through the real app (heimdall §3.2-§3.4 with README items 8-10, 14, 32):
 * MsgCheckpoint (deliver checks, side vote against the sidechain, post handler buffering),
 * MsgCheckpointAck (header-block record from the parent chain, count, proposer rotation, end-block
 * adjust, continuity) and MsgCheckpointNoAck (timeout, allowed senders, rate limit), plus the
 * checkpoint queries.
 */
import { restQuery } from '../../rpc/testing/restQuery';
import { describe, expect, it } from 'vitest';
import { TestChain, testKey, TOKEN, type TestKey, type TestChainOptions } from '../../app/testing/testChain';
import { sidechainRoot } from '../../app/testing/fakeObservers';
import { type TxResult, type SideTxResult } from '../../app/blockResults';
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { abciLog } from '../../core/errors';
import { accountRootHash } from '../../index';
import { getValidatorSet } from '../staking/keeper';
import { type ValidatorSet } from '../../core/validatorSet';
import { type HeaderBlockRecord } from '../framework/observers';
import { MsgCheckpointDef, MsgCheckpointAckDef, MsgCheckpointNoAckDef, type MsgCheckpoint } from './msgs';

const BUFFER_MS = 1_000_000;
const ZERO_HASH = ('0x' + '00'.repeat(32)) as Hex;
const ZERO_ADDRESS = ('0x' + '00'.repeat(20)) as Address;
const SIDE_FAILED = {
  code: 5502,
  codespace: '1',
  log: abciLog({ codespace: '1', code: 5502, message: 'External call majority validation failed. ' }),
};

function newChain(opts: TestChainOptions = {}): TestChain {
  const chain = new TestChain(opts);
  chain.observers.sidechainHead = 100_000n;
  // Block times that are not whole seconds, so second truncation is exercised.
  chain.blockTimeMs = 5_300;
  return chain;
}

const keyOf = (chain: TestChain, address: Address): TestKey => chain.validators.find((k) => k.address === address)!;
const proposerKey = (chain: TestChain): TestKey => keyOf(chain, getValidatorSet(chain.app.store).proposer.address);
const notProposer = (chain: TestChain): TestKey =>
  chain.validators.find((k) => k.address !== proposerKey(chain).address)!;
const setJson = (chain: TestChain) => getValidatorSet(chain.app.store).toJSON();
const rotated = (set: ValidatorSet, times = 1): ValidatorSet => {
  const c = set.copy();
  for (let i = 0; i < times; i++) c.incrementProposerPriority(1);
  return c;
};
const seconds = (ms: number) => Math.floor(ms / 1000);
const zeroAccountRoot = (n = 4): Hex =>
  accountRootHash(Array.from({ length: n }, (_, i) => ({ id: i + 1, feeAmount: 0n, slashedAmount: 0n })));

function cpMsg(chain: TestChain, start: bigint, end: bigint, over: Partial<MsgCheckpoint> = {}): MsgCheckpoint {
  return {
    proposer: proposerKey(chain).address,
    startBlock: start,
    endBlock: end,
    rootHash: sidechainRoot(start, end),
    accountRootHash: zeroAccountRoot(),
    ...over,
  };
}

function cpTx(chain: TestChain, m: MsgCheckpoint, key: TestKey = keyOf(chain, m.proposer)): Uint8Array {
  return chain.tx(MsgCheckpointDef, m, key);
}

/** Deliver `txs` in one block (optionally at `timeMs`), then the two blocks that run the post handlers. */
function settle(
  chain: TestChain,
  txs: Uint8Array[],
  timeMs?: number,
): { txs: TxResult[]; side: SideTxResult[]; deliverTimeMs: number; postTimeMs: number } {
  const first = chain.block(txs, timeMs === undefined ? {} : { timeMs });
  const deliverTimeMs = chain.timeMs;
  const a = chain.block([]);
  expect(a.end.sideTxResults).toEqual([]);
  const b = chain.block([]);
  return { txs: first.txs, side: b.end.sideTxResults, deliverTimeMs, postTimeMs: chain.timeMs };
}

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

/** Rejected at deliver: the state is exactly what an empty block would leave. */
function expectRejected(chain: TestChain, tx: Uint8Array, codespace: string, code: number, message: string): void {
  const before = chain.app.exportState();
  const r = chain.block([tx]);
  expectError(r.txs[0], codespace, code, message);
  expect(chain.app.exportState()).toBe(before);
}

/** Buffer a first checkpoint 0..end and return it with the post block's time. */
function bufferFirst(chain: TestChain, end = 255n): { msg: MsgCheckpoint; postTimeMs: number } {
  const msg = cpMsg(chain, 0n, end);
  const r = settle(chain, [cpTx(chain, msg)]);
  expect(r.txs[0]!.code).toBe(0);
  expect(r.side).toHaveLength(1);
  expect(r.side[0]!.code).toBe(0);
  return { msg, postTimeMs: r.postTimeMs };
}

function record(
  m: { proposer: Address; startBlock: bigint; endBlock: bigint; rootHash: Hex; accountRootHash: Hex },
  number: bigint,
): HeaderBlockRecord {
  return {
    number,
    proposer: m.proposer,
    startBlock: m.startBlock,
    endBlock: m.endBlock,
    rootHash: m.rootHash,
    accountRootHash: m.accountRootHash,
  };
}

function ackTx(
  chain: TestChain,
  headerBlock: bigint,
  from: TestKey = chain.validators[3]!,
  opts: { sequenceOffset?: bigint } = {},
): Uint8Array {
  return chain.tx(
    MsgCheckpointAckDef,
    { from: from.address, headerBlock, txHash: ('0x' + 'ab'.repeat(32)) as Hex, logIndex: 0n },
    from,
    opts,
  );
}

function noAckTx(chain: TestChain, from: TestKey): Uint8Array {
  return chain.tx(MsgCheckpointNoAckDef, { from: from.address }, from);
}

describe('MsgCheckpoint', () => {
  it('success: the proposer checkpoint is verified by the side vote and buffered with the post block time in seconds', () => {
    const chain = newChain();
    const setBefore = setJson(chain);
    const msg = cpMsg(chain, 0n, 255n);
    expect(msg.accountRootHash).toBe(chain.queryResult('/topup/dividend-account-root').accountRootHash);
    const r = settle(chain, [cpTx(chain, msg)]);
    expect(r.txs[0]).toMatchObject({ code: 0, gasUsed: 10_000_000n });
    expect(r.txs[0]!.events).toEqual([
      { type: 'checkpoint', attributes: { proposer: msg.proposer, 'start-block': '0', 'end-block': '255' } },
    ]);
    expect(r.side).toHaveLength(1);
    expect(r.side[0]).toMatchObject({
      code: 0,
      codespace: '',
      log: '',
      msgType: 'checkpoint/MsgCheckpoint',
      txHash: r.txs[0]!.hash,
    });
    expect(r.side[0]!.tally).toMatchObject({ result: 'yes', yesPower: 400n, totalPower: 400n });
    expect(r.postTimeMs % 1000).not.toBe(0);
    const buffer = chain.queryResult('/checkpoints/buffer');
    expect(buffer).toEqual({
      proposer: msg.proposer,
      startBlock: 0,
      endBlock: 255,
      rootHash: msg.rootHash,
      accountRootHash: msg.accountRootHash,
      timestamp: seconds(r.postTimeMs),
    });
    expect(Object.keys(buffer)).toEqual([
      'proposer',
      'startBlock',
      'endBlock',
      'rootHash',
      'accountRootHash',
      'timestamp',
    ]);
    // Buffering neither counts nor rotates.
    expect(chain.queryResult('/checkpoints/count')).toEqual({ result: 0 });
    expect(setJson(chain)).toEqual(setBefore);
  });

  it('only the current proposer: 1400 "Invalid proposer in msg"; someone else signing for the proposer fails the signature (sdk 4)', () => {
    const chain = newChain();
    const other = notProposer(chain);
    expectRejected(
      chain,
      cpTx(chain, cpMsg(chain, 0n, 255n, { proposer: other.address })),
      '1',
      1400,
      'Invalid proposer in msg',
    );
    expectRejected(
      chain,
      cpTx(chain, cpMsg(chain, 0n, 255n), other),
      'sdk',
      4,
      'signature verification failed; verify correct account sequence and chain-id',
    );
    expect(restQuery(chain.app, '/checkpoints/buffer').status).toBe(500);
  });

  it('a non-validator as proposer: 1400 "Invalid proposer in msg"', () => {
    const outsider = testKey('cp-outsider');
    const chain = newChain({ accounts: [{ key: outsider, amount: 10n * TOKEN }] });
    expectRejected(
      chain,
      cpTx(chain, cpMsg(chain, 0n, 255n, { proposer: outsider.address }), outsider),
      '1',
      1400,
      'Invalid proposer in msg',
    );
  });

  it('the first checkpoint must start at block 0: 1501', () => {
    const chain = newChain();
    expectRejected(
      chain,
      cpTx(chain, cpMsg(chain, 1n, 255n)),
      '1',
      1501,
      'Wrong roothash for given start and end block numbers',
    );
  });

  it('accountRootHash must equal the dividend-account root: 1501', () => {
    const chain = newChain();
    const wrong = accountRootHash([
      { id: 1, feeAmount: 1n, slashedAmount: 0n },
      { id: 2, feeAmount: 0n, slashedAmount: 0n },
      { id: 3, feeAmount: 0n, slashedAmount: 0n },
      { id: 4, feeAmount: 0n, slashedAmount: 0n },
    ]);
    expectRejected(
      chain,
      cpTx(chain, cpMsg(chain, 0n, 255n, { accountRootHash: wrong })),
      '1',
      1501,
      'Wrong roothash for given start and end block numbers',
    );
    // A root over a subset of the validators is wrong too (every validator has a leaf).
    expectRejected(
      chain,
      cpTx(chain, cpMsg(chain, 0n, 255n, { accountRootHash: zeroAccountRoot(3) })),
      '1',
      1501,
      'Wrong roothash for given start and end block numbers',
    );
  });

  it('ValidateBasic: zero root hash, zero proposer, start >= end or end 0: 1400', () => {
    const chain = newChain();
    const k = proposerKey(chain);
    expectRejected(
      chain,
      cpTx(chain, cpMsg(chain, 0n, 255n, { rootHash: ZERO_HASH })),
      '1',
      1400,
      `Invalid rootHash ${ZERO_HASH}`,
    );
    expectRejected(
      chain,
      cpTx(chain, cpMsg(chain, 0n, 255n, { proposer: ZERO_ADDRESS }), k),
      '1',
      1400,
      `Invalid proposer ${ZERO_ADDRESS}`,
    );
    expectRejected(chain, cpTx(chain, cpMsg(chain, 5n, 5n)), '1', 1400, 'Invalid startBlock 5 or/and endBlock 5');
    expectRejected(
      chain,
      cpTx(chain, cpMsg(chain, 0n, 0n, { rootHash: sidechainRoot(0n, 1n) })),
      '1',
      1400,
      'Invalid startBlock 0 or/and endBlock 0',
    );
    expectRejected(
      chain,
      cpTx(chain, cpMsg(chain, 9n, 3n, { rootHash: sidechainRoot(3n, 9n) })),
      '1',
      1400,
      'Invalid startBlock 9 or/and endBlock 3',
    );
  });

  it('a root hash that differs from the sidechain: validators vote no, 5502 at post, nothing buffered', () => {
    const chain = newChain();
    const r = settle(chain, [cpTx(chain, cpMsg(chain, 0n, 255n, { rootHash: sidechainRoot(0n, 254n) }))]);
    expect(r.txs[0]!.code).toBe(0);
    expect(r.side).toHaveLength(1);
    expect(r.side[0]).toMatchObject(SIDE_FAILED);
    expect(r.side[0]!.tally.result).toBe('no');
    expect(r.side[0]!.events).toEqual([]);
    expect(restQuery(chain.app, '/checkpoints/buffer').status).toBe(500);
  });

  it('blocks not yet confirmed (sidechain head < end + 10): validators skip, 5502; at end + 10 it is accepted', () => {
    const chain = newChain();
    chain.observers.sidechainHead = 264n;
    const r = settle(chain, [cpTx(chain, cpMsg(chain, 0n, 255n))]);
    expect(r.txs[0]!.code).toBe(0);
    expect(r.side[0]).toMatchObject(SIDE_FAILED);
    expect(r.side[0]!.tally.result).toBe('skip');
    expect(restQuery(chain.app, '/checkpoints/buffer').status).toBe(500);
    chain.observers.sidechainHead = 265n;
    const r2 = settle(chain, [cpTx(chain, cpMsg(chain, 0n, 255n))]);
    expect(r2.side[0]!.code).toBe(0);
    expect(chain.queryResult('/checkpoints/buffer').endBlock).toBe(255);
  });

  it('more than MaxCheckpointLength (1024) blocks: skip, 5502; exactly 1024 is accepted', () => {
    const chain = newChain();
    const r = settle(chain, [cpTx(chain, cpMsg(chain, 0n, 1024n))]);
    expect(r.side[0]).toMatchObject(SIDE_FAILED);
    expect(r.side[0]!.tally.result).toBe('skip');
    const r2 = settle(chain, [cpTx(chain, cpMsg(chain, 0n, 1023n))]);
    expect(r2.side[0]!.code).toBe(0);
  });

  it('a second checkpoint while the buffer has not expired: 1503 at deliver, naming the expiry', () => {
    const chain = newChain();
    const { postTimeMs } = bufferFirst(chain);
    const ts = seconds(postTimeMs);
    expectRejected(
      chain,
      cpTx(chain, cpMsg(chain, 0n, 300n)),
      '1',
      1503,
      `Checkpoint Already Exists In Buffer, ACK expected, expires at ${ts + 1000}`,
    );
    // One second before expiry (in whole seconds of block time) it is still refused.
    const tx = cpTx(chain, cpMsg(chain, 0n, 300n));
    const r = chain.block([tx], { timeMs: (ts + 999) * 1000 + 999 });
    expectError(r.txs[0], '1', 1503, `Checkpoint Already Exists In Buffer, ACK expected, expires at ${ts + 1000}`);
  });

  it('after CheckpointBufferTime a new checkpoint flushes the expired buffer and is buffered in its place', () => {
    const chain = newChain();
    const { postTimeMs } = bufferFirst(chain);
    const ts = seconds(postTimeMs);
    const msg = cpMsg(chain, 0n, 300n);
    const r = settle(chain, [cpTx(chain, msg)], (ts + 1000) * 1000);
    expect(r.txs[0]!.code).toBe(0);
    expect(r.side[0]!.code).toBe(0);
    expect(chain.queryResult('/checkpoints/buffer')).toEqual({
      proposer: msg.proposer,
      startBlock: 0,
      endBlock: 300,
      rootHash: msg.rootHash,
      accountRootHash: msg.accountRootHash,
      timestamp: seconds(r.postTimeMs),
    });
    expect(chain.queryResult('/checkpoints/count')).toEqual({ result: 0 });
  });

  it('the deliver-time flush of an expired buffer stands even when the new checkpoint then fails its vote', () => {
    const chain = newChain();
    const { postTimeMs } = bufferFirst(chain);
    const r = settle(
      chain,
      [cpTx(chain, cpMsg(chain, 0n, 300n, { rootHash: sidechainRoot(0n, 299n) }))],
      (seconds(postTimeMs) + 1000) * 1000,
    );
    expect(r.txs[0]!.code).toBe(0);
    expect(r.side[0]).toMatchObject(SIDE_FAILED);
    expect(restQuery(chain.app, '/checkpoints/buffer').status).toBe(500);
  });

  it('two checkpoints delivered before the first is post-handled: the second fails at post with 1503', () => {
    const chain = newChain();
    const first = chain.block([cpTx(chain, cpMsg(chain, 0n, 255n))]);
    const second = chain.block([cpTx(chain, cpMsg(chain, 0n, 300n))]);
    expect(first.txs[0]!.code).toBe(0);
    expect(second.txs[0]!.code).toBe(0);
    const p1 = chain.block([]);
    expect(p1.end.sideTxResults.map((s) => s.code)).toEqual([0]);
    const p2 = chain.block([]);
    expect(p2.end.sideTxResults).toHaveLength(1);
    expectError(p2.end.sideTxResults[0], '1', 1503, 'Checkpoint Already Exists In Buffer, ACK expected');
    expect(chain.queryResult('/checkpoints/buffer').endBlock).toBe(255);
  });
});

describe('MsgCheckpointAck', () => {
  it('without a buffer: 1502 "Ack Not Valid" at deliver, no trace', () => {
    const chain = newChain();
    expectRejected(chain, ackTx(chain, 1n), '1', 1502, 'Ack Not Valid');
  });

  it('no header-block record on the parent chain: skip, 5502; buffer kept', () => {
    const chain = newChain();
    bufferFirst(chain);
    const r = settle(chain, [ackTx(chain, 1n)]);
    expect(r.txs[0]!.code).toBe(0);
    expect(r.side[0]).toMatchObject(SIDE_FAILED);
    expect(r.side[0]!.tally.result).toBe('skip');
    expect(chain.queryResult('/checkpoints/count')).toEqual({ result: 0 });
    expect(chain.queryResult('/checkpoints/buffer').endBlock).toBe(255);
  });

  it('a record whose start differs, or with the same range and another root: validators vote no, 5502', () => {
    const chain = newChain();
    const { msg } = bufferFirst(chain);
    const setBefore = setJson(chain);
    chain.observers.headerBlocks.set(1n, record({ ...msg, startBlock: 1n }, 1n));
    const r = settle(chain, [ackTx(chain, 1n)]);
    expect(r.side[0]).toMatchObject(SIDE_FAILED);
    expect(r.side[0]!.tally.result).toBe('no');
    chain.observers.headerBlocks.set(1n, record({ ...msg, rootHash: sidechainRoot(0n, 254n) }, 1n));
    const r2 = settle(chain, [ackTx(chain, 1n)]);
    expect(r2.side[0]).toMatchObject(SIDE_FAILED);
    expect(chain.queryResult('/checkpoints/count')).toEqual({ result: 0 });
    expect(chain.queryResult('/checkpoints/buffer').endBlock).toBe(255);
    expect(setJson(chain)).toEqual(setBefore);
  });

  it('success: count 1, checkpoint 1 stored with its id, buffer cleared, proposer rotated by exactly one', () => {
    const chain = newChain();
    const { msg, postTimeMs } = bufferFirst(chain);
    const expectedSet = rotated(getValidatorSet(chain.app.store));
    chain.observers.headerBlocks.set(1n, record(msg, 1n));
    const r = settle(chain, [ackTx(chain, 1n)]);
    expect(r.txs[0]!.code).toBe(0);
    expect(r.side[0]).toMatchObject({ code: 0, msgType: 'checkpoint/MsgCheckpointACK' });
    expect(r.side[0]!.events).toEqual([
      { type: 'checkpoint-ack', attributes: { 'header-index': '1', 'new-proposer': expectedSet.proposer.address } },
    ]);
    expect(chain.queryResult('/checkpoints/count')).toEqual({ result: 1 });
    const stored = {
      id: 1,
      proposer: msg.proposer,
      startBlock: 0,
      endBlock: 255,
      rootHash: msg.rootHash,
      accountRootHash: msg.accountRootHash,
      timestamp: seconds(postTimeMs),
    };
    expect(chain.queryResult('/checkpoints/1')).toEqual(stored);
    expect(Object.keys(chain.queryResult('/checkpoints/1'))).toEqual([
      'id',
      'proposer',
      'startBlock',
      'endBlock',
      'rootHash',
      'accountRootHash',
      'timestamp',
    ]);
    expect(chain.queryResult('/checkpoints/latest')).toEqual(stored);
    expect(chain.queryResult('/checkpoints/list?page=1&limit=10')).toEqual([stored]);
    expect(restQuery(chain.app, '/checkpoints/buffer')).toEqual({
      status: 500,
      body: {
        error: abciLog({
          codespace: 'sdk',
          code: 1,
          message: 'could not fetch checkpoint buffer; No checkpoint found in buffer',
        }),
      },
    });
    expect(setJson(chain)).toEqual(expectedSet.toJSON());
    expect(getValidatorSet(chain.app.store).proposer.address).not.toBe(msg.proposer);
  });

  it('two acks for one buffer (same block): the second fails at post with 1502, one count, one rotation', () => {
    const chain = newChain();
    const { msg } = bufferFirst(chain);
    const expectedSet = rotated(getValidatorSet(chain.app.store));
    chain.observers.headerBlocks.set(1n, record(msg, 1n));
    const k = chain.validators[3]!;
    const r = settle(chain, [ackTx(chain, 1n, k), ackTx(chain, 1n, k, { sequenceOffset: 1n })]);
    expect(r.txs.map((t) => t.code)).toEqual([0, 0]);
    expect(r.side.map((s) => s.code)).toEqual([0, 1502]);
    expectError(r.side[1], '1', 1502, 'Ack Not Valid');
    expect(chain.queryResult('/checkpoints/count')).toEqual({ result: 1 });
    expect(setJson(chain)).toEqual(expectedSet.toJSON());
  });

  it('end-block adjust: a record with another end block stores the record end, root and proposer', () => {
    for (const end of [250n, 300n]) {
      const chain = newChain();
      const { msg, postTimeMs } = bufferFirst(chain);
      const recProposer = notProposer(chain).address;
      chain.observers.headerBlocks.set(1n, {
        number: 1n,
        proposer: recProposer,
        startBlock: 0n,
        endBlock: end,
        rootHash: sidechainRoot(0n, end),
        accountRootHash: msg.accountRootHash,
      });
      const r = settle(chain, [ackTx(chain, 1n)]);
      expect(r.side[0]!.code).toBe(0);
      expect(chain.queryResult('/checkpoints/1')).toEqual({
        id: 1,
        proposer: recProposer,
        startBlock: 0,
        endBlock: Number(end),
        rootHash: sidechainRoot(0n, end),
        accountRootHash: msg.accountRootHash,
        timestamp: seconds(postTimeMs),
      });
      // Continuity follows the adjusted end.
      expectRejected(
        chain,
        cpTx(chain, cpMsg(chain, 256n, 400n)),
        '1',
        end === 250n ? 1510 : 1509,
        end === 250n ? 'Checkpoint not in continuity' : 'Checkpoint already received for given start and end block',
      );
      const next = settle(chain, [cpTx(chain, cpMsg(chain, end + 1n, 400n))]);
      expect(next.side[0]!.code).toBe(0);
    }
  });

  it("the next checkpoint on a sidechain that left the last acked one's range: validators skip, 5502; back on it, accepted", () => {
    const chain = newChain();
    const { msg } = bufferFirst(chain);
    chain.observers.headerBlocks.set(1n, record(msg, 1n));
    settle(chain, [ackTx(chain, 1n)]);
    // The validators' sidechain reorged below checkpoint 1 before the ack and has not switched back:
    // its root of 256..400 is a root of that fork.
    chain.observers.sidechainForks.set('0/255', sidechainRoot(0n, 254n));
    const r = settle(chain, [cpTx(chain, cpMsg(chain, 256n, 400n))]);
    expect(r.txs[0]!.code).toBe(0);
    expect(r.side[0]).toMatchObject(SIDE_FAILED);
    expect(r.side[0]!.tally.result).toBe('skip');
    expect(restQuery(chain.app, '/checkpoints/buffer').status).toBe(500);
    chain.observers.sidechainForks.clear();
    const r2 = settle(chain, [cpTx(chain, cpMsg(chain, 256n, 400n))]);
    expect(r2.side[0]!.code).toBe(0);
    expect(chain.queryResult('/checkpoints/buffer').endBlock).toBe(400);
  });

  it('continuity of the next checkpoint: 1509 when it starts inside the last one, 1510 when not adjacent; the new proposer goes on from end + 1', () => {
    const chain = newChain();
    const { msg } = bufferFirst(chain);
    chain.observers.headerBlocks.set(1n, record(msg, 1n));
    settle(chain, [ackTx(chain, 1n)]);
    expect(proposerKey(chain).address).not.toBe(msg.proposer);
    expectRejected(
      chain,
      cpTx(chain, cpMsg(chain, 0n, 255n)),
      '1',
      1509,
      'Checkpoint already received for given start and end block',
    );
    expectRejected(
      chain,
      cpTx(chain, cpMsg(chain, 100n, 400n)),
      '1',
      1509,
      'Checkpoint already received for given start and end block',
    );
    expectRejected(
      chain,
      cpTx(chain, cpMsg(chain, 254n, 400n)),
      '1',
      1509,
      'Checkpoint already received for given start and end block',
    );
    expectRejected(chain, cpTx(chain, cpMsg(chain, 255n, 400n)), '1', 1510, 'Checkpoint not in continuity');
    expectRejected(chain, cpTx(chain, cpMsg(chain, 257n, 400n)), '1', 1510, 'Checkpoint not in continuity');
    // The previous proposer is no longer the proposer.
    const old = keyOf(chain, msg.proposer);
    expectRejected(
      chain,
      cpTx(chain, cpMsg(chain, 256n, 400n, { proposer: old.address }), old),
      '1',
      1400,
      'Invalid proposer in msg',
    );
    const ok = cpMsg(chain, 256n, 400n);
    const r = settle(chain, [cpTx(chain, ok)]);
    expect(r.side[0]!.code).toBe(0);
    chain.observers.headerBlocks.set(2n, record(ok, 2n));
    settle(chain, [ackTx(chain, 2n)]);
    expect(chain.queryResult('/checkpoints/count')).toEqual({ result: 2 });
    expect(chain.queryResult('/checkpoints/latest')).toMatchObject({
      id: 2,
      startBlock: 256,
      endBlock: 400,
      proposer: ok.proposer,
    });
    expect(chain.queryResult<Array<{ id: number }>>('/checkpoints/list?page=1&limit=10').map((c) => c.id)).toEqual([
      1, 2,
    ]);
  });
});

describe('MsgCheckpointNoAck', () => {
  /** The next proposer after `times` rotations of the stored set. */
  const nextProposer = (chain: TestChain, times: number): TestKey =>
    keyOf(chain, rotated(getValidatorSet(chain.app.store), times).proposer.address);

  it('before CheckpointBufferTime since the last checkpoint: 1505 "Invalid No ACK -- Waiting for last checkpoint ACK"', () => {
    const chain = newChain();
    // No checkpoint yet: the clock counts from time 0.
    expectRejected(
      chain,
      noAckTx(chain, nextProposer(chain, 1)),
      '1',
      1505,
      'Invalid No ACK -- Waiting for last checkpoint ACK',
    );
    const r = chain.block([noAckTx(chain, nextProposer(chain, 1))], { timeMs: BUFFER_MS - 1 });
    expectError(r.txs[0], '1', 1505, 'Invalid No ACK -- Waiting for last checkpoint ACK');
    const ok = chain.block([noAckTx(chain, nextProposer(chain, 1))], { timeMs: BUFFER_MS });
    expect(ok.txs[0]!.code).toBe(0);
  });

  it('counts from the last acked checkpoint timestamp, with the full block time (ms) against whole seconds', () => {
    const chain = newChain();
    const { msg, postTimeMs } = bufferFirst(chain);
    chain.observers.headerBlocks.set(1n, record(msg, 1n));
    settle(chain, [ackTx(chain, 1n)]);
    const ts = seconds(postTimeMs);
    const before = chain.app.exportState();
    const r = chain.block([noAckTx(chain, nextProposer(chain, 1))], { timeMs: (ts + 1000) * 1000 - 1 });
    expectError(r.txs[0], '1', 1505, 'Invalid No ACK -- Waiting for last checkpoint ACK');
    expect(chain.app.exportState()).toBe(before);
    const ok = chain.block([noAckTx(chain, nextProposer(chain, 1))], { timeMs: (ts + 1000) * 1000 });
    expect(ok.txs[0]!.code).toBe(0);
  });

  it('only the next `count` proposers may send it: others get 1505 "Invalid No ACK Proposer"', () => {
    const outsider = testKey('noack-outsider');
    const chain = newChain({ accounts: [{ key: outsider, amount: 10n * TOKEN }] });
    chain.timeMs = BUFFER_MS; // count = floor(elapsed / 1000 s) = 1 at the next block
    const t1 = chain.timeMs + chain.blockTimeMs;
    expect(Math.floor(t1 / BUFFER_MS)).toBe(1);
    const allowed = nextProposer(chain, 1);
    const others = chain.validators.filter((k) => k.address !== allowed.address);
    expect(others).toHaveLength(3);
    for (const k of [...others, outsider]) {
      const before = chain.app.exportState();
      const r = chain.block([noAckTx(chain, k)], { timeMs: t1 });
      expectError(r.txs[0], '1', 1505, 'Invalid No ACK Proposer');
      expect(chain.app.exportState()).toBe(before);
    }
    // With count = 2 the proposer after next may send it as well, the third one may not.
    const t2 = 2 * BUFFER_MS + 1;
    const second = nextProposer(chain, 2);
    const third = nextProposer(chain, 3);
    expect(new Set([allowed.address, second.address, third.address]).size).toBe(3);
    expectError(chain.block([noAckTx(chain, third)], { timeMs: t2 }).txs[0], '1', 1505, 'Invalid No ACK Proposer');
    expect(chain.block([noAckTx(chain, second)], { timeMs: t2 }).txs[0]!.code).toBe(0);
  });

  it('success: rotates the proposer by one and records the time in seconds; the buffer is not flushed', () => {
    const chain = newChain();
    const { msg } = bufferFirst(chain);
    const expectedSet = rotated(getValidatorSet(chain.app.store));
    const timeMs = BUFFER_MS + 2_345;
    const r = chain.block([noAckTx(chain, keyOf(chain, expectedSet.proposer.address))], { timeMs });
    expect(r.txs[0]!.code).toBe(0);
    expect(r.txs[0]!.events).toEqual([
      { type: 'checkpoint-noack', attributes: { 'new-proposer': expectedSet.proposer.address } },
    ]);
    expect(setJson(chain)).toEqual(expectedSet.toJSON());
    expect(chain.queryResult('/checkpoints/last-no-ack')).toEqual({ result: seconds(timeMs) });
    expect(chain.queryResult('/checkpoints/buffer')).toMatchObject({
      startBlock: 0,
      endBlock: 255,
      proposer: msg.proposer,
    });
    // The new proposer may now propose (once the stale buffer has expired).
    expect(proposerKey(chain).address).toBe(expectedSet.proposer.address);
  });

  it('a second no-ack within CheckpointBufferTime: 1506 "Too many no-acks"; after it, allowed again', () => {
    const chain = newChain();
    const t1 = 2 * BUFFER_MS + 500;
    expect(chain.block([noAckTx(chain, nextProposer(chain, 1))], { timeMs: t1 }).txs[0]!.code).toBe(0);
    // count = 2 now, so the next proposer is allowed: the rate limit is what refuses it.
    const before = chain.app.exportState();
    const r = chain.block([noAckTx(chain, nextProposer(chain, 1))], { timeMs: seconds(t1) * 1000 + BUFFER_MS - 1 });
    expectError(r.txs[0], '1', 1506, 'Too many no-acks');
    expect(chain.app.exportState()).toBe(before);
    const ok = chain.block([noAckTx(chain, nextProposer(chain, 1))], { timeMs: seconds(t1) * 1000 + BUFFER_MS });
    expect(ok.txs[0]!.code).toBe(0);
    expect(chain.queryResult('/checkpoints/last-no-ack')).toEqual({ result: seconds(t1) + 1000 });
  });
});

describe('checkpoint queries', () => {
  it('/checkpoints/parama and /checkpoints/params: the reference params JSON', () => {
    const chain = newChain();
    const params = {
      checkpoint_buffer_time: 1_000_000_000_000,
      avg_checkpoint_length: 256,
      max_checkpoint_length: 1024,
      child_chain_block_interval: 10000,
    };
    for (const path of ['/checkpoints/parama', '/checkpoints/params']) {
      expect(restQuery(chain.app, path)).toEqual({ status: 200, body: { height: '0', result: params } });
    }
  });

  it('/checkpoints/count, /latest, /{n}, /last-no-ack before any checkpoint', () => {
    const chain = newChain();
    expect(chain.queryResult('/checkpoints/count')).toEqual({ result: 0 });
    expect(chain.queryResult('/checkpoints/last-no-ack')).toEqual({ result: 0 });
    expect(restQuery(chain.app, '/checkpoints/latest')).toEqual({
      status: 400,
      body: {
        error: abciLog({
          codespace: 'sdk',
          code: 1,
          message: 'could not fetch checkpoint by index 0; Invalid checkpoint Index',
        }),
      },
    });
    expect(restQuery(chain.app, '/checkpoints/1')).toEqual({
      status: 400,
      body: {
        error: abciLog({
          codespace: 'sdk',
          code: 1,
          message: 'could not fetch checkpoint by index 1; Invalid checkpoint Index',
        }),
      },
    });
    expect(chain.queryResult('/checkpoints/list?page=1&limit=10')).toBeNull();
  });

  it('/overview: ack count, buffer, validator count and set, last no-ack', () => {
    const chain = newChain();
    const o0 = chain.queryResult('/overview');
    expect(Object.keys(o0)).toEqual([
      'ack_count',
      'checkpoint_buffer',
      'validator_count',
      'validator_set',
      'last_noack_time',
    ]);
    expect(o0).toMatchObject({ ack_count: 0, checkpoint_buffer: null, validator_count: 4 });
    expect(o0.validator_set).toEqual(chain.queryResult('/staking/validator-set'));
    const { msg } = bufferFirst(chain);
    const o1 = chain.queryResult('/overview');
    expect(o1.checkpoint_buffer).toEqual(chain.queryResult('/checkpoints/buffer'));
    chain.observers.headerBlocks.set(1n, record(msg, 1n));
    settle(chain, [ackTx(chain, 1n)]);
    const o2 = chain.queryResult<{ validator_set: { proposer: { signer: string } } }>('/overview');
    expect(o2).toMatchObject({ ack_count: 1, checkpoint_buffer: null, validator_count: 4 });
    expect(o2.validator_set).toEqual(chain.queryResult('/staking/validator-set'));
    expect(o2.validator_set.proposer.signer).toBe(proposerKey(chain).address);
  });
});
