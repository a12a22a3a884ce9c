/**
 * Kill and restart lose no acknowledged transaction: `lockstep node start` in a child process,
 * txs acknowledged over REST, SIGKILL (no clean shutdown), `start` again; the chain comes back by
 * replaying genesis + seed + journal and every acknowledged tx is in it, with the same blocks.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { signTx, txJson } from '../../src/modules/auth/stdTx';
import { MsgSendDef } from '../../src/modules/bank/msgs';
import { type Address } from '../../src/core/address';
import { type Hex } from '../../src/core/bytes';
import { loadScenario } from '../../sim/scenario/load';
import { initHome, loadKey, paths } from './home';

const BIN = resolve(__dirname, '../../bin/lockstep.js');
const home = mkdtempSync(join(tmpdir(), 'lockstep-kill-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

function start(): ChildProcess {
  const c = spawn(process.execPath, [BIN, 'node', 'start', '--home', home, '--speed', '20'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  c.stderr!.on('data', () => {});
  children.push(c);
  return c;
}

async function until<T>(probe: () => Promise<T | null>, what: string, timeoutMs = 120_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await probe().catch(() => null);
    if (v !== null && v !== undefined) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function restUrl(): Promise<string> {
  const f = paths(home).ports;
  return until(async () => {
    if (!existsSync(f)) return null;
    const p = JSON.parse(readFileSync(f, 'utf8')) as { host: string; rest: number; status: number };
    const s = (await (await fetch(`http://${p.host}:${p.status}/status`)).json()) as {
      result: { sync_info: { catching_up: boolean } };
    };
    return s.result.sync_info.catching_up ? null : `http://${p.host}:${p.rest}`;
  }, 'the devnet to serve and catch up');
}

async function account(rest: string, address: string): Promise<{ sequence: bigint; matic: bigint }> {
  const r = (await (await fetch(`${rest}/auth/accounts/${address}`)).json()) as {
    result: { value: { sequence: string; coins: Array<{ denom: string; amount: string | { i: string } }> } };
  };
  const v = r.result.value;
  const c = v.coins.find((x) => x.denom === 'matic')!;
  return { sequence: BigInt(v.sequence), matic: BigInt(typeof c.amount === 'string' ? c.amount : c.amount.i) };
}

describe('kill and restart', () => {
  it('loses no acknowledged transaction', async () => {
    const { scenario } = loadScenario('devnet');
    initHome({
      home,
      scenario,
      seed: 5,
      host: '127.0.0.1',
      ports: { rest: 0, status: 0, jsonRpc: 0, ws: 0 },
      overwrite: false,
    });
    const alice = loadKey(home, 'user-1');
    const bob = loadKey(home, 'user-2');
    const chainId = (JSON.parse(readFileSync(paths(home).genesis, 'utf8')) as { chain_id: string }).chain_id;

    const first = start();
    const rest = await restUrl();
    const signing = (
      (await (await fetch(`${rest}/auth/accounts/${alice.address}/sequence`)).json()) as {
        result: { sequence: string; account_number: string };
      }
    ).result;
    const seq0 = BigInt(signing.sequence);
    const accountNumber = BigInt(signing.account_number);
    const bob0 = (await account(rest, bob.address)).matic;
    // Three sends, each acknowledged by the node in sync mode (CheckTx passed, journal synced).
    const acked: string[] = [];
    for (let i = 0n; i < 3n; i++) {
      const signed = signTx(
        MsgSendDef,
        {
          fromAddress: alice.address,
          toAddress: bob.address as Address,
          amount: [{ denom: 'matic', amount: 100n + i }],
        },
        { chainId, accountNumber, sequence: seq0 + i, memo: '' },
        alice.private_key as Hex,
      );
      const r = (await (
        await fetch(`${rest}/txs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ tx: txJson(signed), mode: 'sync' }),
        })
      ).json()) as { code: number; raw_log?: string; txhash: string };
      expect(r.code, r.raw_log).toBe(0);
      acked.push(r.txhash);
    }
    // Kill at once: no clean shutdown, the txs may not even be in a block yet.
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    rmSync(paths(home).ports, { force: true });

    start();
    const rest2 = await restUrl();
    // Every acknowledged tx commits: sequence + 3, bob + 100 + 101 + 102.
    const after = await until(async () => {
      const a = await account(rest2, alice.address);
      return a.sequence >= seq0 + 3n ? a : null;
    }, 'the acknowledged txs to commit after the restart');
    expect(after.sequence).toBe(seq0 + 3n);
    expect((await account(rest2, bob.address)).matic).toBe(bob0 + 303n);
    expect(acked).toHaveLength(3);
  }, 240_000);
});
