/**
 * The node status RPC over a real ServiceApp: Tendermint v0.32 shapes for `/status` and
 * `/net_info`, JSON-RPC error envelopes for everything else, a real socket, and 300 malformed
 * requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { rfc3339FromUnixMs } from '../../core/time';
import { type NodeStatusPort } from '../ports';
import { appServiceFixture, type AppServiceFixture } from '../testing/appServicePort';
import { createStatusServer } from './statusServer';

function expectRpcError(r: LightMyRequestResponse, status: number, code: number): void {
  expect(r.statusCode, r.body).toBe(status);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  const body = r.json() as { jsonrpc: string; id: number; error: { code: number; message: string; data: string } };
  expect(Object.keys(body)).toEqual(['jsonrpc', 'id', 'error']);
  expect(body.jsonrpc).toBe('2.0');
  expect(body.id).toBe(-1);
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  expect(typeof body.error.data).toBe('string');
}

describe('node status RPC', () => {
  let f: AppServiceFixture;
  let server: FastifyInstance;
  beforeAll(() => {
    f = appServiceFixture();
    f.chain.blockTimeMs = 5_250;
    f.chain.block();
    f.chain.block();
    server = createStatusServer(f.statusPort);
  });
  afterAll(() => server.close());

  it('/status: Tendermint shapes, numbers as strings, hashes and address as upper-case bare hex', async () => {
    const r = await server.inject('/status');
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    const s = f.statusPort.status();
    const bare = (h: string) => h.slice(2).toUpperCase();
    expect(r.json()).toEqual({
      jsonrpc: '2.0',
      id: -1,
      result: {
        node_info: { id: s.nodeId, moniker: 'svc-1', network: f.chain.chainId, version: '0.32.7' },
        sync_info: {
          latest_block_hash: bare(s.latestBlockHash),
          latest_app_hash: bare(f.chain.app.appHash),
          latest_block_height: '2',
          latest_block_time: '1970-01-01T00:00:10.5Z',
          catching_up: false,
        },
        validator_info: { address: bare(f.chain.validators[0]!.address), voting_power: '100' },
      },
    });
    expect(r.json().result.sync_info.latest_block_time).toBe(rfc3339FromUnixMs(f.chain.app.lastBlockTimeMs));
  });

  it('/status follows the chain; catching_up is reported', async () => {
    f.chain.block();
    f.statusPort.catchingUp = true;
    const sync = (await server.inject('/status')).json().result.sync_info;
    f.statusPort.catchingUp = false;
    expect(sync.latest_block_height).toBe('3');
    expect(sync.catching_up).toBe(true);
  });

  it('/net_info: n_peers as a string and a moniker per peer', async () => {
    const r = await server.inject('/net_info');
    expect(r.statusCode, r.body).toBe(200);
    const { result } = r.json();
    expect(result).toMatchObject({ listening: true, listeners: [], n_peers: '3' });
    expect(result.peers.map((p: { node_info: { moniker: string } }) => p.node_info.moniker)).toEqual([
      'svc-2',
      'svc-3',
      'svc-4',
    ]);
    expect(result.peers[0]).toEqual({
      node_info: { id: f.statusPort.netInfo().peers[0]!.id, moniker: 'svc-2' },
      is_outbound: true,
      remote_ip: '127.0.0.1',
    });
  });

  it('query strings and a trailing slash are ignored; HEAD answers without a body', async () => {
    expect((await server.inject('/status?height=5&x=%zz')).statusCode).toBe(200);
    expect((await server.inject('/net_info/')).statusCode).toBe(200);
    const head = await server.inject({ method: 'HEAD', url: '/status' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('unknown paths: 404 "Method not found"; other methods: 405; broken URLs: 400 - all JSON-RPC envelopes', async () => {
    const nf = await server.inject('/abci_info');
    expectRpcError(nf, 404, -32601);
    expect(nf.json().error).toEqual({ code: -32601, message: 'Method not found', data: '' });
    expectRpcError(await server.inject('/'), 404, -32601);
    expectRpcError(await server.inject('/STATUS'), 404, -32601);
    const post = await server.inject({
      method: 'POST',
      url: '/status',
      payload: '{"jsonrpc":"2.0","method":"status"}',
      headers: { 'content-type': 'application/json' },
    });
    expectRpcError(post, 405, -32600);
    expect(post.headers.allow).toBe('GET, HEAD');
    expectRpcError(await server.inject({ method: 'POST', url: '/nowhere', payload: 'x'.repeat(1000) }), 404, -32601);
    // fastify reads (and limits) a body before it routes, even to the not-found handler.
    expectRpcError(await server.inject({ method: 'POST', url: '/nowhere', payload: 'x'.repeat(100_000) }), 413, -32600);
    expectRpcError(
      await server.inject({
        method: 'POST',
        url: '/status',
        payload: 'x'.repeat(100_000),
        headers: { 'content-type': 'text/plain' },
      }),
      413,
      -32600,
    );
    expectRpcError(await server.inject('/%zz'), 400, -32600);
  });

  it('a port that throws: 500 "Internal error", and the server keeps serving', async () => {
    let fail = true;
    const flaky: NodeStatusPort = {
      status: () => {
        if (fail) {
          fail = false;
          throw new Error('node stopped');
        }
        return f.statusPort.status();
      },
      netInfo: () => f.statusPort.netInfo(),
    };
    const s = createStatusServer(flaky);
    const r = await s.inject('/status');
    expectRpcError(r, 500, -32603);
    expect(r.json().error.data).toBe('node stopped');
    expect((await s.inject('/status')).statusCode).toBe(200);
    await s.close();
  });

  it('over a real socket with fetch', async () => {
    const s = createStatusServer(f.statusPort);
    const base = await s.listen({ port: 0, host: '127.0.0.1' });
    try {
      const r = await fetch(`${base}/status`);
      expect(r.status).toBe(200);
      expect(
        ((await r.json()) as { result: { sync_info: { latest_block_height: string } } }).result.sync_info
          .latest_block_height,
      ).toBe(f.chain.app.height.toString());
      const n = await fetch(`${base}/net_info`);
      expect(((await n.json()) as { result: { n_peers: string } }).result.n_peers).toBe('3');
      const missing = await fetch(`${base}/dump_consensus_state`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({
        jsonrpc: '2.0',
        id: -1,
        error: { code: -32601, message: 'Method not found', data: '' },
      });
    } finally {
      await s.close();
    }
  });

  it('/unconfirmed_txs: the pending txs, base64, with Tendermint’s totals; limit 1-100; absent where the port does not tell', async () => {
    const txs = [new Uint8Array([1, 2, 3]), new Uint8Array([4, 5])];
    const port: NodeStatusPort = {
      ...f.statusPort,
      status: () => f.statusPort.status(),
      netInfo: () => f.statusPort.netInfo(),
      unconfirmedTxs: () => txs,
    };
    const s = createStatusServer(port);
    try {
      const r = await s.inject('/unconfirmed_txs');
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json().result).toEqual({ n_txs: '2', total: '2', total_bytes: '5', txs: ['AQID', 'BAU='] });
      expect((await s.inject('/unconfirmed_txs?limit=1')).json().result).toMatchObject({
        n_txs: '1',
        total: '2',
        txs: ['AQID'],
      });
      expectRpcError(await s.inject('/unconfirmed_txs?limit=x'), 400, -32602);
    } finally {
      await s.close();
    }
    // The fixture's port does not tell: the route is "Method not found".
    expectRpcError(await server.inject('/unconfirmed_txs'), 404, -32601);
  });

  it('300 malformed requests: each is a 200 for the two routes or a JSON-RPC error envelope; the server keeps serving', async () => {
    const segment = fc.oneof(
      fc.constantFrom(
        'status',
        'net_info',
        'STATUS',
        'health',
        'abci_query',
        'block',
        '',
        '.',
        '..',
        '%zz',
        '%',
        '%00',
        '%2F',
        '%E0%A4%A',
        '☃',
        'status?',
      ),
      fc.string({ unit: 'grapheme', maxLength: 8 }).map(encodeURIComponent),
    );
    const url = fc
      .tuple(
        fc.array(segment, { minLength: 1, maxLength: 3 }),
        fc.option(fc.string({ unit: fc.constantFrom(...'ab=&%?1'.split('')), maxLength: 20 }), { nil: undefined }),
      )
      .map(([segs, q]) => `/${segs.join('/')}${q === undefined ? '' : `?${q}`}`);
    const req = fc.record({
      method: fc.constantFrom('GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'HEAD'),
      url,
      body: fc.option(
        fc.oneof(
          fc.string({ maxLength: 100 }),
          fc.jsonValue().map((v) => JSON.stringify(v) ?? ''),
          fc.constant('x'.repeat(70_000)),
        ),
        { nil: undefined },
      ),
      contentType: fc.constantFrom(
        undefined,
        'application/json',
        'text/plain',
        '',
        'application/x-www-form-urlencoded',
      ),
    });
    await fc.assert(
      fc.asyncProperty(req, async ({ method, url: u, body, contentType }) => {
        const r = await server.inject({
          method: method as 'GET',
          url: u,
          ...(body === undefined || method === 'GET' || method === 'HEAD' ? {} : { payload: body }),
          headers: contentType === undefined ? {} : { 'content-type': contentType },
        });
        if (method === 'HEAD') return void expect([200, 400, 404]).toContain(r.statusCode);
        expect(r.headers['content-type']).toMatch(/^application\/json/);
        const b = r.json() as Record<string, unknown>;
        expect(b.jsonrpc).toBe('2.0');
        expect(b.id).toBe(-1);
        if (r.statusCode === 200) {
          expect(method).toBe('GET');
          expect(Object.keys(b.result as object).length).toBeGreaterThan(0);
        } else {
          expect([400, 404, 405, 413, 415]).toContain(r.statusCode);
          expect(typeof (b.error as { code: unknown }).code).toBe('number');
        }
      }),
      { numRuns: 300 },
    );
    expect((await server.inject('/status')).statusCode).toBe(200);
  });
});
