/**
 * Honest catch-up (issue 16, item 3), with `lockstep node start` in a child process killed with
 * SIGKILL and started again on the same ports while a client polls `eth_blockNumber`,
 * `eth_syncing` and `/status` throughout:
 *
 * - no client reads a lower block number than one it read before, unless that answer carries the
 *   syncing signal (`catching_up: true`); `eth_blockNumber` waits while the journal replays;
 * - a transfer the node journaled before the kill, whose answer the CLI never got, is reported as
 *   an unknown outcome with its hash and a look-up command (never "send it again"), and that
 *   command finds it committed after the restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScenario } from '../../sim/scenario/load';
import { initHome, paths } from './home';
import { BIN, freePort, lockstep, rpc, until } from './devnetTestKit';

const home = mkdtempSync(join(tmpdir(), 'lockstep-honest-'));
const children: ChildProcess[] = [];
let rpcUrl: string;
let statusUrl: string;

interface Seen {
  blockNumbers: number[];
  syncing: boolean[];
  status: Array<{ height: number; catchingUp: boolean }>;
}
const seen: Seen = { blockNumbers: [], syncing: [], status: [] };
let polling = true;
let poller: Promise<void>;

function start(): ChildProcess {
  const c = spawn(process.execPath, [BIN, 'node', 'start', '--home', home, '--speed', '40'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  c.stderr!.on('data', () => {});
  children.push(c);
  return c;
}

const running = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;

async function kill(c: ChildProcess): Promise<void> {
  if (!running(c)) return;
  const exited = new Promise((r) => c.once('exit', r));
  c.kill('SIGKILL');
  await exited;
}

/** The devnet answers and has caught up. */
async function caughtUp(): Promise<void> {
  await until(async () => {
    try {
      const s = (await (await fetch(`${statusUrl}/status`)).json()) as {
        result: { sync_info: { catching_up: boolean } };
      };
      return s.result.sync_info.catching_up ? null : true;
    } catch {
      return null;
    }
  }, 'the devnet to serve and catch up');
}

/** One client, polling all the time; what it could not reach (the devnet down) it skips. */
async function poll(): Promise<void> {
  while (polling) {
    await Promise.all([
      rpc(rpcUrl, 'eth_blockNumber')
        .then((n) => void seen.blockNumbers.push(Number(n)))
        .catch(() => {}),
      rpc(rpcUrl, 'eth_syncing')
        .then((s) => void seen.syncing.push(s !== false))
        .catch(() => {}),
      fetch(`${statusUrl}/status`)
        .then((r) => r.json())
        .then((b) => {
          const i = (b as { result: { sync_info: { latest_block_height: string; catching_up: boolean } } }).result
            .sync_info;
          seen.status.push({ height: Number(i.latest_block_height), catchingUp: i.catching_up });
        })
        .catch(() => {}),
    ]);
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  const { scenario } = loadScenario('devnet');
  const ports = { rest: await freePort(), status: await freePort(), jsonRpc: await freePort(), ws: await freePort() };
  initHome({ home, scenario: { ...scenario, crypto: 'fast' }, seed: 13, host: '127.0.0.1', ports, overwrite: false });
  rpcUrl = `http://127.0.0.1:${ports.jsonRpc}`;
  statusUrl = `http://127.0.0.1:${ports.status}`;
}, 30_000);

afterAll(async () => {
  polling = false;
  await poller;
  for (const c of children) await kill(c);
  rmSync(home, { recursive: true, force: true });
});

describe('a restart under polling', () => {
  it('a kill while running: no lower block number without a syncing signal; eth_syncing says it catches up', async () => {
    const first = start();
    await caughtUp();
    poller = poll();
    // Some history (a few minutes of virtual time), all of it read by the poller as it grows.
    await until(() => (seen.blockNumbers.at(-1) ?? 0) >= 60 || null, 'sixty sidechain blocks');
    const before = Math.max(...seen.blockNumbers);
    await kill(first);
    start();
    await caughtUp();
    await until(() => (seen.blockNumbers.at(-1) ?? 0) > before + 2 || null, 'blocks after the restart');
    assertHonest();
    // The replay was seen: the syncing signal on at least one of the two ports.
    expect(seen.syncing.some((x) => x) || seen.status.some((x) => x.catchingUp)).toBe(true);
  }, 180_000);

  it('a kill during a transfer: the CLI reports an unknown outcome, never a resend, and the look-up finds it', async () => {
    await rpc(rpcUrl, 'lockstep_pause');
    // Paused: the tx is journaled at once and cannot commit before the kill.
    const send = lockstep(['tx', 'bank', 'send', 'user-2', '1000matic', '--home', home]);
    const journal = paths(home).journal;
    await until(
      () => (existsSync(journal) && readFileSync(journal, 'utf8').includes('"k":"tx"') ? true : null),
      'the tx in the journal',
    );
    await kill(children.at(-1)!);
    const r = await send;
    expect(r.code).toBe(1);
    const hash = /transaction ([0-9A-F]{64}) was sent, but its outcome is unknown/.exec(r.err)?.[1];
    expect(hash, r.err).toBeDefined();
    expect(r.err).toContain('Do not send it again');
    expect(r.err).not.toMatch(/cannot reach/);
    const check = /^ {2}(lockstep query tx .*)$/m.exec(r.err)![1]!;
    expect(check).toBe(`lockstep query tx ${hash} --wait --home ${home}`);

    start();
    await caughtUp();
    // It comes back paused where it was; the tx is in the journal, so it commits once it runs.
    await rpc(rpcUrl, 'lockstep_resume');
    const q = await lockstep(check.split(' ').slice(1));
    expect(q.code, q.err).toBe(0);
    expect(q.out).toContain(`txhash: ${hash}`);
    expect(q.out).toMatch(/\nheight: [1-9]\d*\n/);
    expect(q.out).toMatch(/\ncode: 0\n/);
    const journaled = readFileSync(journal, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"k":"tx"'));
    expect(journaled).toHaveLength(1);
    assertHonest();
  }, 180_000);
});

/** Every block number read is at least the highest read before it, unless it came with the syncing signal. */
function assertHonest(): void {
  let high = 0;
  seen.blockNumbers.forEach((n, i) => {
    expect(n, `eth_blockNumber #${i} went back from ${high} to ${n}`).toBeGreaterThanOrEqual(high);
    high = Math.max(high, n);
  });
  let statusHigh = 0;
  seen.status.forEach((s, i) => {
    if (!s.catchingUp) {
      expect(
        s.height,
        `/status #${i} went back from ${statusHigh} to ${s.height} without catching_up`,
      ).toBeGreaterThanOrEqual(statusHigh);
      statusHigh = Math.max(statusHigh, s.height);
    }
  });
}
