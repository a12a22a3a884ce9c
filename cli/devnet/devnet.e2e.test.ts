/**
 * The devnet end to end, as a user meets it: a devnet started on free ports, the `lockstep` binary
 * as the client (a child process), curl-like fetches, a real ethers provider and the console.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { JsonRpcProvider, Network } from 'ethers';
import { loadScenario } from '../../sim/scenario/load';
import { initHome, loadKey } from './home';
import { startDevnet, type RunningDevnet } from './nodeStart';

const run = promisify(execFile);
const BIN = resolve(__dirname, '../../bin/lockstep.js');
const home = mkdtempSync(join(tmpdir(), 'lockstep-devnet-e2e-'));
let d: RunningDevnet;
let rest: string;

async function lockstep(args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const r = await run(process.execPath, [BIN, ...args, '--home', home], {
      timeout: 90_000,
      env: { ...process.env, LOCKSTEP_HOME: home },
    });
    return { code: 0, out: r.stdout, err: r.stderr };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof x.code === 'number' ? x.code : -1, out: x.stdout ?? '', err: x.stderr ?? '' };
  }
}

/** A REST answer; a 200 body is `{height, result}` (an error body has neither, which the callers check first). */
async function get<R = unknown>(path: string): Promise<{ status: number; body: { height: unknown; result: R } }> {
  const r = await fetch(rest + path);
  return { status: r.status, body: (await r.json()) as { height: unknown; result: R } };
}

interface StatusJson {
  result: { sync_info: { latest_block_height: string; catching_up: boolean } };
}
interface NetInfoJson {
  result: { n_peers: string; peers: Array<{ node_info: { moniker: string } }> };
}

async function until<T>(probe: () => Promise<T | null> | T | null, what: string, timeoutMs = 120_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await probe();
    if (v !== null && v !== undefined) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  const { scenario } = loadScenario('devnet');
  initHome({
    home,
    scenario,
    seed: 3,
    host: '127.0.0.1',
    ports: { rest: 0, status: 0, jsonRpc: 0, ws: 0 },
    overwrite: false,
  });
  d = await startDevnet({ home, speed: 25, out: () => {} });
  rest = `http://127.0.0.1:${d.ports.rest}`;
}, 60_000);

afterAll(async () => {
  await d?.stop();
  rmSync(home, { recursive: true, force: true });
});

describe('devnet', () => {
  it('every GET endpoint of the spec answers 200 with the spec fields', async () => {
    // The buffer is filled only between a checkpoint's proposal and its ack: catch it then.
    const buffer = await until(async () => {
      const r = await get('/checkpoints/buffer');
      return r.status === 200 ? r.body : null;
    }, 'a checkpoint in the buffer');
    expect(buffer.result).toMatchObject({
      proposer: expect.any(String),
      startBlock: expect.any(Number),
      endBlock: expect.any(Number),
      rootHash: expect.any(String),
      accountRootHash: expect.any(String),
    });
    await until(
      async () => ((await get<{ result: number }>('/checkpoints/count')).body.result.result >= 1 ? true : null),
      'an acked checkpoint',
    );

    const validator = loadKey(home, 'validator-1').address;
    const user = loadKey(home, 'user-1').address;
    const shapes: Record<string, (result: unknown) => void> = {
      '/sidechain/span/1': (r) =>
        expect(r).toMatchObject({
          span_id: expect.anything(),
          start_block: expect.anything(),
          end_block: expect.anything(),
          validator_set: expect.any(Object),
          selected_producers: expect.any(Array),
        }),
      '/sidechain/latest-span': (r) =>
        expect(r).toMatchObject({ span_id: expect.anything(), selected_producers: expect.any(Array) }),
      '/sidechain/params': (r) =>
        expect(r).toMatchObject({
          sprint_duration: expect.anything(),
          span_duration: expect.anything(),
          producer_count: expect.anything(),
        }),
      [`/auth/accounts/${user}`]: (r) => expect(JSON.stringify(r)).toContain(user),
      [`/auth/accounts/${user}/sequence`]: (r) =>
        expect(r).toMatchObject({ address: user, sequence: expect.any(String) }),
      '/auth/params': (r) =>
        expect(r).toMatchObject({
          max_memo_characters: expect.anything(),
          tx_sig_limit: expect.anything(),
          sig_verify_cost_secp256k1: expect.anything(),
        }),
      '/staking/validator-set': (r) => expect((r as { validators: unknown[] }).validators.length).toBe(4),
      '/staking/validator/1': (r) => expect(r).toMatchObject({ signer: validator }),
      '/checkpoints/1': (r) => expect(r).toMatchObject({ id: 1, rootHash: expect.any(String) }),
      '/checkpoints/count': (r) => expect((r as { result: number }).result).toBeGreaterThanOrEqual(1),
      '/checkpoints/last-no-ack': (r) => expect(r).toHaveProperty('result'),
      '/checkpoints/latest': (r) => expect(r).toMatchObject({ id: expect.any(Number), rootHash: expect.any(String) }),
      '/checkpoints/list?page=1&limit=10': (r) => expect((r as unknown[]).length).toBeGreaterThanOrEqual(1),
      '/checkpoints/parama': (r) => expect(r).toHaveProperty('checkpoint_buffer_time'),
      '/checkpoints/prepare?start=0&end=15': (r) =>
        expect(r).toMatchObject({ rootHash: expect.any(String), startBlock: 0, endBlock: 15 }),
      '/sidechain/span/list?page=1&limit=10': (r) => expect((r as unknown[]).length).toBeGreaterThanOrEqual(2),
      '/clerk/event-record/1': (r) =>
        expect(r).toMatchObject({
          id: 1,
          contract: expect.any(String),
          data: expect.any(String),
          tx_hash: expect.any(String),
          record_time: expect.any(String),
        }),
      '/clerk/event-record/list?page=1&limit=10': (r) => expect((r as unknown[]).length).toBe(2),
      '/overview': (r) =>
        expect(r).toMatchObject({
          ack_count: expect.any(Number),
          validator_count: 4,
          validator_set: expect.any(Object),
        }),
    };
    for (const [path, check] of Object.entries(shapes)) {
      const r = await get(path);
      expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(typeof r.body.height, path).toBe('string');
      check(r.body.result);
    }
  }, 180_000);

  it('`lockstep tx bank send` moves coins and `query auth account` shows the balance and sequence + 1', async () => {
    const alice = loadKey(home, 'user-1').address;
    const bob = loadKey(home, 'user-2').address;
    const before = await lockstep(['query', 'auth', 'account', alice, '--node', rest, '--json']);
    expect(before.code, before.err).toBe(0);
    const a0 = JSON.parse(before.out);
    const bob0 = JSON.parse((await lockstep(['query', 'auth', 'account', bob, '--node', rest, '--json'])).out);
    const sent = await lockstep(['tx', 'bank', 'send', bob, '1000matic', '--from', 'user-1', '--node', rest]);
    expect(sent.code, sent.err).toBe(0);
    expect(sent.out).toMatch(/txhash: [0-9A-F]{64}/);
    const a1 = JSON.parse((await lockstep(['query', 'auth', 'account', alice, '--node', rest, '--json'])).out);
    const bob1 = JSON.parse((await lockstep(['query', 'auth', 'account', bob, '--node', rest, '--json'])).out);
    expect(BigInt(a1.sequence)).toBe(BigInt(a0.sequence) + 1n);
    const matic = (acc: { coins: Array<{ denom: string; amount: { i: string } }> }) =>
      BigInt(acc.coins.find((c) => c.denom === 'matic')!.amount.i);
    expect(matic(bob1)).toBe(matic(bob0) + 1000n);
    expect(matic(a1)).toBeLessThan(matic(a0) - 1000n); // the amount and the fee
  }, 120_000);

  it('a top-up relayed by the bridge, replayed by hand, answers Older invalid tx found', async () => {
    // A MsgTopup delivered, whose side tx then passed (the mint).
    const mintedTopup = (): { txHash: string; logIndex: string } | null => {
      const delivered = new Map<string, { txHash: string; logIndex: string }>();
      for (const r of d.net.run.main.records) {
        if (r.obs.kind !== 'service.commit') continue;
        for (const t of r.obs.txs)
          if (t.code === 0 && t.msg?.type === 'topup/MsgTopup')
            delivered.set(t.hash, { txHash: t.msg.txHash, logIndex: t.msg.logIndex.toString() });
        for (const x of r.obs.sideTxs) if (x.code === 0 && delivered.has(x.txHash)) return delivered.get(x.txHash)!;
      }
      return null;
    };
    const minted = await until(mintedTopup, 'the top-up to be minted');
    const r = await lockstep([
      'tx',
      'topup',
      'fee',
      '--tx-hash',
      minted.txHash,
      '--log-index',
      minted.logIndex,
      '--validator-id',
      '2',
      '--from',
      'validator-1',
      '--node',
      rest,
    ]);
    expect(r.code).toBe(1);
    expect(r.err + r.out).toContain('Older invalid tx found');
  }, 120_000);

  it('ethers reads blocks from the sidechain JSON-RPC', async () => {
    const provider = new JsonRpcProvider(`http://127.0.0.1:${d.ports.jsonRpc}`, undefined, { polling: false });
    try {
      const network = await provider.getNetwork();
      expect(network.chainId).toBe(15001n);
      expect(network).toBeInstanceOf(Network);
      const n = await provider.getBlockNumber();
      expect(n).toBeGreaterThan(0);
      const latest = await provider.getBlock('latest');
      expect(latest!.number).toBeGreaterThanOrEqual(n);
      const one = await provider.getBlock(1);
      expect(one!.number).toBe(1);
      expect(one!.hash).toMatch(/^0x[0-9a-f]{64}$/);
      const two = await provider.getBlock(2);
      expect(two!.parentHash).toBe(one!.hash);
    } finally {
      provider.destroy();
    }
  }, 60_000);

  it('/status height rises and /net_info lists the peers', async () => {
    const status = `http://127.0.0.1:${d.ports.status}`;
    const h = async () =>
      Number(((await (await fetch(`${status}/status`)).json()) as StatusJson).result.sync_info.latest_block_height);
    const first = await h();
    await until(async () => ((await h()) > first ? true : null), 'the height to rise');
    const s = (await (await fetch(`${status}/status`)).json()) as StatusJson;
    expect(s.result.sync_info.catching_up).toBe(false);
    const net = (await (await fetch(`${status}/net_info`)).json()) as NetInfoJson;
    expect(net.result.n_peers).toBe('3');
    expect(net.result.peers.map((p) => p.node_info.moniker)).toEqual(['validator-2', 'validator-3', 'validator-4']);
  }, 60_000);

  it('the console answers eth.blockNumber and admin.peers.length', async () => {
    const n = await lockstep(['console', '--exec', 'eth.blockNumber']);
    expect(n.code, n.err).toBe(0);
    expect(Number(n.out.trim())).toBeGreaterThan(0);
    const peers = await lockstep(['console', '--exec', 'admin.peers.length']);
    expect(peers.out.trim()).toBe('3');
  }, 60_000);

  it("debug.setHead rewinds the node's chain and the network brings it back", async () => {
    const head = Number((await lockstep(['console', '--exec', 'eth.blockNumber'])).out.trim());
    const target = head - 10;
    const r = await lockstep(['console', '--exec', `debug.setHead('0x${target.toString(16)}')`]);
    expect(r.code, r.err).toBe(0);
    // The rewind happened in the simulation (it may have resynced already: the run goes on at 25x).
    const rec = d.net.run.sidechain.records.find((x) => x.obs.kind === 'sidechain.setHead' && x.node === 'sc-1');
    expect(rec?.obs).toMatchObject({ number: BigInt(target), removed: expect.any(Number), error: null });
    expect((rec!.obs as { removed: number }).removed).toBeGreaterThanOrEqual(10);
    await until(
      () => (Number(d.net.view().chain.head().block.header.number) > head ? true : null),
      'the node to resync past its old head',
    );
  }, 60_000);
});
