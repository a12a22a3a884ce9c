/**
 * Rewind and steer a devnet with the tools a developer has (issue 16, item 2): ethers' `send` for
 * evm_snapshot / evm_revert / evm_mine / evm_increaseTime and `lockstep tx` for a transfer. A
 * transfer made after a snapshot is gone after the revert (balance and sequence back); evm_mine
 * gives the node a new head; evm_increaseTime runs that much virtual time and answers the total.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonRpcProvider } from 'ethers';
import { loadScenario } from '../../sim/scenario/load';
import { initHome, loadKey } from './home';
import { type RunningDevnet, startDevnet } from './nodeStart';
import { lockstep, until } from './devnetTestKit';

const home = mkdtempSync(join(tmpdir(), 'lockstep-evm-'));
let d: RunningDevnet;
let rest: string;
let node1: JsonRpcProvider;
let node2: JsonRpcProvider;

beforeAll(async () => {
  const { scenario } = loadScenario('devnet');
  initHome({
    home,
    scenario: { ...scenario, crypto: 'fast' },
    seed: 17,
    host: '127.0.0.1',
    ports: { rest: 0, status: 0, jsonRpc: 0, ws: 0 },
    overwrite: false,
  });
  d = await startDevnet({ home, speed: 20, out: () => {} });
  await d.caughtUp;
  rest = `http://127.0.0.1:${d.ports.rest}`;
  const rpc = `http://127.0.0.1:${d.ports.jsonRpc}`;
  node1 = new JsonRpcProvider(rpc, undefined, { staticNetwork: true, polling: false });
  node2 = new JsonRpcProvider(`${rpc}/node/2`, undefined, { staticNetwork: true, polling: false });
  await until(async () => ((await node1.getBlockNumber()) >= 3 ? true : null), 'the first blocks');
}, 60_000);

afterAll(async () => {
  node1?.destroy();
  node2?.destroy();
  await d?.stop();
  rmSync(home, { recursive: true, force: true });
});

async function account(address: string): Promise<{ sequence: string; matic: string }> {
  const r = (await (await fetch(`${rest}/auth/accounts/${address}`)).json()) as {
    result: { value: { sequence: string; coins: Array<{ denom: string; amount: { i: string } | string }> } };
  };
  const c = r.result.value.coins.find((x) => x.denom === 'matic')!;
  return { sequence: r.result.value.sequence, matic: typeof c.amount === 'string' ? c.amount : c.amount.i };
}

describe('evm methods on a running devnet', () => {
  it('evm_snapshot, a transfer with lockstep tx, evm_revert: the transfer is gone', async () => {
    const alice = loadKey(home, 'user-1').address;
    const bob = loadKey(home, 'user-2').address;
    const id = (await node1.send('evm_snapshot', [])) as string;
    expect(id).toMatch(/^0x[0-9a-f]+$/);
    const [alice0, bob0] = [await account(alice), await account(bob)];

    const tx = await lockstep(['tx', 'bank', 'send', 'user-2', '1000matic', '--home', home, '--wait']);
    expect(tx.code, tx.err).toBe(0);
    expect(tx.out).toMatch(/\ncode: 0\n/);
    expect((await account(bob)).matic).toBe((BigInt(bob0.matic) + 1000n).toString());
    expect((await account(alice)).sequence).toBe(String(Number(alice0.sequence) + 1));

    expect(await node1.send('evm_revert', [id])).toBe(true);
    expect(await account(bob)).toEqual(bob0);
    expect(await account(alice)).toEqual(alice0);
    // The snapshot was used up, as in ganache, anvil and hardhat.
    expect(await node1.send('evm_revert', [id])).toBe(false);
  }, 90_000);

  it('evm_mine gives the node a new head; evm_increaseTime runs that much time and answers the total', async () => {
    // Raw calls: ethers' getBlock would answer a repeated request from its short cache.
    type Head = { number: string; hash: string; parentHash: string; timestamp: string };
    const latest = async (p: JsonRpcProvider) => (await p.send('eth_getBlockByNumber', ['latest', false])) as Head;
    await node1.send('lockstep_pause', []);
    const before = await latest(node2);
    expect(await node2.send('evm_mine', [])).toBe('0x0');
    const after = await latest(node2);
    expect(Number(after.number)).toBe(Number(before.number) + 1);
    expect(after.parentHash).toBe(before.hash);
    // Paused, and it stays paused: nothing moves by itself.
    await new Promise((r) => setTimeout(r, 300));
    expect((await latest(node2)).hash).toBe(after.hash);

    const t0 = (d.net.adminStatus() as { timeMs: number }).timeMs;
    expect(await node1.send('evm_increaseTime', [60])).toBe('60');
    expect(await node1.send('evm_increaseTime', ['0x1e'])).toBe('90');
    expect((d.net.adminStatus() as { timeMs: number }).timeMs).toBeGreaterThanOrEqual(t0 + 90_000);
    const later = await latest(node1);
    expect(Number(later.timestamp) - Number(after.timestamp)).toBeGreaterThanOrEqual(80);
    await node1.send('lockstep_resume', []);
  }, 60_000);
});
