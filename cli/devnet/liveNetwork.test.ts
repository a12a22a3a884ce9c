/**
 * The live devnet without servers: a client's tx goes in through the journal, its CheckTx and
 * delivery answers come out of the simulation, and a restart replays the journal to the same
 * state (same block hashes, same balances).
 */
import { restQueryReply } from '../../src/rpc/rest/queryReply';
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeTx, signTx } from '../../src/modules/auth/stdTx';
import { MsgSendDef } from '../../src/modules/bank/msgs';
import { loadScenario } from '../../sim/scenario/load';
import { initHome, loadHome, loadKey, paths, DEFAULT_PORTS } from './home';
import { LiveDevnet } from './liveDevnet';
import { readJournal } from './journal';

const home = mkdtempSync(join(tmpdir(), 'lockstep-live-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

async function until(cond: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function balanceOf(net: LiveDevnet, address: string): bigint {
  const r = restQueryReply(net.query(`/auth/accounts/${address}`));
  const coins = (r.body as { result: { value: { coins: Array<{ denom: string; amount: string | { i: string } }> } } })
    .result.value.coins;
  const m = coins.find((c) => c.denom === 'matic');
  return m ? BigInt(typeof m.amount === 'string' ? m.amount : m.amount.i) : 0n;
}

function sendTx(
  net: LiveDevnet,
  from: { address: string; private_key: string },
  to: string,
  amount: bigint,
): Uint8Array {
  const seq = (
    restQueryReply(net.query(`/auth/accounts/${from.address}/sequence`)).body as {
      result: { account_number: string; sequence: string };
    }
  ).result;
  const msg = {
    fromAddress: from.address as `0x${string}`,
    toAddress: to as `0x${string}`,
    amount: [{ denom: 'matic', amount }],
  };
  return encodeTx(
    signTx(
      MsgSendDef,
      msg,
      { chainId: net.chainId, accountNumber: BigInt(seq.account_number), sequence: BigInt(seq.sequence), memo: '' },
      from.private_key as `0x${string}`,
    ),
  );
}

describe('live devnet', () => {
  it('answers a client tx from the simulation, and a restart replays the journal to the same state', async () => {
    const { scenario } = loadScenario('devnet');
    initHome({ home, scenario, seed: 7, host: '127.0.0.1', ports: { ...DEFAULT_PORTS }, overwrite: false });
    const config = loadHome(home);
    const alice = loadKey(home, 'user-1');
    const bob = loadKey(home, 'user-2');

    const net = new LiveDevnet(config, { speed: 1000 });
    const running = net.start();
    await until(() => net.status().latestBlockHeight >= 3n, 'the first blocks');
    const bobBefore = balanceOf(net, bob.address);

    const sent = await net.broadcast(sendTx(net, alice, bob.address, 5n * 10n ** 18n), 'block');
    expect(sent.code, sent.raw_log).toBe(0);
    expect(Number(sent.height)).toBeGreaterThan(0);
    expect(sent.txhash).toMatch(/^[0-9A-F]{64}$/);
    expect(balanceOf(net, bob.address)).toBe(bobBefore + 5n * 10n ** 18n);

    // The same bytes again: the signature is over the old sequence, so CheckTx refuses it (code 4).
    const replayed = await net.broadcast(sendTx(net, { ...alice, address: alice.address }, bob.address, 1n), 'sync');
    expect(replayed.code).toBe(0);
    const bad = await net.broadcast(new Uint8Array([1, 2, 3]), 'sync');
    expect(bad.code).toBe(2);
    await until(() => net.status().latestBlockHeight >= BigInt(sent.height) + 3n, 'a few more blocks');
    await net.stop();
    await running;

    const stoppedAt = net.run.ranToMs();
    const node = net.run.main.serviceNodes[0]!;
    const height = node.height;
    const hashes = node.disk.map((b) => b.blockHash);
    const bobAfter = balanceOf(net, bob.address);
    const journal = readJournal(paths(home).journal).entries;
    expect(journal.filter((e) => e.k === 'tx')).toHaveLength(3);
    expect(readFileSync(paths(home).journal, 'utf8').endsWith('\n')).toBe(true);

    // Restart: replay genesis + seed + journal, then stop at once.
    const again = new LiveDevnet(loadHome(home), { speed: 1000 });
    const running2 = again.start();
    await until(() => !again.replaying, 'the replay', 120_000);
    await again.stop();
    await running2;
    expect(again.run.ranToMs()).toBeGreaterThanOrEqual(stoppedAt);
    const node2 = again.run.main.serviceNodes[0]!;
    expect(node2.height).toBeGreaterThanOrEqual(height);
    expect(node2.disk.slice(0, hashes.length).map((b) => b.blockHash)).toEqual(hashes);
    expect(again.network.stats.replayedInputs).toBe(3);
    expect(balanceOf(again, bob.address)).toBeGreaterThanOrEqual(bobAfter);
  }, 180_000);
});
