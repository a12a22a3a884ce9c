/**
 * The sidechain JSON-RPC of a running devnet as client libraries see it (issue 16, item 5): a
 * devnet with user transfers and state syncs on free ports, read by ethers v6 and viem over HTTP
 * (transactions, receipts, the state-sync receipt of a sprint-start block, eth_getLogs filters,
 * transaction counts) and followed over the WebSocket port (ethers' WebSocketProvider block
 * events, viem's watchBlockNumber / watchBlocks).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Block,
  JsonRpcProvider,
  type TransactionResponse,
  WebSocketProvider,
  concat,
  id,
  keccak256,
  toBeHex,
  toQuantity,
  toUtf8Bytes,
  zeroPadValue,
} from 'ethers';
import { createPublicClient, http, parseAbiItem, webSocket } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../../sim/scenario/load';
import { initHome, paths } from './home';
import { type RunningDevnet, startDevnet } from './nodeStart';

const home = mkdtempSync(join(tmpdir(), 'lockstep-sidechain-clients-'));
const ZERO = '0x0000000000000000000000000000000000000000';
const STATE_RECEIVER = '0x0000000000000000000000000000000000001001';
const STATE_COMMITTED = id('StateCommitted(uint256,bool)');
let d: RunningDevnet;
let httpUrl: string;
let wsUrl: string;
let provider: JsonRpcProvider;

async function until<T>(probe: () => Promise<T | null | undefined>, what: string, timeoutMs = 120_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await probe();
    if (v !== null && v !== undefined) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Bor's derived state-sync transaction hash, computed here from the reference's definition. */
const borTxHash = (n: number, blockHash: string) =>
  keccak256(concat([toUtf8Bytes('matic-bor-receipt-'), zeroPadValue(toBeHex(n), 8), blockHash]));

beforeAll(async () => {
  const { scenario } = loadScenario('devnet');
  // The devnet scenario plus the workload's sidechain transfers, so there are user transactions.
  const withTransfers = { ...scenario, workload: { ...scenario.workload, sidechainTxs: { everyMs: 3_000 } } };
  initHome({
    home,
    scenario: withTransfers,
    seed: 11,
    host: '127.0.0.1',
    ports: { rest: 0, status: 0, jsonRpc: 0, ws: 0 },
    overwrite: false,
  });
  d = await startDevnet({ home, speed: 25, out: () => {} });
  httpUrl = `http://127.0.0.1:${d.ports.jsonRpc}`;
  wsUrl = `ws://127.0.0.1:${d.ports.ws}`;
  provider = new JsonRpcProvider(httpUrl, undefined, { staticNetwork: true, polling: false });
}, 60_000);

afterAll(async () => {
  provider?.destroy();
  await d?.stop();
  rmSync(home, { recursive: true, force: true });
});

/** The first canonical block (from 1) whose transactions pass `pick`. */
async function findBlock(pick: (b: Block) => boolean, what: string): Promise<Block> {
  let next = 1;
  return until(async () => {
    const headNumber = await provider.getBlockNumber();
    for (; next <= headNumber; next++) {
      const b = await provider.getBlock(next, true);
      if (b && pick(b)) return b;
    }
    return null;
  }, what);
}

describe('the devnet sidechain through client libraries', () => {
  it('ports.json names the WebSocket port', () => {
    const ports = JSON.parse(readFileSync(paths(home).ports, 'utf8')) as Record<string, unknown>;
    expect(ports).toMatchObject({ host: '127.0.0.1', jsonRpc: d.ports.jsonRpc, ws: d.ports.ws });
    expect(d.ports.ws).toBeGreaterThan(0);
    expect(d.ports.ws).not.toBe(d.ports.jsonRpc);
  });

  it('ethers: a user transfer (signed) and its receipt', async () => {
    const block = await findBlock(
      (b) => b.prefetchedTransactions.some((t) => t.to !== null && t.to !== ZERO),
      'a block with a user transfer',
    );
    const listed = block.prefetchedTransactions.find((t) => t.to !== ZERO)!;
    const tx = (await provider.getTransaction(listed.hash)) as TransactionResponse;
    expect(tx.hash).toBe(listed.hash);
    expect(tx.blockNumber).toBe(block.number);
    expect(tx.blockHash).toBe(block.hash);
    expect(tx.value).toBe(1n);
    expect(tx.from).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const receipt = (await provider.getTransactionReceipt(listed.hash))!;
    expect(receipt.status).toBe(1);
    expect(receipt.gasUsed).toBe(21_000n);
    expect(receipt.blockHash).toBe(block.hash);
    expect(receipt.index).toBe(tx.index);
    // Bor's LogTransfer from the MATIC token, the one log of a value transfer.
    expect(receipt.logs.map((l) => [l.address.toLowerCase(), l.topics[0]])).toEqual([
      [
        '0x0000000000000000000000000000000000001010',
        id('LogTransfer(address,address,address,uint256,uint256,uint256,uint256,uint256)'),
      ],
    ]);
    // The workload's transfers are signed: ethers rebuilt the transaction and checked its hash.
    expect(tx.signature.r).not.toBe(`0x${'00'.repeat(32)}`);
    const count = await provider.send('eth_getBlockTransactionCountByNumber', [toQuantity(block.number)]);
    expect(Number(count)).toBe(block.transactions.length);
  }, 180_000);

  it('ethers: the state-sync receipt of a sprint-start block, by its derived hash', async () => {
    const block = await findBlock(
      (b) => b.prefetchedTransactions.some((t) => t.hash === borTxHash(b.number, b.hash!)),
      'a block that committed state syncs',
    );
    expect(block.number % 16).toBe(0); // a sprint start (sprint 16)
    const hash = borTxHash(block.number, block.hash!);
    const last = block.prefetchedTransactions[block.prefetchedTransactions.length - 1]!;
    expect(last.hash).toBe(hash);
    expect(last.to).toBe(ZERO);
    const receipt = (await provider.getTransactionReceipt(hash))!;
    expect(receipt.hash).toBe(hash);
    expect(receipt.index).toBe(block.transactions.length - 1);
    expect(receipt.status).toBe(1);
    expect(receipt.gasUsed).toBe(0n);
    expect(receipt.logs.length).toBeGreaterThan(0);
    // Its logs are numbered after the logs of the block's transfers (one LogTransfer each).
    const receipts = (await provider.send('eth_getBlockReceipts', [toQuantity(block.number)])) as Array<{
      logs: unknown[];
    }>;
    const before = receipts.slice(0, -1).reduce((k, r) => k + r.logs.length, 0);
    for (const [i, l] of receipt.logs.entries()) {
      expect(l.address.toLowerCase()).toBe(STATE_RECEIVER);
      expect(l.topics[0]).toBe(STATE_COMMITTED);
      expect(l.transactionHash).toBe(hash);
      expect(l.blockNumber).toBe(block.number);
      expect(l.index).toBe(before + i);
    }
    // The devnet's first state syncs are ids 1 and 2, committed together.
    expect(receipt.logs.map((l) => Number(BigInt(l.topics[1]!)))).toEqual([1, 2]);
    const byHash = (await provider.getTransaction(hash))!;
    expect(byHash.blockNumber).toBe(block.number);
  }, 180_000);

  it('ethers: eth_getLogs with block range, block hash, address and topic filters', async () => {
    const all = await until(async () => {
      const logs = await provider.getLogs({ fromBlock: 0, toBlock: 'latest', topics: [STATE_COMMITTED] });
      return logs.length >= 2 ? logs : null;
    }, 'the state-sync logs');
    const second = await provider.getLogs({
      fromBlock: 0,
      address: STATE_RECEIVER,
      topics: [STATE_COMMITTED, [toBeHex(2, 32), toBeHex(7, 32)]],
    });
    expect(second.map((l) => Number(BigInt(l.topics[1]!)))).toEqual([2]);
    // By block hash: every log of the block, its transfers' LogTransfer logs besides the state syncs'.
    expect(await provider.getLogs({ blockHash: all[0]!.blockHash, topics: [STATE_COMMITTED] })).toHaveLength(
      all.filter((l) => l.blockHash === all[0]!.blockHash).length,
    );
    const inBlock = await provider.getLogs({ blockHash: all[0]!.blockHash });
    const receiptsOfBlock = (await provider.send('eth_getBlockReceipts', [all[0]!.blockHash])) as Array<{
      logs: unknown[];
    }>;
    expect(inBlock).toHaveLength(receiptsOfBlock.reduce((k, r) => k + r.logs.length, 0));
    expect(await provider.getLogs({ fromBlock: 0, address: `0x${'22'.repeat(20)}` })).toEqual([]);
    expect(
      await provider.getLogs({
        fromBlock: all[0]!.blockNumber + 1,
        toBlock: all[0]!.blockNumber + 1,
        topics: [STATE_COMMITTED],
      }),
    ).toEqual([]);
  }, 180_000);

  it('viem: transactions, the state-sync receipt and typed StateCommitted logs over HTTP', async () => {
    const client = createPublicClient({ transport: http(httpUrl) });
    expect(await client.getChainId()).toBe(15001);
    const logs = await client.getLogs({
      address: STATE_RECEIVER,
      event: parseAbiItem('event StateCommitted(uint256 indexed stateId, bool success)'),
      fromBlock: 0n,
      toBlock: 'latest',
    });
    expect(logs.map((l) => [l.args.stateId, l.args.success])).toEqual([
      [1n, true],
      [2n, true],
    ]);
    const receipt = await client.getTransactionReceipt({ hash: logs[0]!.transactionHash! });
    expect(receipt.status).toBe('success');
    expect(receipt.logs).toHaveLength(2);
    expect(receipt.transactionHash).toBe(borTxHash(Number(receipt.blockNumber), receipt.blockHash));
    const tx = await client.getTransaction({ hash: receipt.transactionHash });
    expect(tx.to).toBe(ZERO);
    expect(await client.getBlockTransactionCount({ blockNumber: receipt.blockNumber })).toBe(
      receipt.transactionIndex + 1,
    );
    const transfer = await findBlock(
      (b) => b.prefetchedTransactions.some((t) => t.to !== ZERO),
      'a block with a user transfer',
    );
    const userTx = await client.getTransaction({ blockNumber: BigInt(transfer.number), index: 0 });
    expect(userTx.value).toBe(1n);
    expect((await client.getTransactionReceipt({ hash: userTx.hash })).gasUsed).toBe(21_000n);
  }, 180_000);

  it("ethers' WebSocketProvider follows new blocks", async () => {
    const ws = new WebSocketProvider(wsUrl, undefined, { staticNetwork: true });
    try {
      const seen: number[] = [];
      await new Promise<void>((resolve) => {
        void ws.on('block', (n: number) => {
          seen.push(n);
          if (seen.length >= 2) resolve();
        });
      });
      expect(seen[1]).toBeGreaterThan(seen[0]!);
      expect((await ws.getBlock(seen[1]!))!.hash).toBe((await provider.getBlock(seen[1]!))!.hash);
    } finally {
      await ws.destroy();
    }
  }, 60_000);

  it("viem's watchBlockNumber and watchBlocks follow new blocks over a webSocket transport", async () => {
    const client = createPublicClient({ transport: webSocket(wsUrl) });
    try {
      const numbers: bigint[] = [];
      const hashes = new Map<bigint, string>();
      await new Promise<void>((resolve, reject) => {
        const stops: Array<() => void> = [];
        const check = () => {
          if (numbers.length >= 2 && hashes.size >= 2) {
            for (const s of stops) s();
            resolve();
          }
        };
        stops.push(
          client.watchBlockNumber({
            onBlockNumber: (n) => {
              numbers.push(n);
              check();
            },
            onError: reject,
          }),
          client.watchBlocks({
            onBlock: (b) => {
              hashes.set(b.number, b.hash);
              check();
            },
            onError: reject,
          }),
        );
      });
      expect(numbers[1]!).toBeGreaterThan(numbers[0]!);
      for (const [n, h] of hashes) expect((await provider.getBlock(Number(n)))!.hash).toBe(h);
    } finally {
      await (await client.transport.getRpcClient()).close();
    }
  }, 60_000);
});
