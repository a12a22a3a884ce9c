/**
 * A fault injected into a running devnet (issue 16, item 2): the planted-bug regression's network
 * without its scheduled fault, opened at 20 s; `lockstep node fault equivocatingProducer inTurn
 * --for 10s` injects what the scenario had scheduled. The fault shows in the daemon log, in
 * `lockstep node status`, and in the report `lockstep node report` writes; the oracles see its
 * consequence (the planted bug's fork-choice violation); a restart replays it to the same state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type RunningDevnet, startDevnet } from './nodeStart';
import { nodeInit } from './nodeInit';
import { paths } from './home';
import { lockstep, rpc } from './devnetTestKit';

const REGRESSION = resolve(import.meta.dirname, '../../scenarios/regressions/planted-sticky-head-fork-choice.json');
const root = mkdtempSync(join(tmpdir(), 'lockstep-fault-'));
const home = join(root, 'home');
let d: RunningDevnet;
let rpcUrl: string;
let injected: { index: number; atMs: number; endsAtMs: number };

beforeAll(async () => {
  const scenario = JSON.parse(readFileSync(REGRESSION, 'utf8')) as Record<string, unknown>;
  const file = join(root, 'no-fault.json');
  writeFileSync(
    file,
    JSON.stringify({ ...scenario, name: 'planted-sticky-head-no-fault', faults: [], expect: { verdict: 'pass' } }),
  );
  await nodeInit({
    home,
    scenario: file,
    seed: 1,
    at: '20s',
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
}, 120_000);

afterAll(async () => {
  await d?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('lockstep node fault', () => {
  it('injects the fault at the next barrier; it shows in the log and in node status; the oracles see what it does', async () => {
    expect(d.net.adminStatus()).toMatchObject({ state: 'paused', violations: [], injectedFaults: [] });
    const r = await lockstep(['node', 'fault', 'equivocatingProducer', 'inTurn', '--for', '10s', '--home', home]);
    expect(r.code, r.err).toBe(0);
    const m =
      /^fault #(\d+) equivocatingProducer \(validator inTurn\) for 10s: starts at (\d+\.\d{3}) s \(window barrier \d+\), ends at (\d+\.\d{3}) s\n$/.exec(
        r.out,
      );
    expect(m, r.out).not.toBeNull();
    const s0 = d.net.adminStatus();
    injected = s0.injectedFaults[0]! as typeof injected;
    expect(injected.index).toBe(0);
    expect(injected.atMs / 1000).toBe(Number(m![2]));
    expect(injected.endsAtMs).toBe(injected.atMs + 10_000);

    await rpc(rpcUrl, 'lockstep_step', [{ until: '40s' }]);
    const status = await lockstep(['node', 'status', '--home', home]);
    expect(status.code, status.err).toBe(0);
    expect(status.out).toContain(
      `injected #0: equivocatingProducer (validator inTurn) for 10s, from ${(injected.atMs / 1000).toFixed(3)} s`,
    );
    expect(status.out).toMatch(/fork-choice \(safety\) at \d+\.\d{3} s on sc-\d/);
    const log = readFileSync(paths(home).log('daemon'), 'utf8');
    expect(log).toContain(
      'fault.injected {"index":0,"fault":{"kind":"equivocatingProducer","for":"10s","validator":"inTurn"}',
    );
    expect(log).toMatch(/fault\.start \{"index":0,"fault":"equivocatingProducer","detail":"validator \d"/);
    expect(log).toContain('fault.end {"index":0');
    expect(log).toContain('oracle.violation {"oracle":"fork-choice"');
  }, 60_000);

  it('`lockstep node report` writes the run so far with the injected fault in it', async () => {
    const out = join(root, 'report');
    const r = await lockstep(['node', 'report', '--home', home, '--out', out]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('verdict safety (fork-choice:');
    expect(r.out).toContain('1 fault injected');
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      verdict: string;
      simulatedMs: number;
      faults: Array<{ kind: string; atMs: number; index: number; detail: string }>;
      devnet: {
        injectedFaults: Array<{ index: number; atMs: number; fault: { kind: string } }>;
        violations: unknown[];
      };
    };
    expect(summary.verdict).toBe('safety');
    expect(summary.simulatedMs).toBe(d.net.run.ranToMs());
    expect(summary.faults).toEqual([
      { kind: 'equivocatingProducer', atMs: injected.atMs, detail: expect.stringMatching(/^validator \d$/), index: 0 },
    ]);
    expect(summary.devnet.injectedFaults).toMatchObject([
      { index: 0, atMs: injected.atMs, fault: { kind: 'equivocatingProducer' } },
    ]);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('fault #0 at');
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('equivocatingProducer');
    expect(readFileSync(join(out, 'journal.jsonl'), 'utf8')).toContain('"k":"fault"');
  }, 120_000);

  it('a restart replays the fault to the same state', async () => {
    const before = d.net.adminStatus();
    const heads = before.nodes.map((n) => n.sidechain.hash);
    expect((await fetch(`http://127.0.0.1:${d.ports.rest}/node/2/auth/params`)).status).toBe(200);
    await d.stop();
    // One pino log per server: JSON lines with the time, the URL as sent (its /node/N), the status
    // and the latency.
    const lines = readFileSync(paths(home).log('jsonrpc'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { time: string; server: string; req?: { url: string }; responseTime?: number });
    expect(lines.some((l) => l.req?.url === '/' && l.server === 'json-rpc')).toBe(true);
    const done = lines.find((l) => l.responseTime !== undefined)!;
    expect(done.time).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(done.responseTime).toBeGreaterThanOrEqual(0);
    expect(readFileSync(paths(home).log('rest-server'), 'utf8')).toContain('"url":"/node/2/auth/params"');
    d = await startDevnet({ home, speed: 1, out: () => {} });
    await d.caughtUp;
    const after = d.net.adminStatus();
    expect(after.state).toBe('paused');
    expect(after.timeMs).toBe(before.timeMs);
    expect(after.injectedFaults).toEqual(before.injectedFaults);
    expect(after.violations).toEqual(before.violations);
    expect(after.nodes.map((n) => n.sidechain.hash)).toEqual(heads);
  }, 120_000);
});
