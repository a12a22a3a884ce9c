/**
 * The pool and fee methods as geth answers them (issue 31): `txpool_status`, `txpool_content`,
 * `txpool_contentFrom` and `txpool_inspect` over a node's pool with a pending and a queued
 * transaction; `eth_estimateGas` with a gas cap and fee fields; `eth_feeHistory` at its edges
 * (newest block past the head, bad percentiles, no blocks).
 */
import { getAddress } from 'ethers';
import { describe, expect, it } from 'vitest';
import { SidechainTxIntake } from '../../node/sidechain/txIntake';
import { FIXTURE_BALANCE, fixtureKeys, fixtureTransfer } from '../../sidechain/testing/fixture';
import { type SidechainView } from '../ports';
import { createFixtureSidechainPort } from '../testing/sidechainPort';
import { type RpcResult, callRpc } from './methods';

const keys = fixtureKeys('rpc-fixture-producer');
const port = createFixtureSidechainPort();
const intake = new SidechainTxIntake(port.chain);
const view = (): SidechainView => ({
  ...port.view(),
  pool: {
    pendingNonce: (a) => intake.pendingNonce(a),
    transaction: (h) => intake.pool.get(h),
    content: () => intake.pool.content(port.chain.head().accounts),
  },
});

function ok(r: RpcResult): unknown {
  if (!r.ok) throw new Error(`expected a result, got ${r.error.code} ${r.error.message}`);
  return r.result;
}
const err = (r: RpcResult) => (r.ok ? null : r.error);

describe('txpool_*', () => {
  const sender = keys[2]!;
  const to = keys[3]!.address;
  const next = intake.pendingNonce(sender.address);
  const fees = { maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };
  const pending = fixtureTransfer(sender, to, next, { value: 1n, type: 2, ...fees });
  const queued = fixtureTransfer(sender, to, next + 2n, { value: 7n, type: 0, maxFeePerGas: 3_000_000_000n });
  for (const t of [pending, queued]) expect(intake.submit(t.raw).verdict.ok).toBe(true);
  const from = getAddress(sender.address);

  it('txpool_status counts pending and queued', () => {
    expect(ok(callRpc(view(), 'txpool_status', []))).toEqual({ pending: '0x1', queued: '0x1' });
  });

  it('txpool_content: by checksummed sender, then decimal nonce; each transaction as a pending look-up shows it', () => {
    const c = ok(callRpc(view(), 'txpool_content', [])) as Record<string, Record<string, Record<string, unknown>>>;
    expect(Object.keys(c.pending!)).toEqual([from]);
    expect(Object.keys(c.pending![from]!)).toEqual([next.toString()]);
    expect(c.pending![from]![next.toString()]).toEqual(ok(callRpc(view(), 'eth_getTransactionByHash', [pending.hash])));
    expect(c.pending![from]![next.toString()]).toMatchObject({
      blockHash: null,
      blockNumber: null,
      transactionIndex: null,
      gasPrice: '0x77359400',
    });
    expect(Object.keys(c.queued![from]!)).toEqual([(next + 2n).toString()]);
    expect(c.queued![from]![(next + 2n).toString()]).toMatchObject({
      hash: queued.hash,
      nonce: `0x${(next + 2n).toString(16)}`,
    });
  });

  it('txpool_contentFrom: one sender by nonce; another sender has nothing', () => {
    const c = ok(callRpc(view(), 'txpool_contentFrom', [sender.address])) as Record<string, Record<string, unknown>>;
    expect(Object.keys(c.pending!)).toEqual([next.toString()]);
    expect(Object.keys(c.queued!)).toEqual([(next + 2n).toString()]);
    expect(ok(callRpc(view(), 'txpool_contentFrom', [to]))).toEqual({ pending: {}, queued: {} });
    expect(err(callRpc(view(), 'txpool_contentFrom', ['0x12']))).toMatchObject({ code: -32602 });
  });

  it('txpool_inspect: geth’s one-line summary', () => {
    expect(ok(callRpc(view(), 'txpool_inspect', []))).toEqual({
      pending: { [from]: { [next.toString()]: `${getAddress(to)}: 1 wei + 21000 gas × 2000000000 wei` } },
      queued: { [from]: { [(next + 2n).toString()]: `${getAddress(to)}: 7 wei + 21000 gas × 3000000000 wei` } },
    });
  });

  it('a view without a pool shows an empty one', () => {
    expect(ok(callRpc(port.view(), 'txpool_status', []))).toEqual({ pending: '0x0', queued: '0x0' });
    expect(ok(callRpc(port.view(), 'txpool_content', []))).toEqual({ pending: {}, queued: {} });
  });
});

describe('eth_estimateGas honours the call', () => {
  const from = keys[0]!.address;
  const to = keys[1]!.address;
  const balance = () => BigInt(ok(callRpc(view(), 'eth_getBalance', [from, 'latest'])) as string);
  const estimate = (extra: Record<string, string>) => callRpc(view(), 'eth_estimateGas', [{ from, to, ...extra }]);
  const hex = (n: bigint) => `0x${n.toString(16)}`;

  it('21,000 for a transfer the call’s gas and fee cap let the balance pay', () => {
    expect(ok(estimate({ value: '0x1' }))).toBe('0x5208');
    expect(ok(estimate({ value: '0x1', gas: '0x5208', maxFeePerGas: '0x3b9aca00' }))).toBe('0x5208');
    // geth: a gas below 21,000 is not a ceiling (the block's gas limit is).
    expect(ok(estimate({ gas: '0x4e20' }))).toBe('0x5208');
  });

  it('a gas the fee cap cannot fund: gas required exceeds allowance (N)', () => {
    const b = balance();
    // Enough for 20,000 gas at this price after the value, not 21,000.
    const price = 10n ** 12n;
    const value = b - 20_000n * price;
    expect(err(estimate({ value: hex(value), maxFeePerGas: hex(price) }))).toEqual({
      code: -32000,
      message: 'gas required exceeds allowance (20000)',
    });
    expect(err(estimate({ value: hex(value), gasPrice: hex(price) }))).toEqual({
      code: -32000,
      message: 'gas required exceeds allowance (20000)',
    });
    expect(err(estimate({ gas: '0x4e1f', maxFeePerGas: hex(price) }))).toBeNull();
  });

  it('a value at or above the balance with a fee cap: insufficient funds for transfer', () => {
    expect(err(estimate({ value: hex(balance()), maxFeePerGas: '0x1' }))).toEqual({
      code: -32000,
      message: 'insufficient funds for transfer',
    });
  });

  it('without a fee cap, a value above the balance fails as the execution does', () => {
    const b = balance();
    expect(err(estimate({ value: hex(b + 1n) }))).toEqual({
      code: -32000,
      message: `failed with 30000000 gas: insufficient funds for gas * price + value: address ${getAddress(from)} have ${b} want ${b + 1n}`,
    });
    expect(b).toBeLessThanOrEqual(FIXTURE_BALANCE);
  });

  it('fee fields that do not go together', () => {
    expect(err(estimate({ gasPrice: '0x1', maxFeePerGas: '0x2' }))).toEqual({
      code: -32000,
      message: 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified',
    });
    expect(err(estimate({ maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' }))).toEqual({
      code: -32000,
      message: 'maxFeePerGas (0x1) < maxPriorityFeePerGas (0x2)',
    });
    expect(err(estimate({ gas: 'abc' }))).toMatchObject({ code: -32602 });
  });
});

describe('eth_feeHistory at its edges', () => {
  const head = () => BigInt(ok(callRpc(view(), 'eth_blockNumber', [])) as string);
  const fee = (params: unknown[]) => callRpc(view(), 'eth_feeHistory', params);

  it('a newest block past the head: request beyond head block', () => {
    const h = head();
    expect(err(fee(['0x2', `0x${(h + 5n).toString(16)}`, []]))).toEqual({
      code: -32000,
      message: `request beyond head block: requested ${h + 5n}, head ${h}`,
    });
    expect(ok(fee(['0x2', `0x${h.toString(16)}`]))).toMatchObject({ oldestBlock: `0x${(h - 1n).toString(16)}` });
  });

  it('bad percentiles: out of range, not increasing, too many (geth’s words, -32000)', () => {
    expect(err(fee(['0x2', 'latest', [101]]))).toEqual({
      code: -32000,
      message: 'invalid reward percentile: 101.000000',
    });
    expect(err(fee(['0x2', 'latest', [-0.5]]))).toEqual({
      code: -32000,
      message: 'invalid reward percentile: -0.500000',
    });
    expect(err(fee(['0x2', 'latest', [50, 50]]))).toEqual({
      code: -32000,
      message: 'invalid reward percentile: #0:50.000000 >= #1:50.000000',
    });
    expect(err(fee(['0x2', 'latest', Array.from({ length: 101 }, (_, i) => i / 2)]))).toEqual({
      code: -32000,
      message: 'invalid reward percentile: over the query limit 100',
    });
    expect(err(fee(['0x2', 'latest', ['x']]))).toMatchObject({ code: -32602 });
  });

  it('no blocks asked: an empty answer (before any check); no percentiles: no reward', () => {
    expect(ok(fee(['0x0', 'latest', [101]]))).toEqual({ oldestBlock: '0x0', gasUsedRatio: null });
    expect(ok(fee(['0x2', 'latest', []]))).not.toHaveProperty('reward');
    expect(ok(fee(['0x2', 'latest', [10, 90]]))).toHaveProperty('reward');
  });
});
