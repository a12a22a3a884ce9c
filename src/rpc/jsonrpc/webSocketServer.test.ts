/**
 * The WebSocket endpoint over a fixture chain that the tests grow and rewind: JSON-RPC over WS,
 * `eth_subscribe` newHeads and logs with geth's notifications (removed logs after a rewind
 * included), geth's subscription errors, the port's HTTP side, and the block watchers of ethers
 * (WebSocketProvider) and viem (watchBlockNumber, watchBlocks over a webSocket transport).
 */
import { type AddressInfo, connect } from 'node:net';
import { WebSocketProvider } from 'ethers';
import { type FastifyInstance } from 'fastify';
import { createPublicClient, webSocket } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { toQuantity } from './quantity';
import { STATE_COMMITTED_TOPIC, STATE_RECEIVER_ADDRESS } from '../../sidechain/stateSync';
import {
  FIXTURE_CHAIN_ID,
  type FixtureSidechainPort,
  createFixtureSidechainPort,
  growChain,
} from '../testing/sidechainPort';
import { headerJson } from './blockJson';
import { createWebSocketServer } from './webSocketServer';

type Json = Record<string, unknown>;

let port: FixtureSidechainPort;
let app: FastifyInstance;
let url: string;
let httpUrl: string;

beforeAll(async () => {
  port = createFixtureSidechainPort({ blocks: 2 });
  app = createWebSocketServer(port, { pollMs: 10 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const p = (app.server.address() as AddressInfo).port;
  url = `ws://127.0.0.1:${p}`;
  httpUrl = `http://127.0.0.1:${p}`;
});
afterAll(() => app.close());

/** A raw WebSocket client: send requests, read answers and notifications in order. */
class Client {
  private readonly queue: Json[] = [];
  private readonly waiters: Array<() => void> = [];
  private nextId = 1;
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.queue.push(JSON.parse(data.toString()) as Json);
      for (const w of this.waiters.splice(0)) w();
    });
  }
  static open(): Promise<Client> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.once('open', () => resolve(new Client(ws)));
      ws.once('error', reject);
    });
  }
  /** The next message that satisfies `pick` (others stay queued). */
  async next(pick: (m: Json) => boolean = () => true, timeoutMs = 5_000): Promise<Json> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.queue.findIndex(pick);
      if (i >= 0) return this.queue.splice(i, 1)[0]!;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching message; queued: ${JSON.stringify(this.queue).slice(0, 500)}`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  }
  async call(method: string, params?: unknown): Promise<Json> {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
    return this.next((m) => m.id === id);
  }
  notifications(sub: string): Json[] {
    const out: Json[] = [];
    for (let i = 0; i < this.queue.length; ) {
      const m = this.queue[i]!;
      if (m.method === 'eth_subscription' && (m.params as Json).subscription === sub) {
        out.push(m);
        this.queue.splice(i, 1);
      } else i++;
    }
    return out;
  }
  async collect(sub: string, count: number): Promise<Json[]> {
    const out: Json[] = [];
    while (out.length < count)
      out.push(await this.next((m) => m.method === 'eth_subscription' && (m.params as Json).subscription === sub));
    return out;
  }
  close(): void {
    this.ws.close();
  }
}

const head = () => port.chain.head().block.header.number;
const settle = () => new Promise((r) => setTimeout(r, 60));

beforeEach(async () => {
  // Every test starts from a 2-block chain with nothing subscribed.
  if (head() > 2n) await port.setHead(2n);
});

describe('JSON-RPC over WebSocket', () => {
  it('answers calls and batches like the HTTP endpoint', async () => {
    const c = await Client.open();
    expect(await c.call('eth_chainId')).toEqual({ jsonrpc: '2.0', id: 1, result: toQuantity(FIXTURE_CHAIN_ID) });
    expect(await c.call('eth_blockNumber')).toMatchObject({ result: toQuantity(head()) });
    expect(await c.call('eth_nope')).toMatchObject({
      error: { code: -32601, message: 'the method eth_nope does not exist/is not available' },
    });
    c.ws.send(
      '[{"jsonrpc":"2.0","id":"a","method":"net_version"},{"jsonrpc":"2.0","id":"b","method":"net_listening"}]',
    );
    expect(await c.next((m) => Array.isArray(m))).toEqual([
      { jsonrpc: '2.0', id: 'a', result: '15001' },
      { jsonrpc: '2.0', id: 'b', result: true },
    ]);
    c.ws.send('{not json');
    expect(await c.next((m) => (m.error as Json | undefined)?.code === -32700)).toMatchObject({ id: null });
    c.close();
  });

  it("subscription errors are geth's", async () => {
    const c = await Client.open();
    const err = async (params: unknown, method = 'eth_subscribe') => (await c.call(method, params)).error;
    expect(await err([])).toEqual({ code: -32602, message: 'expected subscription name as first argument' });
    expect(await err({ a: 1 })).toEqual({ code: -32602, message: 'non-array args' });
    expect(await err(undefined)).toEqual({ code: -32602, message: 'non-array args' });
    expect(await err(['foo'])).toEqual({ code: -32601, message: 'no "foo" subscription in eth namespace' });
    expect(await err(['newHeads'], 'sidechain_subscribe')).toEqual({
      code: -32601,
      message: 'no "newHeads" subscription in sidechain namespace',
    });
    expect(await err(['newHeads', 1])).toEqual({ code: -32602, message: 'too many arguments, want at most 1' });
    expect(await err(['logs'])).toEqual({ code: -32602, message: 'missing value for required argument 1' });
    expect(await err(['logs', { topics: 'x' }])).toMatchObject({ code: -32602, message: /^invalid argument 1: / });
    expect(await err(['logs', { fromBlock: '0x5', toBlock: '0x1' }])).toEqual({
      code: -32000,
      message: 'invalid block range params',
    });
    expect(await err(['logs', { fromBlock: 'pending' }])).toEqual({
      code: -32000,
      message: 'pending logs are not supported',
    });
    expect((await c.call('eth_unsubscribe', ['0x1'])).error).toEqual({
      code: -32000,
      message: 'subscription not found',
    });
    c.close();
  });

  it('over HTTP on the same port: JSON-RPC answers, subscriptions are not supported', async () => {
    const post = async (body: unknown) =>
      (await (
        await fetch(httpUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()) as Json;
    expect(await post({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' })).toMatchObject({
      result: toQuantity(head()),
    });
    expect(await post({ jsonrpc: '2.0', id: 2, method: 'eth_subscribe', params: ['newHeads'] })).toMatchObject({
      error: { code: -32601, message: 'notifications not supported' },
    });
    const get = await fetch(httpUrl);
    expect(get.status).toBe(405);
    expect(await get.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });

  it('a refused upgrade is answered with a JSON-RPC error object', async () => {
    const raw = (head: string) =>
      new Promise<{ status: number; body: unknown }>((resolve, reject) => {
        const s = connect(Number(new URL(httpUrl).port), '127.0.0.1');
        let text = '';
        s.on('data', (d) => (text += d.toString()));
        s.on('error', reject);
        s.on('close', () => {
          const end = text.indexOf('\r\n\r\n');
          resolve({ status: Number(text.split(' ')[1]), body: JSON.parse(text.slice(end + 4)) });
        });
        s.end(head);
      });
    expect(await raw('GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n')).toEqual({
      status: 400,
      body: {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'WebSocket upgrade refused: Missing or invalid Sec-WebSocket-Key header' },
      },
    });
    const key = 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n';
    expect(await raw(`GET / HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n${key}\r\n`)).toMatchObject({
      status: 400,
      body: { id: null, error: { code: -32600, message: 'missing Host header (required by HTTP/1.1)' } },
    });
    expect(
      await raw(`POST / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n${key}\r\n`),
    ).toMatchObject({
      status: 405,
      body: { id: null, error: { code: -32600, message: 'WebSocket upgrade refused: Invalid HTTP method' } },
    });
  });
});

describe('eth_subscribe newHeads', () => {
  it("every new canonical header, in order, in geth's notification format; none after unsubscribe", async () => {
    const c = await Client.open();
    const sub = (await c.call('eth_subscribe', ['newHeads'])).result as string;
    expect(sub).toMatch(/^0x[0-9a-f]{1,32}$/);
    await settle();
    growChain(port.chain, 3);
    const got = await c.collect(sub, 3);
    const blocks = port.chain.canonicalRange(3n, 5n);
    expect(got).toEqual(
      blocks.map((b) => ({
        jsonrpc: '2.0',
        method: 'eth_subscription',
        params: { subscription: sub, result: headerJson(b.block.header, b.block.hash) },
      })),
    );
    expect(await c.call('eth_unsubscribe', [sub])).toMatchObject({ result: true });
    growChain(port.chain, 2);
    await settle();
    await settle();
    expect(c.notifications(sub)).toEqual([]);
    c.close();
  });
});

describe('eth_subscribe logs', () => {
  it('state-sync logs as blocks commit them, filtered; removed: true after a rewind', async () => {
    const c = await Client.open();
    const all = (await c.call('eth_subscribe', ['logs', {}])).result as string;
    const one = (
      await c.call('eth_subscribe', [
        'logs',
        { address: STATE_RECEIVER_ADDRESS, topics: [null, `0x${'00'.repeat(31)}02`] },
      ])
    ).result as string;
    const none = (await c.call('eth_subscribe', ['logs', { address: `0x${'11'.repeat(20)}` }])).result as string;
    await settle();
    growChain(port.chain, 12);
    // What eth_getLogs says the new blocks logged, the notifications must say too.
    const expected = (await c.call('eth_getLogs', [{ fromBlock: '0x3', toBlock: 'latest' }])).result as Json[];
    expect(expected.length).toBeGreaterThan(1);
    const got = await c.collect(all, expected.length);
    expect(got.map((m) => (m.params as Json).result)).toEqual(expected);
    for (const l of expected) expect((l as { topics: string[] }).topics[0]).toBe(STATE_COMMITTED_TOPIC);
    const filtered = await c.collect(one, 1);
    expect((filtered[0]!.params as { result: { topics: string[] } }).result.topics[1]).toBe(`0x${'00'.repeat(31)}02`);

    // Rewind below the state-sync blocks: their logs come again, removed.
    await port.setHead(2n);
    const removed = await c.collect(all, expected.length);
    expect(removed.map((m) => (m.params as Json).result)).toEqual(expected.map((l) => ({ ...l, removed: true })));
    await settle();
    expect(c.notifications(none)).toEqual([]);
    c.close();
  });
});

describe('client libraries follow new heads over WebSocket', () => {
  /** Grow the chain a block every 40 ms while `f` runs. */
  async function whileGrowing<T>(f: () => Promise<T>): Promise<T> {
    const t = setInterval(() => growChain(port.chain, 1), 40);
    try {
      return await f();
    } finally {
      clearInterval(t);
    }
  }

  it("ethers: WebSocketProvider's block events", async () => {
    const provider = new WebSocketProvider(url, undefined, { staticNetwork: true });
    try {
      expect((await provider.getNetwork()).chainId).toBe(FIXTURE_CHAIN_ID);
      const seen: number[] = [];
      await whileGrowing(
        () =>
          new Promise<void>((resolve) => {
            void provider.on('block', (n: number) => {
              seen.push(n);
              if (seen.length >= 3) resolve();
            });
          }),
      );
      expect(seen.length).toBeGreaterThanOrEqual(3);
      for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]!);
      const block = (await provider.getBlock(seen[0]!))!;
      expect(block.hash).toBe(port.chain.byNumber(BigInt(seen[0]!))!.block.hash);
    } finally {
      await provider.destroy();
    }
  });

  it('viem: watchBlockNumber and watchBlocks over a webSocket transport', async () => {
    const client = createPublicClient({ transport: webSocket(url) });
    try {
      expect(await client.getChainId()).toBe(Number(FIXTURE_CHAIN_ID));
      const numbers: bigint[] = [];
      const blocks: Array<{ number: bigint | null; hash: string | null }> = [];
      await whileGrowing(
        () =>
          new Promise<void>((resolve, reject) => {
            const stops: Array<() => void> = [];
            const check = () => {
              if (numbers.length >= 3 && blocks.length >= 3) {
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
                  blocks.push(b);
                  check();
                },
                onError: reject,
              }),
            );
          }),
      );
      for (let i = 1; i < numbers.length; i++) expect(numbers[i]!).toBeGreaterThan(numbers[i - 1]!);
      for (const b of blocks) expect(b.hash).toBe(port.chain.byNumber(b.number!)!.block.hash);
    } finally {
      await client.transport.getRpcClient().then((r) => r.close());
    }
  });
});
