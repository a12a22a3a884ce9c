/**
 * Subscriptions on a devnet opened at a time (issue 22, item 2): `node init --scenario default
 * --at 4m` opens the run paused at 4 minutes; a subscriber then follows `lockstep_step`s through
 * the scenario's reorgs. Before the fix, the first step that contained a depth-2 reorg sent every
 * subscriber the headers of blocks 0…105 again and block 64's old state-sync logs with
 * `removed: false`. After a reorg a subscriber sees what changed: the removed logs, then the new
 * blocks' headers and logs; never the chain from genesis.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type RunningDevnet, startDevnet } from './nodeStart';
import { nodeInit } from './nodeInit';
import { rpc, until } from './devnetTestKit';

const root = mkdtempSync(join(tmpdir(), 'lockstep-subs-at-'));
const home = join(root, 'home');
let d: RunningDevnet;
let rpcUrl: string;
let wsUrl: string;

beforeAll(async () => {
  await nodeInit({
    home,
    scenario: 'default',
    at: '4m',
    host: '127.0.0.1',
    restPort: 0,
    rpcPort: 0,
    jsonRpcPort: 0,
    wsPort: 0,
    overwrite: false,
  });
  d = await startDevnet({ home, speed: 1, out: () => {} });
  await d.caughtUp;
  rpcUrl = `http://127.0.0.1:${d.ports.jsonRpc}`;
  wsUrl = `ws://127.0.0.1:${d.ports.ws}`;
}, 300_000);

afterAll(async () => {
  await d?.stop();
  rmSync(root, { recursive: true, force: true });
});

interface Note {
  sub: 'head' | 'log';
  number: number;
  hash: string;
  removed: boolean;
}

describe('subscriptions on a devnet opened --at 4m', () => {
  it('a reorg in a step sends the removed logs and the new blocks, never the chain again', async () => {
    expect(d.net.adminStatus()).toMatchObject({ state: 'paused' });
    const ws = new WebSocket(wsUrl);
    await new Promise((r, j) => {
      ws.once('open', r);
      ws.once('error', j);
    });
    const notes: Note[] = [];
    const kinds = new Map<string, 'head' | 'log'>();
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as {
        id?: number;
        result?: string;
        params?: { subscription: string; result: Record<string, unknown> };
      };
      if (m.id !== undefined && typeof m.result === 'string') kinds.set(m.result, m.id === 1 ? 'head' : 'log');
      if (!m.params) return;
      const r = m.params.result;
      const sub = kinds.get(m.params.subscription)!;
      notes.push({
        sub,
        number: Number(sub === 'head' ? r.number : r.blockNumber),
        hash: String(sub === 'head' ? r.hash : r.blockHash),
        removed: r.removed === true,
      });
    });
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_subscribe', params: ['logs', {}] }));
    await until(() => (kinds.size === 2 ? true : null), 'the subscriptions', 10_000);
    const start = Number(await rpc(rpcUrl, 'eth_blockNumber'));
    expect(start).toBeGreaterThan(100);

    // Step block by block until the subscriber saw a reorg: a header at a number it already had,
    // or at or below the head it subscribed at (the new branch of a reorg of blocks it never was
    // told of). A reorg that begins and ends inside one step replaces a block no subscriber heard
    // of and shows as neither, so the node's reorg count alone is not enough.
    const headNumbers = () => notes.filter((n) => n.sub === 'head').map((n) => n.number);
    const replaced = () => new Set(headNumbers()).size < headNumbers().length || headNumbers().some((n) => n <= start);
    let reorgs = 0;
    for (let i = 0; i < 120 && !replaced(); i++) {
      const before = d.net.sidechainNode(1).chain.reorgs.length;
      await rpc(rpcUrl, 'lockstep_step', [{ blocks: 1 }]);
      await new Promise((r) => setTimeout(r, 150));
      reorgs += d.net.sidechainNode(1).chain.reorgs.length - before;
    }
    expect(reorgs, 'node 1 went through a reorg').toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 300));
    ws.close();

    const heads = notes.filter((n) => n.sub === 'head');
    // Never the chain from genesis: every header is above where the subscription began, less a reorg.
    expect(Math.min(...heads.map((h) => h.number))).toBeGreaterThan(start - 16);
    const end = Number(await rpc(rpcUrl, 'eth_blockNumber'));
    expect(heads.length).toBeLessThan(end - start + 16);
    // A log comes as new only from a block that became canonical after the subscription began.
    for (const n of notes.filter((x) => x.sub === 'log' && !x.removed))
      expect(n.number, `log of block ${n.number} sent as new`).toBeGreaterThan(start - 16);
    // The reorg's new blocks came: a header again at a number the chain had already reached.
    expect(replaced(), 'a header replaced by a reorg').toBe(true);
  }, 300_000);
});
