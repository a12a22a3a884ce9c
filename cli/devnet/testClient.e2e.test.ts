/**
 * viem's test client against a devnet, in each of its three modes (issue 22, item 3): anvil
 * (`anvil_mine`, `anvil_setBalance`), hardhat (`hardhat_mine`, `hardhat_setBalance`) and ganache
 * (`evm_mine({blocks})`, `evm_setAccountBalance`), with `evm_snapshot`, `evm_revert` and
 * `evm_setNextBlockTimestamp` in all three. The devnet is paused, so every block comes from a call.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createTestClient, defineChain, http, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../../sim/scenario/load';
import { initHome } from './home';
import { type RunningDevnet, startDevnet } from './nodeStart';
import { rpc } from './devnetTestKit';

const home = mkdtempSync(join(tmpdir(), 'lockstep-test-client-'));
let d: RunningDevnet;
let url: string;

beforeAll(async () => {
  initHome({
    home,
    scenario: loadScenario('devnet').scenario,
    seed: 5,
    host: '127.0.0.1',
    ports: { rest: 0, status: 0, jsonRpc: 0, ws: 0 },
    overwrite: false,
  });
  d = await startDevnet({ home, speed: 1, out: () => {} });
  await d.caughtUp;
  url = `http://127.0.0.1:${d.ports.jsonRpc}`;
  await rpc(url, 'lockstep_pause');
}, 60_000);

afterAll(async () => {
  await d?.stop();
  rmSync(home, { recursive: true, force: true });
});

describe("viem's test client", () => {
  it.each<['anvil' | 'hardhat' | 'ganache']>([['anvil'], ['hardhat'], ['ganache']])(
    '%s mode: mines (with an interval), sets the next timestamp and a balance, snapshots and reverts',
    async (mode) => {
      const chain = defineChain({
        id: 15001,
        name: 'lockstep sidechain',
        nativeCurrency: { name: 'MATIC', symbol: 'MATIC', decimals: 18 },
        rpcUrls: { default: { http: [url] } },
      });
      const test = createTestClient({ mode, chain, transport: http(url) });
      const pub = createPublicClient({ chain, transport: http(url) });
      const who = `0x${'0a'.repeat(19)}${mode.length.toString(16).padStart(2, '0')}` as const;

      const id = await test.snapshot();
      expect(id).toMatch(/^0x[0-9a-f]+$/);
      const start = await pub.getBlock();

      await test.mine({ blocks: 2 });
      const two = await pub.getBlock();
      expect(two.number).toBe(start.number + 2n);

      const at = two.timestamp + 60n;
      await test.setNextBlockTimestamp({ timestamp: at });
      await test.mine({ blocks: 1 });
      const timed = await pub.getBlock();
      expect(timed.number).toBe(two.number + 1n);
      expect(timed.timestamp).toBe(at);

      if (mode !== 'ganache') {
        // anvil_mine / hardhat_mine with an interval: each block at least that long after its parent.
        await test.mine({ blocks: 2, interval: 15 });
        const a = await pub.getBlock({ blockNumber: timed.number + 1n });
        const b = await pub.getBlock({ blockNumber: timed.number + 2n });
        expect(a.timestamp - timed.timestamp).toBeGreaterThanOrEqual(15n);
        expect(b.timestamp - a.timestamp).toBeGreaterThanOrEqual(15n);
      }

      await test.setBalance({ address: who, value: parseEther('42') });
      expect(await pub.getBalance({ address: who })).toBe(parseEther('42'));

      await test.revert({ id });
      expect((await pub.getBlock()).hash).toBe(start.hash);
      expect(await pub.getBalance({ address: who })).toBe(0n);
    },
    120_000,
  );

  it('evm_setNextBlockTimestamp refuses a time the next block cannot have, naming it', async () => {
    const head = (await rpc(url, 'eth_getBlockByNumber', ['latest', false])) as { timestamp: string };
    await expect(rpc(url, 'evm_setNextBlockTimestamp', [head.timestamp])).rejects.toThrow(/is not after the time/);
    const soon = `0x${(Number(head.timestamp) + 1).toString(16)}`;
    await expect(rpc(url, 'evm_setNextBlockTimestamp', [soon])).rejects.toThrow(/cannot be sealed before \d+/);
  });
});
