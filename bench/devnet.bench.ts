import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { type BenchResult } from './harness';
import { loadScenario } from '../sim/scenario/load';
import { initHome, loadKey } from '../cli/devnet/home';
import { startDevnet } from '../cli/devnet/nodeStart';

/**
 * Requests per second and p99 latency of the devnet's REST API and sidechain JSON-RPC on loopback,
 * measured with autocannon (in its own worker thread) while the network runs paced at real time
 * in the same process, as `lockstep node start` runs it. LOCKSTEP_BENCH_QUICK=1 shortens it.
 */
export async function devnetBenches(): Promise<BenchResult[]> {
  const quick = process.env.LOCKSTEP_BENCH_QUICK === '1';
  const seconds = quick ? 3 : 10;
  const home = mkdtempSync(join(tmpdir(), 'lockstep-bench-devnet-'));
  const { scenario } = loadScenario('devnet');
  initHome({
    home,
    scenario,
    seed: 1,
    host: '127.0.0.1',
    ports: { rest: 0, status: 0, jsonRpc: 0, ws: 0 },
    overwrite: false,
  });
  const d = await startDevnet({ home, speed: 1, out: () => {} });
  const out: BenchResult[] = [];
  try {
    while (d.net.status().latestBlockHeight < 2n) await new Promise((r) => setTimeout(r, 50));
    const user = loadKey(home, 'user-1').address;
    const load = async (name: string, opts: autocannon.Options) => {
      const r = await autocannon({ connections: 10, duration: seconds, workers: 1, ...opts });
      const errors = r.errors + r.non2xx;
      out.push({
        name,
        value: r.requests.average,
        unit: 'req/s',
        note: `p99 ${r.latency.p99} ms, ${r.requests.total} requests${errors ? `, ${errors} errors` : ''}`,
      });
    };
    const rest = `http://127.0.0.1:${d.ports.rest}`;
    const rpc = `http://127.0.0.1:${d.ports.jsonRpc}`;
    await load('REST GET /auth/accounts/{address}, 10 connections', { url: `${rest}/auth/accounts/${user}` });
    await load('REST GET /staking/validator-set, 10 connections', { url: `${rest}/staking/validator-set` });
    const post = (body: unknown): autocannon.Options => ({
      url: rpc,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await load(
      'JSON-RPC eth_blockNumber, 10 connections',
      post({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
    );
    await load(
      "JSON-RPC eth_getBlockByNumber('latest'), 10 connections",
      post({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['latest', false] }),
    );
  } finally {
    await d.stop();
    rmSync(home, { recursive: true, force: true });
  }
  return out;
}
