/**
 * Open a failing run live (issue 16, item 1): the planted-bug regression run by `lockstep run`
 * gives a report; `lockstep node init --from-report DIR --before-violation` makes a home whose
 * start replays that run and pauses just before the first violation; ethers reads both sides of
 * the fork from two nodes' JSON-RPC (`/node/N`); `lockstep node step` runs past the violation and
 * `lockstep node status` shows the oracle's report of it, the same violation the report names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { JsonRpcProvider } from 'ethers';
import { runConsole } from '../../src/rpc/console/consoleClient';
import { type RunningDevnet, startDevnet } from './nodeStart';
import { loadHome, paths } from './home';
import { lockstep } from './devnetTestKit';

const REGRESSION = resolve(import.meta.dirname, '../../scenarios/regressions/planted-sticky-head-fork-choice.json');
const root = mkdtempSync(join(tmpdir(), 'lockstep-open-live-'));
const reportDir = join(root, 'report');
const home = join(root, 'home');
const banner: string[] = [];
let d: RunningDevnet;
let rpcUrl: string;
let summary: { verdict: string; message: string; seed: number };

beforeAll(async () => {
  const run = await lockstep(['run', '--scenario', REGRESSION, '--out', reportDir, '--no-trace']);
  expect(run.code, run.err).toBe(2); // safety: the planted bug is found
  summary = JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8'));
  const init = await lockstep([
    'node',
    'init',
    '--home',
    home,
    '--from-report',
    reportDir,
    '--before-violation',
    ...['--rest-port', '0', '--rpc-port', '0', '--jsonrpc-port', '0', '--ws-port', '0'],
  ]);
  expect(init.code, init.err).toBe(0);
  expect(init.out).toContain('planted bug sticky-head stays on');
  d = await startDevnet({ home, speed: 1, out: (l) => banner.push(l) });
  await d.caughtUp;
  rpcUrl = `http://127.0.0.1:${d.ports.jsonRpc}`;
}, 180_000);

afterAll(async () => {
  await d?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('a failing run opened live', () => {
  it('is paused at the last window barrier before the first violation, with no violation yet', () => {
    const violation = loadHome(home).start!.violation!;
    expect(summary.message).toBe(`${violation.oracle}: ${violation.message}`);
    const s = d.net.adminStatus();
    expect(s.state).toBe('paused');
    expect(s.timeMs).toBeLessThan(violation.atMs);
    // The next window would run past it: this is the last barrier before the violation.
    expect(d.net.run.peekRanToMs()!).toBeGreaterThanOrEqual(violation.atMs);
    expect(s.violations).toEqual([]);
    expect(s.plant).toBe('sticky-head');
    const paused = banner.find((l) => l.startsWith('paused at'));
    expect(paused).toContain(`${violation.atMs - s.timeMs} ms before the first violation: fork-choice`);
    expect(banner.some((l) => l.startsWith('chain ids') && l.includes('lockstep-1') && l.includes('15001'))).toBe(true);
    expect(banner.some((l) => /^ {2}user-1 +0x[0-9a-f]{40} {2}\d+matic at genesis$/.test(l))).toBe(true);
  });

  it('ethers reads both sides of the fork from two nodes (/node/N): the heads the violation names', async () => {
    const [, head, heaviest] = /head is (0x[0-9a-f]{64}) .*not the heaviest known chain (0x[0-9a-f]{64})/.exec(
      summary.message,
    )!;
    const heads = new Map<string, number>();
    const providers: JsonRpcProvider[] = [];
    try {
      for (let n = 1; n <= 5; n++) {
        const p = new JsonRpcProvider(`${rpcUrl}/node/${n}`, undefined, { staticNetwork: true, polling: false });
        providers.push(p);
        const b = await p.getBlock('latest');
        heads.set(b!.hash!, n);
      }
      // Two nodes, two different heads: the sticky head and the heaviest chain.
      const a = heads.get(head!);
      const b = heads.get(heaviest!);
      expect(a, `no node serves ${head}`).toBeDefined();
      expect(b, `no node serves ${heaviest}`).toBeDefined();
      expect(a).not.toBe(b);
      const pa = providers[a! - 1]!;
      const pb = providers[b! - 1]!;
      const [ba, bb] = [await pa.getBlock(head!), await pb.getBlock(heaviest!)];
      // Each node knows its own side; at the same height they hold different blocks: a fork.
      const n = Math.min(ba!.number, bb!.number);
      const [x, y] = [await pa.getBlock(n), await pb.getBlock(n)];
      expect(x!.hash).not.toBe(y!.hash);
      // Both sides grow from a common ancestor.
      let common = n - 1;
      while (common > 0 && (await pa.getBlock(common))!.hash !== (await pb.getBlock(common))!.hash) common--;
      expect(common).toBeGreaterThan(0);
    } finally {
      for (const p of providers) p.destroy();
    }
  });

  it('the console attaches to any sidechain node (one socket per node)', async () => {
    for (const n of [2, 3]) {
      let text = '';
      const output = new Writable({
        write(chunk, _enc, done) {
          text += String(chunk);
          done();
        },
      });
      const code = await runConsole({
        socketPath: paths(home).consoleSocketOf(n),
        input: process.stdin,
        output,
        exec: 'eth.blockNumber',
      });
      expect(code).toBe(0);
      expect(text.trim()).toBe(String(d.net.sidechainNode(n).chain.head().block.header.number));
    }
  });

  it('steps past the violation, and `lockstep node status` shows the oracle reporting it', async () => {
    const violation = loadHome(home).start!.violation!;
    const step = await lockstep(['node', 'step', '--home', home, '--until', `${violation.atMs + 2_000}ms`]);
    expect(step.code, step.err).toBe(0);
    expect(step.out).toMatch(/^paused at \d+\.\d{3} s \(window barrier \d+\): ran \d+ ms/);
    const status = await lockstep(['node', 'status', '--home', home]);
    expect(status.code, status.err).toBe(0);
    expect(status.out).toContain('violations  1');
    expect(status.out).toContain(`fork-choice (safety) at ${(violation.atMs / 1000).toFixed(3)} s`);
    expect(status.out).toContain(violation.message);
    const log = readFileSync(paths(home).log('daemon'), 'utf8');
    expect(log).toContain('"oracle":"fork-choice"');
    expect(log).toContain('devnet.opened');
  }, 60_000);
});
