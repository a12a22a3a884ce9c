/**
 * Real wallets on a devnet (issue 22): a funded dev account signs transfers with viem and with
 * ethers, sends them to the sidechain over HTTP and WebSocket, reads balance and nonce and sees a
 * receipt; then a partition cuts one producer off, a transfer sent to it lands in its block, the
 * heal reorgs that block out, and the same transaction is included again on the winning branch.
 * A subscriber on that node sees the transfer's log come, go (`removed: true`) and come again in the
 * new block, and never the whole chain.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  JsonRpcProvider,
  type Log,
  Transaction,
  Wallet,
  WebSocketProvider,
  id as ethersId,
  parseEther as ethersParseEther,
} from 'ethers';
import { type Hex, createPublicClient, createWalletClient, defineChain, http, parseEther, webSocket } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadScenario } from '../../sim/scenario/load';
import { initHome, paths } from './home';
import { type RunningDevnet, startDevnet } from './nodeStart';
import { rpc, until } from './devnetTestKit';

const home = mkdtempSync(join(tmpdir(), 'lockstep-wallets-'));
const MATIC = '0x0000000000000000000000000000000000001010';
const LOG_TRANSFER = ethersId('LogTransfer(address,address,address,uint256,uint256,uint256,uint256,uint256)');
const CHAIN_ID = 15001;
let d: RunningDevnet;
let httpUrl: string;
let wsUrl: string;

const keyOf = (name: string): { address: Hex; private_key: Hex } =>
  JSON.parse(readFileSync(join(paths(home).keys, `${name}.json`), 'utf8')) as { address: Hex; private_key: Hex };

const chainFor = (url: string) =>
  defineChain({
    id: CHAIN_ID,
    name: 'lockstep sidechain',
    nativeCurrency: { name: 'MATIC', symbol: 'MATIC', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });

beforeAll(async () => {
  initHome({
    home,
    scenario: loadScenario('devnet').scenario,
    seed: 22,
    host: '127.0.0.1',
    ports: { rest: 0, status: 0, jsonRpc: 0, ws: 0 },
    overwrite: false,
  });
  d = await startDevnet({ home, speed: 10, out: () => {} });
  await d.caughtUp;
  httpUrl = `http://127.0.0.1:${d.ports.jsonRpc}`;
  wsUrl = `ws://127.0.0.1:${d.ports.ws}`;
}, 60_000);

afterAll(async () => {
  await d?.stop();
  rmSync(home, { recursive: true, force: true });
}, 60_000);

interface Note {
  kind: 'head' | 'log';
  number: number;
  blockHash: string;
  txHash?: string;
  removed?: boolean;
}

/** A raw subscriber (newHeads and the MATIC token's logs) on node `n`, recording every notification. */
async function subscribe(n: number): Promise<{ notes: Note[]; close: () => void }> {
  const ws = new WebSocket(`${wsUrl}/node/${n}`);
  await new Promise((r, j) => {
    ws.once('open', r);
    ws.once('error', j);
  });
  const notes: Note[] = [];
  const subs = new Map<string, 'head' | 'log'>();
  const asked = new Map<number, 'head' | 'log'>([
    [1, 'head'],
    [2, 'log'],
  ]);
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as {
      id?: number;
      result?: string;
      params?: { subscription: string; result: Record<string, unknown> };
    };
    if (m.id !== undefined && typeof m.result === 'string') subs.set(m.result, asked.get(m.id)!);
    if (!m.params) return;
    const r = m.params.result;
    if (subs.get(m.params.subscription) === 'head')
      notes.push({ kind: 'head', number: Number(r.number), blockHash: String(r.hash) });
    else
      notes.push({
        kind: 'log',
        number: Number(r.blockNumber),
        blockHash: String(r.blockHash),
        txHash: String(r.transactionHash),
        removed: r.removed === true,
      });
  });
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_subscribe', params: ['logs', { address: MATIC }] }));
  await until(() => (subs.size === 2 ? true : null), 'the subscriptions', 10_000);
  return { notes, close: () => ws.close() };
}

const receiptOn = async (n: number, hash: string) =>
  (await rpc(`${httpUrl}/node/${n}`, 'eth_getTransactionReceipt', [hash])) as {
    blockHash: string;
    blockNumber: string;
    status: string;
  } | null;

const headOf = async (n: number) => Number(await rpc(`${httpUrl}/node/${n}`, 'eth_blockNumber'));

/**
 * Pause, and pick a producer `p` that is not in turn, at a sprint start (so it stays out of turn
 * while cut off); `q` is another node. Cut `p` off for 14 s.
 */
async function cutOffAProducer(): Promise<{ p: number; q: number; faultEndsAtMs: number }> {
  await rpc(httpUrl, 'lockstep_pause');
  // Step to a sprint start (16 blocks in the devnet scenario): its in-turn producer holds 15 more blocks.
  for (let i = 0; i < 40 && (await headOf(1)) % 16 !== 0; i++) await rpc(httpUrl, 'lockstep_step', [{ blocks: 1 }]);
  expect((await headOf(1)) % 16).toBe(0);
  const signers = ((await rpc(httpUrl, 'sidechain_getSigners', ['latest'])) as string[]).map((s) => s.toLowerCase());
  const proposer = String(await rpc(httpUrl, 'sidechain_getCurrentProposer')).toLowerCase();
  const validators = [1, 2, 3, 4].map((i) => keyOf(`validator-${i}`).address.toLowerCase());
  const p = validators.findIndex((a) => signers.includes(a) && a !== proposer) + 1;
  const q = validators.indexOf(proposer) + 1;
  expect(p).toBeGreaterThan(0);
  expect(q).toBeGreaterThan(0);
  const others = [1, 2, 3, 4].filter((i) => i !== p).map((i) => `sc-${i}`);
  const f = (await rpc(httpUrl, 'lockstep_fault', [
    { kind: 'partition', groups: [[`sc-${p}`], others], for: '14s' },
  ])) as { atMs: number; endsAtMs: number };
  // Let the partition take hold before anything is sent to p.
  await rpc(httpUrl, 'lockstep_step', [{ until: f.atMs + 100 }]);
  return { p, q, faultEndsAtMs: f.endsAtMs };
}

/**
 * After a transfer was sent to the cut-off producer `p`: run until `p` seals it, then through the
 * heal until the transfer is in a block of the winning branch; return both receipts.
 */
async function reorgOut(hash: string, p: number, q: number, faultEndsAtMs: number) {
  let first: Awaited<ReturnType<typeof receiptOn>> = null;
  for (let i = 0; i < 20 && !first; i++) {
    await rpc(httpUrl, 'lockstep_step', [{ blocks: 1, node: p }]);
    first = await receiptOn(p, hash);
  }
  expect(first, 'the cut-off producer sealed the transfer').not.toBeNull();
  // The other side never saw it.
  expect(await receiptOn(q, hash)).toBeNull();
  await rpc(httpUrl, 'lockstep_step', [{ until: faultEndsAtMs + 100 }]);
  let second: Awaited<ReturnType<typeof receiptOn>> = null;
  for (let i = 0; i < 30; i++) {
    second = await receiptOn(p, hash);
    if (second && second.blockHash !== first!.blockHash) break;
    await rpc(httpUrl, 'lockstep_step', [{ blocks: 1, node: p }]);
  }
  expect(second, 'the transfer is included again after the heal').not.toBeNull();
  expect(second!.blockHash).not.toBe(first!.blockHash);
  expect(second!.status).toBe('0x1');
  // The winning branch is everyone's now: the other side has the transfer in the same block.
  expect((await receiptOn(q, hash))?.blockHash).toBe(second!.blockHash);
  const block = (await rpc(`${httpUrl}/node/${p}`, 'eth_getBlockByHash', [second!.blockHash, false])) as {
    transactions: string[];
  };
  expect(block.transactions).toContain(hash);
  return { first: first!, second: second! };
}

/** What the subscriber saw of the transfer: its log, removed with the old block, then in the new one; no flood. */
function checkSubscriber(
  notes: Note[],
  hash: string,
  first: { blockHash: string },
  second: { blockHash: string },
  startHead: number,
) {
  const mine = notes.filter((n) => n.kind === 'log' && n.txHash === hash);
  expect(mine.map((n) => [n.blockHash, n.removed])).toEqual([
    [first.blockHash, false],
    [first.blockHash, true],
    [second.blockHash, false],
  ]);
  const removedAt = notes.indexOf(mine[1]!);
  const newHeadAt = notes.findIndex((n) => n.kind === 'head' && n.blockHash === second.blockHash);
  expect(newHeadAt).toBeGreaterThan(removedAt);
  // Never the whole chain: every header is near where the subscription began.
  const heads = notes.filter((n) => n.kind === 'head');
  expect(
    Math.min(...heads.map((h) => h.number)),
    JSON.stringify(notes.map((n) => [n.kind, n.number, n.removed, n.blockHash.slice(0, 8)])),
  ).toBeGreaterThan(startHead - 16);
  for (const n of notes) if (n.kind === 'log' && n.removed) expect(n.blockHash).toBe(first.blockHash);
}

describe('wallets on the devnet sidechain', () => {
  it('the home funds its dev accounts at sidechain genesis (sidechain/genesis.json alloc, the banner)', () => {
    const g = JSON.parse(readFileSync(paths(home).sidechainGenesis, 'utf8')) as {
      alloc: Record<string, { balance: string }>;
    };
    for (const i of [1, 2, 3, 4])
      expect(BigInt(g.alloc[keyOf(`user-${i}`).address]!.balance)).toBe(parseEther('10000'));
  });

  it('viem: a dev account sends over HTTP and WebSocket, reads balance and nonce, a reorg takes the transfer out and puts it back', async () => {
    await rpc(httpUrl, 'lockstep_resume');
    const user = keyOf('user-1');
    const to = keyOf('user-2').address;
    const account = privateKeyToAccount(user.private_key);
    expect(account.address.toLowerCase()).toBe(user.address);
    const chain = chainFor(httpUrl);
    const pub = createPublicClient({ chain, transport: http(httpUrl) });
    const wallet = createWalletClient({ chain, transport: http(httpUrl), account });
    const before = await pub.getBalance({ address: to });
    expect(await pub.getBalance({ address: account.address })).toBe(parseEther('10000'));

    // EIP-1559 over HTTP (viem's default on a chain with a base fee).
    const h1 = await wallet.sendTransaction({ to, value: parseEther('1.5') });
    const r1 = await pub.waitForTransactionReceipt({ hash: h1, pollingInterval: 100 });
    expect(r1).toMatchObject({ status: 'success', type: 'eip1559', transactionHash: h1 });
    expect(r1.logs).toHaveLength(1);
    expect(r1.logs[0]!.address).toBe(MATIC);
    // Legacy (EIP-155) over WebSocket.
    const wsWallet = createWalletClient({ chain, transport: webSocket(wsUrl), account });
    const wsPub = createPublicClient({ chain, transport: webSocket(wsUrl) });
    const h2 = await wsWallet.sendTransaction({ to, value: 7n, type: 'legacy' });
    const r2 = await wsPub.waitForTransactionReceipt({ hash: h2, pollingInterval: 100 });
    expect(r2).toMatchObject({ status: 'success', type: 'legacy' });
    expect(await pub.getBalance({ address: to })).toBe(before + parseEther('1.5') + 7n);
    expect(await pub.getTransactionCount({ address: account.address })).toBe(2);
    const tx = await pub.getTransaction({ hash: h2 });
    expect(tx.from.toLowerCase()).toBe(user.address);
    expect(tx.nonce).toBe(1);

    await Promise.all(
      [wsPub.transport.getRpcClient(), wsWallet.transport.getRpcClient()].map(async (c) => (await c).close()),
    );

    // The reorg.
    const { p, q, faultEndsAtMs } = await cutOffAProducer();
    const sub = await subscribe(p);
    try {
      const startHead = await headOf(p);
      const reorgUser = privateKeyToAccount(keyOf('user-4').private_key);
      const toP = createWalletClient({
        chain: chainFor(`${httpUrl}/node/${p}`),
        transport: http(`${httpUrl}/node/${p}`),
        account: reorgUser,
      });
      const hash = await toP.sendTransaction({ to, value: 3n });
      // Sent while paused: pending on p already (a wallet asking for the next nonce sees it).
      expect(await rpc(`${httpUrl}/node/${p}`, 'eth_getTransactionCount', [reorgUser.address, 'pending'])).toBe('0x1');
      const { first, second } = await reorgOut(hash, p, q, faultEndsAtMs);
      await until(
        () => (sub.notes.some((n) => n.kind === 'log' && n.blockHash === second.blockHash) ? true : null),
        'the new log',
        10_000,
      );
      checkSubscriber(sub.notes, hash, first, second, startHead);
    } finally {
      sub.close();
    }
  }, 240_000);

  it('ethers: a dev wallet sends over HTTP and WebSocket, reads balance and nonce, a reorg takes the transfer out and puts it back', async () => {
    await rpc(httpUrl, 'lockstep_resume');
    const user = keyOf('user-3');
    const to = keyOf('user-2').address;
    const provider = new JsonRpcProvider(httpUrl, CHAIN_ID, { staticNetwork: true, pollingInterval: 100 });
    const wsProvider = new WebSocketProvider(wsUrl, CHAIN_ID, { staticNetwork: true });
    const closers: Array<() => Promise<void> | void> = [];
    try {
      const wallet = new Wallet(user.private_key, provider);
      const before = await provider.getBalance(to);
      const t1 = await wallet.sendTransaction({ to, value: ethersParseEther('2') });
      const r1 = (await t1.wait())!;
      expect(r1.status).toBe(1);
      expect(r1.type).toBe(2);
      expect(r1.logs.map((l) => [l.address.toLowerCase(), l.topics[0]])).toEqual([[MATIC, LOG_TRANSFER]]);
      // ethers checks that the hash the node answers is keccak256 of what it signed.
      expect(Transaction.from(await provider.send('eth_getRawTransactionByHash', [t1.hash])).hash).toBe(t1.hash);
      const wsWallet = new Wallet(user.private_key, wsProvider);
      const t2 = await wsWallet.sendTransaction({ to, value: 11n, type: 0 });
      const r2 = (await t2.wait())!;
      expect(r2.status).toBe(1);
      expect(r2.type).toBe(0);
      expect(await provider.getBalance(to)).toBe(before + ethersParseEther('2') + 11n);
      expect(await provider.getTransactionCount(user.address, 'latest')).toBe(2);
      expect(await wsProvider.getTransactionCount(user.address, 'pending')).toBe(2);

      // The reorg, with ethers' own log subscription watching too.
      const { p, q, faultEndsAtMs } = await cutOffAProducer();
      const sub = await subscribe(p);
      closers.push(() => sub.close());
      const startHead = await headOf(p);
      const onP = new WebSocketProvider(`${wsUrl}/node/${p}`, CHAIN_ID, { staticNetwork: true });
      closers.push(() => onP.destroy());
      const seen: Log[] = [];
      await onP.on({ address: MATIC, topics: [LOG_TRANSFER] }, (log: Log) => void seen.push(log));
      const reorgWallet = new Wallet(
        keyOf('user-4').private_key,
        new JsonRpcProvider(`${httpUrl}/node/${p}`, CHAIN_ID, { staticNetwork: true }),
      );
      const sent = await reorgWallet.sendTransaction({ to, value: 5n });
      // ethers hands a removed log to the orphan listeners of that log, not to the filter's listeners.
      const orphaned: unknown[] = [];
      const listening = (async () => {
        const l = await until(
          () => seen.find((x) => x.transactionHash === sent.hash) ?? null,
          "ethers' first log",
          120_000,
        );
        await onP.on({ orphan: 'drop-log', log: { ...l.toJSON(), removed: true } }, (...args: unknown[]) => {
          orphaned.push(args);
        });
      })();
      const { first, second } = await reorgOut(sent.hash, p, q, faultEndsAtMs);
      await listening;
      await until(
        () => (sub.notes.some((n) => n.kind === 'log' && n.blockHash === second.blockHash) ? true : null),
        'the new log',
        10_000,
      );
      checkSubscriber(sub.notes, sent.hash, first, second, startHead);
      await until(
        () => (seen.some((l) => l.transactionHash === sent.hash && l.blockHash === second.blockHash) ? true : null),
        "ethers' log",
        10_000,
      );
      // The application's listener: the transfer once in each block, never an old log again as new.
      expect(seen.filter((l) => l.transactionHash === sent.hash).map((l) => [l.blockHash, l.removed])).toEqual([
        [first.blockHash, false],
        [second.blockHash, false],
      ]);
      await until(() => (orphaned.length ? true : null), "ethers' orphan event for the removed log", 10_000);
      reorgWallet.provider?.destroy();
    } finally {
      for (const close of closers) await close();
      provider.destroy();
      await wsProvider.destroy();
    }
  }, 240_000);
});
