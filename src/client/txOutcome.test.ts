/**
 * What the client says when a transaction's answer is lost, and how it finds the outcome: a tx
 * the node received but did not answer (the connection closed after the request went through) is
 * reported with its hash and a look-up command, never with advice to send it again; `--wait` and
 * `query tx --wait` look it up (GET /txs/{hash}) until it is committed. Also: the home's
 * data/ports.json is the default node, `--node N` is validator N's node (`/node/N`), and an
 * address argument may name a key of the home.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FastifyInstance } from 'fastify';
import { TOKEN, testKey } from '../app/testing/testChain';
import { appServiceFixture, type AppServiceFixture } from '../rpc/testing/appServicePort';
import { createRestServer } from '../rpc/rest/restServer';
import { type BroadcastMode, type BroadcastResult, type ServicePort, type TxLookup } from '../rpc/ports';
import { txHash } from '../modules/auth/stdTx';
import { tendermintHash } from '../rpc/rest/txResponse';
import { cli, writeKey } from './testing/clientCli';

/**
 * The fixture's port, plus what a devnet adds: a tx book for GET /txs/{hash}, filled by the
 * broadcasts (committed) the port answers.
 */
class LookupPort implements ServicePort {
  readonly book = new Map<string, BroadcastResult>();
  lookups = 0;
  constructor(private readonly inner: ServicePort) {}
  get chainId() {
    return this.inner.chainId;
  }
  query(p: string) {
    return this.inner.query(p);
  }
  async broadcast(tx: Uint8Array, mode: BroadcastMode): Promise<BroadcastResult> {
    // Committed at once (block mode), whatever the client asked: its answer is what gets lost.
    const r = await this.inner.broadcast(tx, 'block');
    this.book.set(txHash(tx), r);
    return mode === 'block' ? r : { ...r, height: '0' };
  }
  lookupTx(hash: string): TxLookup {
    this.lookups++;
    const r = this.book.get(hash);
    // The first look-up finds it still pending, as a node that has not committed it yet.
    if (!r || this.lookups === 1) return { status: 'pending', message: `tx ${tendermintHash(hash)} is pending` };
    return { status: 'committed', result: r };
  }
}

const user1 = testKey('outcome-user-1');
const user2 = testKey('outcome-user-2');
let f: AppServiceFixture;
let port: LookupPort;
let server: FastifyInstance;
let url: string;
let home: string;

beforeAll(async () => {
  f = appServiceFixture({ accounts: [{ key: user1, amount: 100n * TOKEN }] });
  port = new LookupPort(f.port);
  // Node 2 is the same node here: what matters is that /node/2 reaches the port set.
  server = createRestServer(port, { nodes: { node: (n) => (n <= 2 ? port : null), count: 2 } });
  await server.listen({ host: '127.0.0.1', port: 0 });
  const a = server.server.address();
  url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  home = mkdtempSync(join(tmpdir(), 'lockstep-outcome-'));
  mkdirSync(join(home, 'keys'), { recursive: true });
  mkdirSync(join(home, 'config'), { recursive: true });
  mkdirSync(join(home, 'data'), { recursive: true });
  writeFileSync(join(home, 'config', 'genesis.json'), JSON.stringify({ chain_id: f.chain.chainId }));
  writeKey(home, 'user-1', user1);
  writeKey(home, 'user-2', user2);
  // As `lockstep node start` writes it: no --node needed.
  const p = server.server.address() as { port: number };
  writeFileSync(join(home, 'data', 'ports.json'), JSON.stringify({ host: '127.0.0.1', rest: p.port }));
});

afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

/** A fetch whose POST /txs reaches the node, but whose answer is lost (the connection closed). */
const loseTheAnswer: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  if (init?.method === 'POST' && String(input).endsWith('/txs')) {
    await res.text();
    throw new TypeError('fetch failed', { cause: { code: 'UND_ERR_SOCKET', message: 'other side closed' } });
  }
  return res;
};

describe('a transaction whose answer is lost', () => {
  it('is reported with its hash and a look-up command, never with advice to send it again', async () => {
    const before = f.chain.balance(user2.address);
    const r = await cli(['tx', 'bank', 'send', 'user-2', '7matic', '--home', home], loseTheAnswer);
    expect(r.code).toBe(1);
    const hash = /transaction ([0-9A-F]{64}) was sent, but its outcome is unknown/.exec(r.err)?.[1];
    expect(hash, r.err).toBeDefined();
    expect(r.err).toContain('Do not send it again');
    expect(r.err).toContain(`lockstep query tx ${hash} --wait --home ${home}`);
    expect(r.err).not.toMatch(/cannot reach|is `lockstep node start` running/);
    // The node did take it: the hash the client printed is the one the node committed.
    expect(f.chain.balance(user2.address)).toBe(before + 7n);
    expect([...port.book.keys()].map(tendermintHash)).toContain(hash);

    // The suggested command finds the outcome.
    const q = await cli(['query', 'tx', hash!, '--wait', '--home', home]);
    expect(q.code, q.err).toBe(0);
    expect(q.out).toContain(`txhash: ${hash}`);
    expect(q.out).toMatch(/height: [1-9]/);
  });

  it('--wait looks the tx up until it is committed and prints its result', async () => {
    const before = f.chain.balance(user2.address);
    port.lookups = 0;
    const r = await cli(['tx', 'bank', 'send', 'user-2', '3matic', '--wait', '--home', home], loseTheAnswer);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('was sent but not answered');
    expect(r.out).toMatch(/^txhash: [0-9A-F]{64}\n/);
    expect(r.out).toMatch(/height: [1-9]/);
    expect(port.lookups).toBeGreaterThanOrEqual(2);
    expect(f.chain.balance(user2.address)).toBe(before + 3n);
  });

  it('--wait after a sync broadcast waits for the commit', async () => {
    port.lookups = 0;
    const r = await cli([
      'tx',
      'bank',
      'send',
      'user-2',
      '1matic',
      '--broadcast-mode',
      'sync',
      '--wait',
      '--home',
      home,
    ]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/height: [1-9]/);
  });

  it('query tx of an unknown hash says so (exit 1); with --wait it gives up after --timeout, unknown', async () => {
    const h = 'AB'.repeat(32);
    const q = await cli(['query', 'tx', h, '--home', home]);
    expect(q.code).toBe(1);
    expect(q.err).toContain('HTTP 404');
    const w = await cli(['query', 'tx', h, '--wait', '--timeout', '1s', '--home', home]);
    expect(w.code).toBe(1);
    expect(w.err).toContain(`transaction ${h} was sent, but its outcome is unknown: not committed within 1s`);
  });

  it('a refused connection is not an unknown outcome: nothing was sent', async () => {
    const refused: typeof fetch = async () => {
      throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' } });
    };
    const r = await cli(
      ['tx', 'bank', 'send', 'user-2', '1matic', '--home', home, '--sequence', '0', '--account-number', '0'],
      refused,
    );
    expect(r.code).toBe(1);
    expect(r.err).toContain('cannot reach the service REST API');
    expect(r.err).not.toContain('outcome is unknown');
  });
});

describe('which node', () => {
  it('--node N asks validator N under /node/N of the home’s devnet; an unknown N is a 404 naming the range', async () => {
    const seen: string[] = [];
    const spy: typeof fetch = async (input, init) => {
      seen.push(String(input));
      return fetch(input, init);
    };
    const r = await cli(['query', 'auth', 'account', 'user-1', '--node', '2', '--home', home], spy);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`address: ${user1.address}`);
    expect(seen[0]).toBe(`${url}/node/2/auth/accounts/${user1.address}`);
    const bad = await cli(['query', 'auth', 'account', 'user-1', '--node', '3', '--home', home]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("this devnet's nodes are 1-2");
  });

  it('an unknown key name where an address goes lists the keys', async () => {
    const r = await cli(['query', 'auth', 'account', 'nobody', '--home', home]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('no key named "nobody"');
    expect(r.err).toContain('user-1, user-2');
  });
});
