/**
 * A hash means it will be mined or it is refused (issue 31), tried with viem and ethers over HTTP
 * against a running devnet (paused, so every block comes from a call and nothing races the test):
 *
 * 1. a same-nonce replacement under a 10% bump is refused at once (just sent or in the pool); a
 *    doubled fee replaces on a paused devnet; two transfers that together overdraw the balance:
 *    the second is refused with the queued cost; a zero gas price or fee cap is `transaction
 *    underpriced` and later nonces still go through; the pending nonce counts transfers on their
 *    way that fill the gap before a queued one;
 * 2. a tip above the fee cap and the high-s twin of a signature get geth's errors, not a crash;
 * 4. eth_estimateGas honours the call's gas and fee fields;
 * 5. a nonce far ahead is queued, up to 64 per sender; txpool_status, _content, _inspect;
 * 7. eth_feeHistory's edges: a newest block beyond the head, bad percentiles.
 * At the end every answered hash was mined, or replaced by its sender, or waits behind its gap.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonRpcProvider, Transaction, Wallet, getAddress, parseEther as ethersParseEther } from 'ethers';
import {
  type Hex,
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  parseEther,
  parseGwei,
  toHex as viemToHex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../../sim/scenario/load';
import { rawTransfer } from '../../src/sidechain/testing/rawTransfers';
import { initHome, paths } from './home';
import { type RunningDevnet, startDevnet } from './nodeStart';
import { rpc } from './devnetTestKit';

const home = mkdtempSync(join(tmpdir(), 'lockstep-tx-pool-'));
const CHAIN_ID = 15001;
let d: RunningDevnet;
let url: string;
let provider: JsonRpcProvider;

const keyOf = (name: string): { address: Hex; private_key: Hex } =>
  JSON.parse(readFileSync(join(paths(home).keys, `${name}.json`), 'utf8')) as { address: Hex; private_key: Hex };
const chain = () =>
  defineChain({
    id: CHAIN_ID,
    name: 'lockstep sidechain',
    nativeCurrency: { name: 'MATIC', symbol: 'MATIC', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
const pub = () => createPublicClient({ chain: chain(), transport: http(url) });
const walletOf = (name: string) =>
  createWalletClient({ chain: chain(), transport: http(url), account: privateKeyToAccount(keyOf(name).private_key) });

/** What became of an answered hash, checked at the end. */
const promised: Array<{ hash: string; fate: 'mined' | 'replaced' | 'queued' }> = [];

beforeAll(async () => {
  initHome({
    home,
    scenario: loadScenario('devnet').scenario,
    seed: 31,
    host: '127.0.0.1',
    ports: { rest: 0, status: 0, jsonRpc: 0, ws: 0 },
    overwrite: false,
  });
  d = await startDevnet({ home, speed: 5, out: () => {} });
  await d.caughtUp;
  url = `http://127.0.0.1:${d.ports.jsonRpc}`;
  provider = new JsonRpcProvider(url, CHAIN_ID, { staticNetwork: true, polling: false });
  await rpc(url, 'lockstep_pause');
}, 60_000);

afterAll(async () => {
  provider?.destroy();
  await d?.stop();
  rmSync(home, { recursive: true, force: true });
}, 60_000);

/** Let the node take in what was sent (a few milliseconds of virtual time), without a block if possible. */
async function deliver(): Promise<void> {
  const s = (await rpc(url, 'lockstep_status')) as { timeMs: number };
  await rpc(url, 'lockstep_step', [{ until: s.timeMs + 20 }]);
}

/** Mine blocks on the default node until every hash has a receipt there. */
async function mineUntil(hashes: readonly string[]): Promise<void> {
  for (let i = 0; i < 12; i++) {
    const r = await Promise.all(hashes.map((h) => rpc(url, 'eth_getTransactionReceipt', [h])));
    if (r.every((x) => x !== null)) return;
    await rpc(url, 'anvil_mine', ['0x1']);
  }
  throw new Error(`not mined after 12 blocks: ${hashes.join(', ')}`);
}

const fees = (maxFeePerGas: bigint, maxPriorityFeePerGas: bigint) => ({ maxFeePerGas, maxPriorityFeePerGas });

describe('a hash means it will be mined or it is refused', () => {
  it('viem: a replacement under a 10% bump is refused at once, just sent or in the pool; a doubled fee replaces', async () => {
    const wallet = walletOf('user-1');
    const me = wallet.account.address;
    const to = keyOf('user-2').address;
    let nonce = await pub().getTransactionCount({ address: me, blockTag: 'pending' });
    const base = { to, gas: 21_000n };
    // Just sent (not taken in yet): the check sees it on its way.
    const a = await wallet.sendTransaction({ ...base, value: 1n, nonce, ...fees(parseGwei('3'), parseGwei('1')) });
    await expect(
      wallet.sendTransaction({ ...base, value: 2n, nonce, ...fees(parseGwei('3.15'), parseGwei('1.05')) }),
    ).rejects.toThrow(/replacement transaction underpriced/);
    // Both fees up 10% but the tip only by rounding: still refused (geth's bump is on both fields).
    await expect(
      wallet.sendTransaction({ ...base, value: 2n, nonce, ...fees(parseGwei('3.3'), parseGwei('1')) }),
    ).rejects.toThrow(/replacement transaction underpriced/);
    const c = await wallet.sendTransaction({ ...base, value: 3n, nonce, ...fees(parseGwei('6'), parseGwei('2')) });
    expect(await pub().getTransaction({ hash: c })).toMatchObject({ hash: c, blockNumber: null });
    await expect(pub().getTransaction({ hash: a })).rejects.toThrow();
    promised.push({ hash: a, fate: 'replaced' }, { hash: c, fate: 'mined' });

    // In the node's pool: taken in, not mined (retried in the rare case a block came in the step).
    nonce++;
    for (let attempt = 0; ; attempt++) {
      const held = await wallet.sendTransaction({ ...base, value: 4n, nonce, ...fees(parseGwei('3'), parseGwei('1')) });
      await deliver();
      if ((await rpc(url, 'eth_getTransactionReceipt', [held])) !== null && attempt < 3) {
        promised.push({ hash: held, fate: 'mined' });
        nonce++;
        continue;
      }
      await expect(
        wallet.sendTransaction({ ...base, value: 5n, nonce, ...fees(parseGwei('3.2'), parseGwei('1.09')) }),
      ).rejects.toThrow(/replacement transaction underpriced/);
      const bumped = await wallet.sendTransaction({
        ...base,
        value: 6n,
        nonce,
        ...fees(parseGwei('3.3'), parseGwei('1.1')),
      });
      promised.push({ hash: held, fate: 'replaced' }, { hash: bumped, fate: 'mined' });
      await mineUntil([c, bumped]);
      // The replaced ones: no look-up, no receipt.
      for (const gone of [a, held]) {
        expect(await rpc(url, 'eth_getTransactionByHash', [gone])).toBeNull();
        expect(await rpc(url, 'eth_getTransactionReceipt', [gone])).toBeNull();
      }
      break;
    }
  }, 120_000);

  it('ethers: two transfers that together overdraw the balance; the second is refused with the queued cost', async () => {
    const user = keyOf('user-2');
    await rpc(url, 'anvil_setBalance', [user.address, viemToHex(parseEther('1'))]);
    const wallet = new Wallet(user.private_key, provider);
    const to = keyOf('user-3').address;
    const txFees = { type: 2, gasLimit: 21_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };
    const nonce = await provider.getTransactionCount(user.address, 'pending');
    const first = await wallet.sendTransaction({ to, value: ethersParseEther('0.6'), nonce, ...txFees });
    const cost = 21_000n * 2_000_000_000n + ethersParseEther('0.6');
    const refused = wallet.sendTransaction({ to, value: ethersParseEther('0.6'), nonce: nonce + 1, ...txFees });
    await expect(refused).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    await expect(refused).rejects.toThrow(
      `insufficient funds for gas * price + value: balance ${ethersParseEther('1')}, queued cost ${cost}, tx cost ${cost}, overshot ${2n * cost - ethersParseEther('1')}`,
    );
    // What it can pay for still goes in after it.
    const second = await wallet.sendTransaction({ to, value: ethersParseEther('0.1'), nonce: nonce + 1, ...txFees });
    promised.push({ hash: first.hash, fate: 'mined' }, { hash: second.hash, fate: 'mined' });
    await mineUntil([first.hash, second.hash]);
  }, 120_000);

  it('ethers: a zero gas price (legacy) or fee cap (1559) is transaction underpriced; later nonces go through', async () => {
    const user = keyOf('user-3');
    const wallet = new Wallet(user.private_key);
    const to = keyOf('user-1').address;
    const nonce = await provider.getTransactionCount(user.address, 'pending');
    const common = { chainId: CHAIN_ID, to, value: 1n, gasLimit: 21_000n, nonce };
    const legacy = await wallet.signTransaction({ ...common, type: 0, gasPrice: 0n });
    await expect(provider.broadcastTransaction(legacy)).rejects.toThrow(
      'transaction underpriced: tip needed 1, tip permitted 0',
    );
    const zeroCap = await wallet.signTransaction({ ...common, type: 2, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n });
    await expect(provider.broadcastTransaction(zeroCap)).rejects.toThrow(/transaction underpriced/);
    // Below the lowest base fee the chain reaches: it could never be included.
    const tooLow = await wallet.signTransaction({ ...common, type: 2, maxFeePerGas: 14n, maxPriorityFeePerGas: 1n });
    await expect(provider.broadcastTransaction(tooLow)).rejects.toThrow(
      'transaction underpriced: fee cap 14, minimum needed 15',
    );
    // Nothing holds up the sender: the same nonce with a fee is taken, and the next one after it.
    expect(await provider.getTransactionCount(user.address, 'pending')).toBe(nonce);
    const ok = await provider.broadcastTransaction(
      await wallet.signTransaction({ ...common, type: 2, maxFeePerGas: 3_000_000_000n, maxPriorityFeePerGas: 1n }),
    );
    const next = await provider.broadcastTransaction(
      await wallet.signTransaction({ ...common, nonce: nonce + 1, type: 0, gasPrice: 3_000_000_000n }),
    );
    promised.push({ hash: ok.hash, fate: 'mined' }, { hash: next.hash, fate: 'mined' });
    await mineUntil([ok.hash, next.hash]);
  }, 120_000);

  it('viem: the pending nonce counts the transfers on their way that fill the gap before a queued one', async () => {
    const wallet = walletOf('user-3');
    const me = wallet.account.address;
    const to = keyOf('user-1').address;
    const n = await pub().getTransactionCount({ address: me, blockTag: 'pending' });
    const send = (nonce: number) =>
      wallet.sendTransaction({ to, value: 1n, nonce, gas: 21_000n, ...fees(parseGwei('3'), parseGwei('1')) });
    const queued = await send(n + 2);
    await deliver();
    expect(await rpc(url, 'txpool_status')).toMatchObject({ queued: '0x1' });
    // Sent, not taken in yet: together with the queued one, five ahead is wrong, n + 3 is right.
    const gap = [await send(n), await send(n + 1)];
    expect(await pub().getTransactionCount({ address: me, blockTag: 'pending' })).toBe(n + 3);
    promised.push(...[...gap, queued].map((hash) => ({ hash, fate: 'mined' as const })));
    await mineUntil([...gap, queued]);
  }, 120_000);

  it('a tip above the fee cap and the high-s twin of a signature: geth’s errors, not -32603', async () => {
    const user = keyOf('user-1');
    const nonce = BigInt(await provider.getTransactionCount(user.address, 'pending'));
    const f = {
      chainId: BigInt(CHAIN_ID),
      nonce,
      to: keyOf('user-4').address,
      value: 1n,
      gasLimit: 21_000n,
      maxFeePerGas: 2_000_000_000n,
      tip: 1_000_000_000n,
    };
    const send = (raw: string) => provider.send('eth_sendRawTransaction', [raw]);
    await expect(send(rawTransfer({ ...f, type: 2, tip: 3_000_000_000n }, user.private_key))).rejects.toMatchObject({
      error: { code: -32000, message: 'max priority fee per gas higher than max fee per gas' },
    });
    for (const type of [2, 0] as const) {
      const twin = rawTransfer({ ...f, type, highS: true }, user.private_key);
      await expect(send(twin)).rejects.toMatchObject({
        error: { code: -32000, message: 'invalid sender: invalid transaction v, r, s values' },
      });
    }
    // The low-s original of the same transfer is taken.
    const original = rawTransfer({ ...f, type: 2 }, user.private_key);
    const hash = (await send(original)) as string;
    expect(hash).toBe(Transaction.from(original).hash);
    promised.push({ hash, fate: 'mined' });
    await mineUntil([hash]);
  }, 120_000);

  it('a nonce far ahead is queued, up to 64 per sender; txpool_status, _content and _inspect show it', async () => {
    const user = keyOf('user-4');
    const wallet = new Wallet(user.private_key);
    const to = keyOf('user-1').address;
    const n = await provider.getTransactionCount(user.address, 'pending');
    const sign = (nonce: number) =>
      wallet.signTransaction({
        chainId: CHAIN_ID,
        to,
        value: 1n,
        gasLimit: 21_000n,
        nonce,
        type: 0,
        gasPrice: 2_000_000_000n,
      });
    const far = await provider.broadcastTransaction(await sign(n + 100));
    promised.push({ hash: far.hash, fate: 'queued' });
    await deliver();
    expect(await rpc(url, 'txpool_status')).toEqual({ pending: '0x0', queued: '0x1' });
    const from = getAddress(user.address);
    const content = (await rpc(url, 'txpool_content')) as Record<
      string,
      Record<string, Record<string, { hash: string }>>
    >;
    expect(content.pending).toEqual({});
    expect(content.queued![from]![String(n + 100)]!.hash).toBe(far.hash);
    expect(await rpc(url, 'txpool_contentFrom', [user.address])).toMatchObject({
      queued: { [String(n + 100)]: { hash: far.hash } },
    });
    expect(await rpc(url, 'txpool_inspect')).toEqual({
      pending: {},
      queued: { [from]: { [String(n + 100)]: `${getAddress(to)}: 1 wei + 21000 gas × 2000000000 wei` } },
    });
    // The pending nonce does not jump over the gap.
    expect(await provider.getTransactionCount(user.address, 'pending')).toBe(n);
    for (let k = 101; k < 164; k++)
      promised.push({ hash: (await provider.broadcastTransaction(await sign(n + k))).hash, fate: 'queued' });
    await expect(provider.broadcastTransaction(await sign(n + 164))).rejects.toThrow(
      /account limit exceeded: pooled 64 queued txs/,
    );
    expect(await rpc(url, 'txpool_status')).toMatchObject({ queued: '0x40' });
  }, 120_000);

  it('viem: eth_estimateGas honours the gas cap and the fee fields', async () => {
    const account = keyOf('user-1').address;
    const to = keyOf('user-2').address;
    expect(await pub().estimateGas({ account, to, value: 1n })).toBe(21_000n);
    const balance = await pub().getBalance({ address: account });
    const price = 10n ** 12n;
    await expect(
      pub().estimateGas({
        account,
        to,
        value: balance - 20_000n * price,
        maxFeePerGas: price,
        maxPriorityFeePerGas: 1n,
      }),
    ).rejects.toThrow(/gas required exceeds allowance \(20000\)/);
    await expect(pub().estimateGas({ account, to, value: balance, gasPrice: 1n })).rejects.toThrow(
      /insufficient funds for transfer/,
    );
    await expect(pub().estimateGas({ account, to, value: 1n, gas: 21_000n, maxFeePerGas: balance })).rejects.toThrow(
      /gas required exceeds allowance \(0\)/,
    );
  }, 60_000);

  it('viem: eth_feeHistory beyond the head and with bad percentiles answers geth’s words', async () => {
    const head = await pub().getBlockNumber();
    await expect(
      pub().getFeeHistory({ blockCount: 2, blockNumber: head + 10n, rewardPercentiles: [50] }),
    ).rejects.toThrow(`request beyond head block: requested ${head + 10n}, head ${head}`);
    await expect(pub().getFeeHistory({ blockCount: 2, rewardPercentiles: [60, 50] })).rejects.toThrow(
      'invalid reward percentile: #0:60.000000 >= #1:50.000000',
    );
    await expect(pub().getFeeHistory({ blockCount: 2, rewardPercentiles: [101] })).rejects.toThrow(
      'invalid reward percentile: 101.000000',
    );
    const h = await pub().getFeeHistory({ blockCount: 4, rewardPercentiles: [25, 75] });
    expect(h.baseFeePerGas).toHaveLength(5);
    expect(h.reward).toHaveLength(4);
  }, 60_000);

  it('every answered hash was mined, or replaced by its sender, or waits behind its nonce gap', async () => {
    expect(promised.length).toBeGreaterThan(70);
    for (const p of promised) {
      const receipt = (await rpc(url, 'eth_getTransactionReceipt', [p.hash])) as { status: string } | null;
      const tx = (await rpc(url, 'eth_getTransactionByHash', [p.hash])) as { blockNumber: string | null } | null;
      if (p.fate === 'mined') expect(receipt, p.hash).toMatchObject({ status: '0x1' });
      if (p.fate === 'replaced') expect([receipt, tx], p.hash).toEqual([null, null]);
      if (p.fate === 'queued') {
        expect(receipt, p.hash).toBeNull();
        expect(tx, p.hash).toMatchObject({ blockNumber: null });
      }
    }
  }, 120_000);
});
