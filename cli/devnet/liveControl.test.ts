/**
 * Steering a live devnet without servers (the admin namespace's control port): pause and step,
 * snapshots and reverts (a transfer gone, balance and sequence back; the dropped journal tail kept),
 * evm_mine and evm_increaseTime, an injected fault; and a restart replays all of it to the same
 * state, holding reads until the replay passes the state already served.
 */
import { restQueryReply } from '../../src/rpc/rest/queryReply';
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeTx, signTx, txHash } from '../../src/modules/auth/stdTx';
import { MsgSendDef } from '../../src/modules/bank/msgs';
import { fastScheme } from '../../src/core/signatureScheme';
import { loadScenario } from '../../sim/scenario/load';
import { initHome, loadHome, loadKey, paths } from './home';
import { LiveDevnet } from './liveDevnet';
import { readJournal } from './journal';
import { Wallet, keccak256 } from 'ethers';

const root = mkdtempSync(join(tmpdir(), 'lockstep-control-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const scenario = { ...loadScenario('devnet').scenario, crypto: 'fast' as const };
const ports = { rest: 0, status: 0, jsonRpc: 0, ws: 0 };

function newHome(name: string, seed: number): string {
  const home = join(root, name);
  initHome({ home, scenario, seed, host: '127.0.0.1', ports, overwrite: false });
  return home;
}

function account(net: LiveDevnet, address: string): { sequence: bigint; matic: bigint } {
  const r = restQueryReply(net.query(`/auth/accounts/${address}`)).body as {
    result: { value: { sequence: string; coins: Array<{ denom: string; amount: { i: string } | string }> } };
  };
  const c = r.result.value.coins.find((x) => x.denom === 'matic');
  const amount = c ? (typeof c.amount === 'string' ? c.amount : c.amount.i) : '0';
  return { sequence: BigInt(r.result.value.sequence), matic: BigInt(amount) };
}

function transfer(net: LiveDevnet, home: string, amount: bigint): Uint8Array {
  const alice = loadKey(home, 'user-1');
  const bob = loadKey(home, 'user-2');
  const s = (
    restQueryReply(net.query(`/auth/accounts/${alice.address}/sequence`)).body as {
      result: { account_number: string; sequence: string };
    }
  ).result;
  return encodeTx(
    signTx(
      MsgSendDef,
      { fromAddress: alice.address, toAddress: bob.address, amount: [{ denom: 'matic', amount }] },
      { chainId: net.chainId, accountNumber: BigInt(s.account_number), sequence: BigInt(s.sequence), memo: '' },
      alice.private_key,
      fastScheme,
    ),
  );
}

async function until(cond: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('snapshots and reverts', () => {
  it('a transfer after a snapshot is gone after a revert (balance and sequence back); a restart keeps it gone', async () => {
    const home = newHome('revert', 21);
    const bob = loadKey(home, 'user-2').address;
    const alice = loadKey(home, 'user-1').address;
    const net = new LiveDevnet(loadHome(home), { speed: 200 });
    const running = net.start();
    await until(() => net.status().latestBlockHeight >= 3n, 'the first blocks');
    await net.control.pause();
    const snap = await net.control.snapshot('before');
    const bob0 = account(net, bob);
    const alice0 = account(net, alice);

    const tx = transfer(net, home, 1234n);
    const hash = txHash(tx);
    // Paused: the tx is journaled now, and CheckTx runs when the network runs (the step).
    const answer = net.broadcast(tx, 'sync');
    await net.control.step({ untilMs: net.run.ranToMs() + 15_000 });
    const sent = await answer;
    expect(sent.code, sent.raw_log).toBe(0);
    expect(account(net, bob).matic).toBe(bob0.matic + 1234n);
    expect(account(net, alice).sequence).toBe(alice0.sequence + 1n);
    expect(net.lookupTx(hash).status).toBe('committed');

    const r = (await net.control.revert('before', false)) as { timeMs: number; backup: string; droppedEntries: number };
    expect(r.timeMs).toBe(snap.timeMs);
    expect(net.run.ranToMs()).toBe(snap.timeMs);
    expect(account(net, bob)).toEqual(bob0);
    expect(account(net, alice)).toEqual(alice0);
    expect(net.lookupTx(hash)).toEqual({
      status: 'unknown',
      message: expect.stringContaining('never journaled (or a revert dropped it), so it was not applied'),
    });
    expect(net.isPaused).toBe(true);
    // The tail (the tx, the step) is kept in the backup; the journal no longer has it.
    expect(readFileSync(r.backup, 'utf8')).toContain(Buffer.from(tx).toString('hex'));
    expect(readJournal(paths(home).journal).entries.some((e) => e.k === 'tx')).toBe(false);
    // `node revert` keeps the snapshot: revert to it again.
    expect(await net.control.revert('before', false)).not.toBeNull();
    // evm_revert consumes its snapshot (and the later ones).
    const id = (await net.control.snapshot(undefined)).id;
    expect(await net.control.revert(id, true)).not.toBeNull();
    expect(await net.control.revert(id, true)).toBeNull();
    await net.stop();
    await running;

    const again = new LiveDevnet(loadHome(home), { speed: 200 });
    const running2 = again.start();
    await until(() => !again.replaying, 'the replay');
    expect(again.isPaused).toBe(true);
    expect(again.run.ranToMs()).toBe(snap.timeMs);
    expect(account(again, bob)).toEqual(bob0);
    expect((again.adminStatus().snapshots as Array<{ name: string }>).map((s) => s.name)).toEqual(['before']);
    await again.stop();
    await running2;
  }, 120_000);
});

describe('evm_mine, evm_increaseTime, faults, and a restart', () => {
  it('move the chain as documented, and a restart replays them to the same state', async () => {
    const home = newHome('moves', 22);
    const net = new LiveDevnet(loadHome(home), { speed: 200 });
    const running = net.start();
    await until(() => net.sidechainNode(2).chain.head().block.header.number >= 2n, 'the first blocks');
    await net.control.pause();

    // evm_mine: run until sc-2 has a new head, and no further.
    const head0 = net.sidechainNode(2).chain.head().block;
    const t0 = net.run.ranToMs();
    await net.control.mine(2);
    const head1 = net.sidechainNode(2).chain.head().block;
    expect(head1.hash).not.toBe(head0.hash);
    expect(head1.header.number).toBe(head0.header.number + 1n);
    expect(net.run.ranToMs()).toBeGreaterThan(t0);
    expect(net.isPaused).toBe(true);

    // evm_increaseTime: run that much virtual time (at least); the answer is the total offset.
    const t1 = net.run.ranToMs();
    expect(await net.control.increaseTime(30)).toBe(30);
    expect(net.run.ranToMs()).toBeGreaterThanOrEqual(t1 + 30_000);
    const head2 = net.sidechainNode(2).chain.head().block;
    expect(head2.header.time - head1.header.time).toBeGreaterThanOrEqual(24n);
    expect(await net.control.increaseTime(10)).toBe(40);

    // A fault: crash sc-3 for 10 s, from the next barrier.
    const f = (await net.control.fault({ kind: 'crash', node: 'sc-3', for: '10s' })) as {
      index: number;
      atMs: number;
      endsAtMs: number;
    };
    expect(f.index).toBe(scenario.faults.length);
    expect(f.atMs).toBeGreaterThan(net.run.ranToMs());
    expect(f.endsAtMs).toBe(f.atMs + 10_000);
    await net.control.step({ untilMs: f.atMs + 5_000 });
    expect(net.sidechainNode(3).isAlive).toBe(false);
    expect(net.adminStatus().faultsInForce).toEqual([{ index: f.index, kind: 'crash', detail: 'sc-3' }]);
    await net.control.step({ untilMs: f.atMs + 20_000 });
    expect(net.sidechainNode(3).isAlive).toBe(true);
    expect(net.adminStatus().faultsInForce).toEqual([]);
    await expect(net.control.fault({ kind: 'crash', node: 'sc-9' })).rejects.toThrow(
      /fault\.node: unknown node "sc-9"/,
    );
    await expect(net.control.fault({ kind: 'crash', node: 'sc-1', at: '1s' })).rejects.toThrow(/fault\.at/);

    // Served: the state clients read is remembered.
    net.view();
    const at = {
      ms: net.run.ranToMs(),
      barrier: net.run.barriers(),
      head: net.sidechainNode(1).chain.head().block.hash,
    };
    await net.stop();
    await running;
    const served = JSON.parse(readFileSync(paths(home).served, 'utf8')) as { b: number };
    expect(served.b).toBe(at.barrier);

    // Restart: reads wait (the gate is closed) until the replay passes what was served; then the
    // same state, paused, with the same fault and offset.
    const again = new LiveDevnet(loadHome(home), { speed: 200 });
    expect(again.gate.catchingUp()).toBe(true);
    expect(again.status().catchingUp).toBe(true);
    const syncing = again.view().syncing;
    expect(syncing).not.toBeNull();
    expect(syncing!.highestBlock).toBeGreaterThanOrEqual(net.sidechainNode(1).chain.head().block.header.number);
    const running2 = again.start();
    await again.gate.caughtUp();
    expect(again.run.barriers()).toBeGreaterThanOrEqual(at.barrier);
    await until(() => !again.replaying, 'the replay');
    expect(again.run.ranToMs()).toBe(at.ms);
    expect(again.sidechainNode(1).chain.head().block.hash).toBe(at.head);
    expect(again.isPaused).toBe(true);
    const s = again.adminStatus();
    expect(s.timeOffsetS).toBe(40);
    expect(s.injectedFaults).toEqual([
      { index: f.index, kind: 'crash', description: 'crash (node sc-3) for 10s', atMs: f.atMs, endsAtMs: f.endsAtMs },
    ]);
    expect(again.run.main.faultsFired.concat(again.run.sidechain.faultsFired).map((x) => x.atMs)).toContain(f.atMs);
    await again.stop();
    await running2;
    expect(existsSync(paths(home).journal)).toBe(true);
  }, 120_000);
});

describe('sidechain transactions, balances and block times as journaled inputs', () => {
  it('a wallet’s transfer, anvil_setBalance and evm_setNextBlockTimestamp go through the journal; a restart replays them to the same chain', async () => {
    const home = newHome('sidechain-inputs', 23);
    const net = new LiveDevnet(loadHome(home), { speed: 200 });
    const running = net.start();
    await until(
      () => !net.replaying && net.sidechainNode(1).chain.head().block.header.number >= 2n,
      'the first blocks',
    );
    await net.control.pause();
    const user = loadKey(home, 'user-1');
    const to = loadKey(home, 'user-2').address;
    // A wallet's real signature: a fast-crypto devnet still takes it.
    const head = net.sidechainNode(1).chain.head().block.header;
    const raw = await new Wallet(user.private_key).signTransaction({
      type: 2,
      chainId: 15001n,
      nonce: 0,
      to,
      value: 77n,
      gasLimit: 21_000n,
      maxFeePerGas: 2n * head.baseFee! + 10n ** 9n,
      maxPriorityFeePerGas: 10n ** 9n,
    });
    const sc = net.node(1)!.sidechain;
    const sent = await sc.view().submit!(raw as `0x${string}`);
    expect(sent).toEqual({ ok: true, hash: keccak256(raw) });
    // Paused: journaled, not in the node yet; a wallet still sees it pending.
    expect(sc.view().pool!.pendingNonce(user.address)).toBe(1n);
    expect(await sc.view().submit!(raw as `0x${string}`)).toEqual({ ok: false, error: 'already known' });
    await net.control.mine(1, { blocks: 2, intervalS: 0 });
    expect(sc.view().chain.receipt(keccak256(raw) as `0x${string}`)).toMatchObject({ status: 1 });
    expect(await sc.view().submit!(raw as `0x${string}`)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/nonce too low/),
    });

    await net.control.setBalance(1, to, 5n);
    expect(net.sidechainNode(1).chain.head().accounts.get(to)?.balance).toBe(5n);
    const t = net.sidechainNode(1).chain.head().block.header.time + 40n;
    await net.control.setNextBlockTimestamp(1, Number(t));
    await net.control.mine(1);
    expect(net.sidechainNode(1).chain.head().block.header.time).toBe(t);
    const at = { ms: net.run.ranToMs(), head: net.sidechainNode(1).chain.head().block.hash };
    const kinds = readJournal(paths(home).journal).entries.map((e) => e.k);
    expect(kinds).toEqual(expect.arrayContaining(['scTx', 'scBalance', 'scTime']));
    await net.stop();
    await running;

    const again = new LiveDevnet(loadHome(home), { speed: 200 });
    const running2 = again.start();
    await until(() => !again.replaying, 'the replay');
    expect(again.run.ranToMs()).toBe(at.ms);
    expect(again.sidechainNode(1).chain.head().block.hash).toBe(at.head);
    expect(again.sidechainNode(1).chain.head().accounts.get(to)?.balance).toBe(5n);
    await again.stop();
    await running2;
  }, 120_000);
});
