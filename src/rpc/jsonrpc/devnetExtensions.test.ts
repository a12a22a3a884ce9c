/**
 * What a devnet adds to the JSON-RPC and status ports: `/node/N` (HTTP and WebSocket), the admin
 * and evm methods (parameters, answers, errors; a batch reads the chain again after one), and the
 * catch-up gate (reads wait while a restart replays; eth_syncing answers at once; a gate that does
 * not open in time is an error, not an old block).
 */
import { type AddressInfo } from 'node:net';
import { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { InputError } from '../../core/errors';
import { type CatchUpGate, type NodeStatusPort } from '../ports';
import { createStatusServer } from '../status/statusServer';
import { type FixtureSidechainPort, createFixtureSidechainPort, growChain } from '../testing/sidechainPort';
import { type DevnetControl, adminMethods, parseStepRequest } from './adminMethods';
import { createJsonRpcServer } from './jsonRpcServer';
import { createWebSocketServer } from './webSocketServer';

type Json = Record<string, unknown>;

/** A gate the test opens and closes. */
class TestGate implements CatchUpGate {
  closed = false;
  failing = false;
  private waiters: Array<() => void> = [];
  catchingUp() {
    return this.closed;
  }
  caughtUp(): Promise<void> {
    if (this.failing) return Promise.reject(new Error('the node is catching up: replaying its journal'));
    return new Promise((r) => this.waiters.push(r));
  }
  open() {
    this.closed = false;
    for (const w of this.waiters.splice(0)) w();
  }
}

const gate = new TestGate();
const one = createFixtureSidechainPort({ blocks: 3 });
const two = createFixtureSidechainPort({ blocks: 7 });
(one as FixtureSidechainPort & { gate: CatchUpGate }).gate = gate;
const calls: Array<{ method: string; args: unknown[] }> = [];
let offset = 0;
let snapshots = 0;
const control: DevnetControl = {
  status: () => ({ state: 'paused' }),
  pause: async () => ({ paused: true }),
  resume: async () => ({ paused: false }),
  step: async (s) => {
    calls.push({ method: 'step', args: [s] });
    return { ...s };
  },
  snapshot: async (name) => {
    snapshots++;
    return { id: `0x${snapshots.toString(16)}`, name: name ?? `0x${snapshots.toString(16)}`, barrier: 0, timeMs: 0 };
  },
  revert: async (ref, consume) => (ref === '0x1' || ref === 'keep' ? { reverted: ref, consume } : null),
  fault: async (spec) => {
    if ((spec as Json).kind === 'nonsense') throw new InputError('fault.kind', 'unknown fault kind "nonsense"');
    return { index: 0 };
  },
  mine: async (node, opts) => {
    calls.push({ method: 'mine', args: [node, opts] });
    const p = node === 2 ? two : one;
    growChain(p.chain, opts?.blocks ?? 1);
    return {};
  },
  setNextBlockTimestamp: async (node, timeS) => {
    calls.push({ method: 'setNextBlockTimestamp', args: [node, timeS] });
    if (timeS < 1000) throw new InputError('timestamp', `${timeS} is not after the head's time`);
    return {};
  },
  setBalance: async (node, address, balance) => {
    calls.push({ method: 'setBalance', args: [node, address, balance] });
    return {};
  },
  increaseTime: async (s) => {
    offset += s;
    return offset;
  },
};

let rpc: FastifyInstance;
let ws: FastifyInstance;
let status: FastifyInstance;
let rpcUrl: string;
let wsUrl: string;
let statusUrl: string;

beforeAll(async () => {
  const nodes = { node: (n: number) => (n === 1 ? one : n === 2 ? two : null), count: 2 };
  const extraMethods = (node: number | undefined) => adminMethods(control, node);
  rpc = createJsonRpcServer(one, { nodes, extraMethods });
  ws = createWebSocketServer(one, { nodes, extraMethods, pollMs: 10 });
  const statusOf = (h: number): NodeStatusPort => ({
    status: () => ({
      nodeId: `svc-${h}`,
      moniker: `validator-${h}`,
      network: 'lockstep-1',
      version: '0.1.0',
      latestBlockHeight: BigInt(h * 10),
      latestBlockHash: '',
      latestAppHash: '',
      latestBlockTimeMs: 0,
      catchingUp: false,
      validatorAddress: '0x00',
      votingPower: 1n,
    }),
    netInfo: () => ({ listening: true, peers: [] }),
  });
  status = createStatusServer(statusOf(1), { nodes: { node: (n) => (n <= 2 ? statusOf(n) : null), count: 2 } });
  for (const s of [rpc, ws, status]) await s.listen({ host: '127.0.0.1', port: 0 });
  rpcUrl = `http://127.0.0.1:${(rpc.server.address() as AddressInfo).port}`;
  wsUrl = `ws://127.0.0.1:${(ws.server.address() as AddressInfo).port}`;
  statusUrl = `http://127.0.0.1:${(status.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all([rpc.close(), ws.close(), status.close()]);
});

async function post(path: string, body: unknown): Promise<{ status: number; body: Json | Json[] }> {
  const r = await fetch(rpcUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as Json };
}

const call = (method: string, params: unknown[] = [], id = 1) => ({ jsonrpc: '2.0', id, method, params });

describe('/node/N', () => {
  it('JSON-RPC over HTTP speaks to node N; / to the default node; an unknown N is an error object', async () => {
    expect((await post('', call('eth_blockNumber'))).body).toMatchObject({ result: '0x3' });
    expect((await post('/node/1', call('eth_blockNumber'))).body).toMatchObject({ result: '0x3' });
    expect((await post('/node/2', call('eth_blockNumber'))).body).toMatchObject({ result: '0x7' });
    expect((await post('/node/2/', call('eth_blockNumber'))).body).toMatchObject({ result: '0x7' });
    const bad = await post('/node/3', call('eth_blockNumber'));
    expect(bad.status).toBe(404);
    expect(bad.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(JSON.stringify(bad.body)).toContain('nodes are 1-2');
  });

  it('WebSocket: ws://…/node/N speaks to node N', async () => {
    const ask = (path: string) =>
      new Promise<Json>((resolve, reject) => {
        const s = new WebSocket(wsUrl + path);
        s.once('open', () => s.send(JSON.stringify(call('eth_blockNumber'))));
        s.once('message', (d) => {
          resolve(JSON.parse(d.toString()) as Json);
          s.close();
        });
        s.once('error', reject);
      });
    expect(await ask('/node/2')).toMatchObject({ result: '0x7' });
    expect(await ask('')).toMatchObject({ result: '0x3' });
    await expect(ask('/node/9')).rejects.toThrow(/404/);
  });

  it('the status RPC: /node/N/status', async () => {
    const s = (await (await fetch(`${statusUrl}/node/2/status`)).json()) as {
      result: { sync_info: { latest_block_height: string } };
    };
    expect(s.result.sync_info.latest_block_height).toBe('20');
    const d = (await (await fetch(`${statusUrl}/status`)).json()) as typeof s;
    expect(d.result.sync_info.latest_block_height).toBe('10');
    const bad = await fetch(`${statusUrl}/node/7/status`);
    expect(bad.status).toBe(404);
    expect(((await bad.json()) as { error: { data: string } }).error.data).toContain('1-2');
  });
});

describe('admin and evm methods', () => {
  it('evm_snapshot answers a hex id, evm_revert true for a known id and false otherwise', async () => {
    const id = (await post('', call('evm_snapshot'))).body as Json;
    expect(id.result).toMatch(/^0x[0-9a-f]+$/);
    expect((await post('', call('evm_revert', ['0x1']))).body).toMatchObject({ result: true });
    expect((await post('', call('evm_revert', ['0x99']))).body).toMatchObject({ result: false });
  });

  it('evm_mine mines on the node the request speaks to; a batch reads the chain again after it', async () => {
    const before = Number(two.chain.head().block.header.number);
    const r = await post('/node/2', [call('evm_mine', [], 1), call('eth_blockNumber', [], 2)]);
    const [mined, number] = r.body as Json[];
    expect(mined).toMatchObject({ id: 1, result: '0x0' });
    expect(number).toMatchObject({ id: 2, result: `0x${(before + 1).toString(16)}` });
    expect(calls.at(-1)).toEqual({ method: 'mine', args: [2, { blocks: 1, intervalS: 0 }] });
    // hardhat's evm_mine(timestamp): that time for the block it mines.
    expect((await post('', call('evm_mine', [1_700_000_000]))).body).toMatchObject({ result: '0x0' });
    expect(calls.slice(-2)).toEqual([
      { method: 'setNextBlockTimestamp', args: [undefined, 1_700_000_000] },
      { method: 'mine', args: [undefined, { blocks: 1, intervalS: 0 }] },
    ]);
    const t = await post('', call('evm_mine', [{ count: 2 }]));
    expect(t.body).toMatchObject({ error: { code: -32602 } });
    expect(JSON.stringify(t.body)).toContain('params.count');
  });

  it('anvil_mine, hardhat_mine and evm_mine({blocks}) mine that many blocks, with an interval (viem test client)', async () => {
    const before = Number(one.chain.head().block.header.number);
    expect((await post('', call('anvil_mine', ['0x2', '0x0']))).body).toMatchObject({ result: null });
    expect(calls.at(-1)).toEqual({ method: 'mine', args: [undefined, { blocks: 2, intervalS: 0 }] });
    expect((await post('', call('hardhat_mine', ['0x3', '0xc']))).body).toMatchObject({ result: true });
    expect(calls.at(-1)).toEqual({ method: 'mine', args: [undefined, { blocks: 3, intervalS: 12 }] });
    // ganache mode: evm_mine with {blocks}; anvil with no count mines one.
    expect((await post('', call('evm_mine', [{ blocks: '0x2' }]))).body).toMatchObject({ result: '0x0' });
    expect(calls.at(-1)).toEqual({ method: 'mine', args: [undefined, { blocks: 2, intervalS: 0 }] });
    expect((await post('', call('anvil_mine'))).body).toMatchObject({ result: null });
    expect(Number(one.chain.head().block.header.number)).toBe(before + 8);
    const bad = (await post('', call('anvil_mine', ['0x0']))).body as { error: Json };
    expect(bad.error).toMatchObject({ code: -32602 });
    expect(String(bad.error.message)).toContain('blocks');
  });

  it('evm_setNextBlockTimestamp: the next block’s time (a hex or decimal number of seconds)', async () => {
    expect((await post('', call('evm_setNextBlockTimestamp', ['0x6553f200']))).body).toMatchObject({ result: null });
    expect(calls.at(-1)).toEqual({ method: 'setNextBlockTimestamp', args: [undefined, 0x6553f200] });
    expect((await post('/node/2', call('evm_setNextBlockTimestamp', [1_700_000_500]))).body).toMatchObject({
      result: null,
    });
    expect(calls.at(-1)).toEqual({ method: 'setNextBlockTimestamp', args: [2, 1_700_000_500] });
    const early = (await post('', call('evm_setNextBlockTimestamp', [5]))).body as { error: Json };
    expect(early.error).toMatchObject({ code: -32602 });
    expect(String(early.error.message)).toContain('not after');
  });

  it('anvil_setBalance, hardhat_setBalance and evm_setAccountBalance set a sidechain balance', async () => {
    const who = '0x00000000000000000000000000000000000000aa';
    expect((await post('', call('anvil_setBalance', [who, '0xde0b6b3a7640000']))).body).toMatchObject({
      result: null,
    });
    expect(calls.at(-1)).toEqual({ method: 'setBalance', args: [undefined, who, 10n ** 18n] });
    expect((await post('', call('hardhat_setBalance', [who, '0x1']))).body).toMatchObject({ result: true });
    expect((await post('', call('evm_setAccountBalance', [who, '0x2']))).body).toMatchObject({ result: true });
    expect(calls.at(-1)).toEqual({ method: 'setBalance', args: [undefined, who, 2n] });
    const bad = (await post('', call('anvil_setBalance', ['0x12', '0x1']))).body as { error: Json };
    expect(bad.error).toMatchObject({ code: -32602 });
  });

  it('anvil_snapshot and anvil_revert are evm_snapshot and evm_revert', async () => {
    const id = ((await post('', call('anvil_snapshot'))).body as Json).result;
    expect(id).toMatch(/^0x[0-9a-f]+$/);
    expect((await post('', call('anvil_revert', ['0x1']))).body).toMatchObject({ result: true });
    expect((await post('', call('anvil_revert', ['0x99']))).body).toMatchObject({ result: false });
  });

  it('evm_increaseTime answers the total offset in seconds as a decimal string (as hardhat)', async () => {
    expect((await post('', call('evm_increaseTime', [30]))).body).toMatchObject({ result: '30' });
    expect((await post('', call('evm_increaseTime', ['0xa']))).body).toMatchObject({ result: '40' });
    expect((await post('', call('evm_increaseTime', [-1]))).body).toMatchObject({ error: { code: -32602 } });
  });

  it('lockstep_*: step requests are checked, errors name the field, unknown snapshots are named', async () => {
    expect((await post('', call('lockstep_status'))).body).toMatchObject({ result: { state: 'paused' } });
    expect((await post('', call('lockstep_step', [{ until: '31s' }]))).body).toMatchObject({
      result: { untilMs: 31_000 },
    });
    // --blocks through /node/2 counts node 2's blocks.
    expect((await post('/node/2', call('lockstep_step', [{ blocks: 1 }]))).body).toMatchObject({
      result: { blocks: 1, node: 2 },
    });
    const both = (await post('', call('lockstep_step', [{ events: 1, blocks: 2 }]))).body as { error: Json };
    expect(both.error).toMatchObject({ code: -32602, message: 'step: give exactly one of events, until, blocks' });
    const revert = (await post('', call('lockstep_revert', ['nope']))).body as { error: Json };
    expect(revert.error.message).toContain('no snapshot "nope"');
    const fault = (await post('', call('lockstep_fault', [{ kind: 'nonsense' }]))).body as { error: Json };
    expect(fault.error).toMatchObject({ code: -32602, message: 'fault.kind: unknown fault kind "nonsense"' });
    expect((await post('', call('lockstep_pause', [1]))).body).toMatchObject({ error: { code: -32602 } });
  });

  it('parseStepRequest: one of events, until, blocks; durations need a unit', () => {
    expect(parseStepRequest(undefined)).toEqual({ events: 1 });
    expect(parseStepRequest({ until: '1m30s' })).toEqual({ untilMs: 90_000 });
    expect(parseStepRequest({ blocks: 3, node: 2 })).toEqual({ blocks: 3, node: 2 });
    expect(() => parseStepRequest({ until: '30' })).toThrow(/step\.until/);
    expect(() => parseStepRequest({ events: 0 })).toThrow(/step\.events: expected a positive integer/);
    expect(() => parseStepRequest({ speed: 1 })).toThrow(/step\.speed: unknown field/);
  });
});

describe('the catch-up gate', () => {
  it('reads wait while the node catches up; eth_syncing and eth_chainId answer at once', async () => {
    gate.closed = true;
    const syncing = await post('', call('eth_chainId'));
    expect(syncing.body).toMatchObject({ result: '0x3a99' });
    let answered = false;
    const read = post('', call('eth_blockNumber')).then((r) => {
      answered = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(answered).toBe(false);
    const before = Number(one.chain.head().block.header.number);
    growChain(one.chain, 2);
    gate.open();
    expect((await read).body).toMatchObject({ result: `0x${(before + 2).toString(16)}` });
  });

  it('a gate that does not open in time answers reads with an error, never an old block', async () => {
    gate.closed = true;
    gate.failing = true;
    try {
      const r = await post('', [call('eth_blockNumber', [], 1), call('eth_syncing', [], 2)]);
      const [n, s] = r.body as Json[];
      expect(n).toMatchObject({ id: 1, error: { code: -32000 } });
      expect(JSON.stringify(n)).toContain('catching up');
      expect(s).toMatchObject({ id: 2, result: false });
    } finally {
      gate.failing = false;
      gate.open();
    }
  });
});
