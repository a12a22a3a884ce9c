import { request as httpRequest } from 'node:http';
import { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcProvider } from 'ethers';
import { type FastifyInstance } from 'fastify';
import { stateSyncTxHash } from '../../sidechain/stateSync';
import {
  FIXTURE_CHAIN_ID,
  FIXTURE_TRANSFERS,
  type FixtureSidechainPort,
  canonicalBlocks,
  createFixtureSidechainPort,
} from '../testing/sidechainPort';
import { type SidechainPort } from '../ports';
import { createJsonRpcServer, type JsonRpcServerOptions } from './jsonRpcServer';

// --- a listening server over the fixture chain -------------------------------------------------------

interface Reply {
  status: number;
  contentType: string | null;
  text: string;
  json: unknown;
}

interface Harness {
  app: FastifyInstance;
  url: string;
  post(body: string | Buffer, headers?: Record<string, string>): Promise<Reply>;
  send(method: string, body?: string, headers?: Record<string, string>): Promise<Reply>;
  close(): Promise<void>;
}

async function startServer(port: SidechainPort, opts?: JsonRpcServerOptions): Promise<Harness> {
  const app = createJsonRpcServer(port, opts);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/`;
  const send = async (
    method: string,
    body?: string | Buffer,
    headers: Record<string, string> = { 'content-type': 'application/json' },
  ): Promise<Reply> => {
    const r = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await r.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: r.status, contentType: r.headers.get('content-type'), text, json };
  };
  return { app, url, send, post: (body, headers) => send('POST', body, headers), close: () => app.close() };
}

const call = (method: string, params?: unknown, id: unknown = 1): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) });
const err = (id: unknown, code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } });
const res = (id: unknown, result: unknown) => ({ jsonrpc: '2.0', id, result });

let port: FixtureSidechainPort;
let h: Harness;

beforeAll(async () => {
  port = createFixtureSidechainPort();
  h = await startServer(port);
});
afterAll(async () => {
  await h.close();
});

// --- the envelope -------------------------------------------------------------------------------------

describe('JSON-RPC server: calls and results', () => {
  it('answers a call with HTTP 200, application/json and the request id', async () => {
    const r = await h.post(call('eth_blockNumber', []));
    expect(r.status).toBe(200);
    expect(r.contentType).toBe('application/json');
    expect(r.json).toEqual(res(1, '0xe'));
    expect((await h.post(call('eth_chainId', [], 'abc'))).json).toEqual(res('abc', '0x3a99'));
    expect((await h.post(call('net_version', [], -7))).json).toEqual(res(-7, '15001'));
  });

  it('params may be omitted or null', async () => {
    expect((await h.post('{"jsonrpc":"2.0","id":2,"method":"eth_blockNumber"}')).json).toEqual(res(2, '0xe'));
    expect((await h.post('{"jsonrpc":"2.0","id":3,"method":"eth_blockNumber","params":null}')).json).toEqual(
      res(3, '0xe'),
    );
  });

  it('echoes the id exactly as sent (geth keeps it raw)', async () => {
    for (const idRaw of [
      '12345678901234567890123',
      '1.0',
      '1e2',
      '-0',
      '0.5',
      '"x\\u0041"',
      '"ünï"',
      'true',
      'false',
      'null',
    ]) {
      const r = await h.post(`{"jsonrpc":"2.0","id":${idRaw},"method":"eth_chainId"}`);
      expect(r.text, idRaw).toBe(`{"jsonrpc":"2.0","id":${idRaw},"result":"0x3a99"}`);
    }
  });

  it('decodes the message like a Go struct: keys match case-insensitively, the last wins, wrong types are ignored', async () => {
    expect((await h.post('{"JSONRPC":"2.0","Id":4,"METHOD":"eth_chainId","Params":[]}')).json).toEqual(
      res(4, '0x3a99'),
    );
    expect((await h.post('{"jsonrpc":"2.0","id":1,"id":5,"method":"eth_blockNumber"}')).json).toEqual(res(5, '0xe'));
    expect((await h.post('{"jsonrpc":"2.0","id":6,"method":"eth_chainId","method":7}')).json).toEqual(res(6, '0x3a99'));
    expect((await h.post('{"jsonrpc":"2.0","id":8,"method":"eth_chainId","extra":{"deep":[1,2,3]}}')).json).toEqual(
      res(8, '0x3a99'),
    );
    // "ſ" (U+017F) folds onto "s" in Go's field matching.
    expect((await h.post('{"jſonrpc":"2.0","id":9,"method":"eth_chainId"}')).json).toEqual(res(9, '0x3a99'));
  });

  it('reads only the first JSON value of the body, as geth does', async () => {
    expect((await h.post(`${call('eth_chainId')} trailing {garbage`)).json).toEqual(res(1, '0x3a99'));
  });

  it('reads blocks like geth: hex quantities, null for unknown blocks', async () => {
    const head = port.chain.head().block;
    const latest = (await h.post(call('eth_getBlockByNumber', ['latest', false]))).json as {
      result: Record<string, unknown>;
    };
    expect(latest.result).toMatchObject({
      number: '0xe',
      hash: head.hash,
      parentHash: head.header.parentHash,
      timestamp: `0x${head.header.time.toString(16)}`,
    });
    expect((await h.post(call('eth_getBlockByNumber', ['0x63', false]))).json).toEqual(res(1, null));
    expect((await h.post(call('sidechain_getSigners', ['latest']))).json).toEqual(
      res(1, port.chain.signersAfter(head.hash)),
    );
  });
});

describe('JSON-RPC server: notifications, responses and batches', () => {
  it('a notification (no id) runs without an answer: empty 200 body', async () => {
    const r = await h.post('{"jsonrpc":"2.0","method":"eth_blockNumber","params":[]}');
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
    // Even a failing one.
    expect((await h.post('{"jsonrpc":"2.0","method":"nope_nope"}')).text).toBe('');
  });

  it('a response sent to the server is ignored, as geth ignores unsolicited responses', async () => {
    expect((await h.post('{"jsonrpc":"2.0","id":1,"result":"0x1"}')).text).toBe('');
    expect((await h.post('{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}')).text).toBe('');
    // With params it is no response: an invalid request.
    expect((await h.post('{"jsonrpc":"2.0","id":1,"result":"0x1","params":[]}')).json).toEqual(
      err(1, -32600, 'invalid request'),
    );
  });

  it('a batch is answered in order, without entries for notifications', async () => {
    const body = `[${call('eth_blockNumber', [], 1)},{"jsonrpc":"2.0","method":"eth_chainId"},${call('eth_chainId', [], 'two')},${call('nope', [], 3)},{"jsonrpc":"2.0","id":4,"result":5}]`;
    const r = await h.post(body);
    expect(r.status).toBe(200);
    expect(r.json).toEqual([
      res(1, '0xe'),
      res('two', '0x3a99'),
      err(3, -32601, 'the method nope does not exist/is not available'),
    ]);
  });

  it('a batch of only notifications is an empty 200 body', async () => {
    const r = await h.post('[{"jsonrpc":"2.0","method":"eth_chainId"},{"jsonrpc":"2.0","method":"eth_blockNumber"}]');
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
  });

  it('an empty batch is one error object, not an array', async () => {
    expect((await h.post('[]')).json).toEqual(err(null, -32600, 'empty batch'));
    expect((await h.post(' [ ] ')).json).toEqual(err(null, -32600, 'empty batch'));
  });

  it('a batch over 1000 items is one "batch too large" error carrying the first call\'s id', async () => {
    const items = (n: number, first = 0) => Array.from({ length: n }, (_, i) => call('eth_chainId', [], first + i));
    const exact = (await h.post(`[${items(1000).join(',')}]`)).json as unknown[];
    expect(exact).toHaveLength(1000);
    expect(exact[999]).toEqual(res(999, '0x3a99'));
    const over = await h.post(`[{"jsonrpc":"2.0","method":"eth_chainId"},"junk",${items(1000, 7).join(',')}]`);
    expect(over.status).toBe(200);
    expect(over.json).toEqual([err(7, -32600, 'batch too large')]);
    const noCalls = await h.post(
      `[${Array.from({ length: 1001 }, () => '{"jsonrpc":"2.0","method":"eth_chainId"}').join(',')}]`,
    );
    expect(noCalls.json).toEqual([err(null, -32600, 'batch too large')]);
  });

  it('the batch cap and the response-size cap are configurable', async () => {
    const small = await startServer(port, { batchItemLimit: 2, batchResponseMaxBytes: 10 });
    try {
      expect(
        (
          await small.post(
            `[${call('eth_chainId', [], 1)},${call('eth_chainId', [], 2)},${call('eth_chainId', [], 3)}]`,
          )
        ).json,
      ).toEqual([err(1, -32600, 'batch too large')]);
      // 8 bytes ("0x3a99" quoted) fit, 16 do not: the rest of the batch is refused.
      expect((await small.post(`[${call('eth_chainId', [], 1)},${call('eth_chainId', [], 2)}]`)).json).toEqual([
        res(1, '0x3a99'),
        res(2, '0x3a99'),
      ]);
      const tooBig = await startServer(port, { batchResponseMaxBytes: 10 });
      try {
        const r = await tooBig.post(
          `[${call('eth_chainId', [], 1)},${call('eth_chainId', [], 2)},{"jsonrpc":"2.0","method":"eth_chainId"},${call('eth_chainId', [], 3)}]`,
        );
        expect(r.json).toEqual([res(1, '0x3a99'), res(2, '0x3a99'), err(3, -32003, 'response too large')]);
      } finally {
        await tooBig.close();
      }
    } finally {
      await small.close();
    }
  });
});

describe('JSON-RPC server: every error code with its message (sidechain.md §4.4)', () => {
  it('-32700 parse error, id null', async () => {
    for (const body of [
      '{bad',
      '',
      '   ',
      '{"jsonrpc":"2.0","id":1',
      '[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},',
      '\u00ff\u0000',
      'nul',
      '{"a":1,}',
      '[1,]',
      '"\\x"',
      '-',
    ]) {
      const r = await h.post(body);
      expect(r.status, body).toBe(200);
      expect(r.json, body).toEqual(err(null, -32700, 'parse error'));
    }
  });

  it('-32600 invalid request: version, method, id, non-objects', async () => {
    const inv = (id: unknown) => err(id, -32600, 'invalid request');
    expect((await h.post('{"jsonrpc":"1.0","id":1,"method":"eth_chainId"}')).json).toEqual(inv(1));
    expect((await h.post('{"jsonrpc":2.0,"id":1,"method":"eth_chainId"}')).json).toEqual(inv(1));
    expect((await h.post('{"id":1,"method":"eth_chainId"}')).json).toEqual(inv(1));
    expect((await h.post('{"jsonrpc":"2.0","id":1}')).json).toEqual(inv(1));
    expect((await h.post('{"jsonrpc":"2.0","id":1,"method":""}')).json).toEqual(inv(1));
    expect((await h.post('{"jsonrpc":"2.0","id":1,"method":42}')).json).toEqual(inv(1));
    // An id that is an object or array is no id: the error carries null.
    expect((await h.post('{"jsonrpc":"2.0","id":{"a":1},"method":"eth_chainId"}')).json).toEqual(inv(null));
    expect((await h.post('{"jsonrpc":"2.0","id":[1],"method":"eth_chainId"}')).json).toEqual(inv(null));
    // No id and no method: neither a call nor a notification.
    expect((await h.post('{"jsonrpc":"2.0","method":5}')).json).toEqual(inv(null));
    for (const body of ['5', '"eth_chainId"', 'null', 'true', '{}'])
      expect((await h.post(body)).json, body).toEqual(inv(null));
    // Nested batches: each inner array is an invalid message.
    expect((await h.post(`[[${call('eth_chainId')}],1,null]`)).json).toEqual([inv(null), inv(null), inv(null)]);
  });

  it('-32600 method name too long (over 2048 bytes)', async () => {
    const long = `eth_${'x'.repeat(2045)}`;
    expect((await h.post(call(long))).json).toEqual(err(1, -32600, 'method name too long: 2049 > 2048'));
    // Counted in UTF-8 bytes, as Go does.
    expect((await h.post(call('é'.repeat(1025)))).json).toEqual(err(1, -32600, 'method name too long: 2050 > 2048'));
    const fits = `eth_${'x'.repeat(2044)}`;
    expect((await h.post(call(fits))).json).toEqual(
      err(1, -32601, `the method ${fits} does not exist/is not available`),
    );
  });

  it('-32601 with the wording ethers recognises; subscriptions are not available over HTTP', async () => {
    expect((await h.post(call('eth_getFooBar', []))).json).toEqual(
      err(1, -32601, 'the method eth_getFooBar does not exist/is not available'),
    );
    expect((await h.post(call('eth_newFilter', [{}]))).json).toEqual(
      err(1, -32601, 'the method eth_newFilter does not exist/is not available'),
    );
    expect((await h.post(call('eth_subscribe', ['newHeads']))).json).toEqual(
      err(1, -32601, 'notifications not supported'),
    );
    expect((await h.post(call('eth_unsubscribe', ['0x1']))).json).toEqual(err(1, -32000, 'subscription not found'));
    expect((await h.post(call('eth_unsubscribe', []))).json).toEqual(
      err(1, -32602, 'missing value for required argument 0'),
    );
    expect((await h.post(call('eth_unsubscribe', [1]))).json).toEqual(
      err(1, -32602, 'invalid argument 0: json: cannot unmarshal number into Go value of type rpc.ID'),
    );
    expect((await h.post(call('eth_unsubscribe', ['a', 'b']))).json).toEqual(
      err(1, -32602, 'too many arguments, want at most 1'),
    );
    expect((await h.post(call('eth_unsubscribe', { a: 1 }))).json).toEqual(err(1, -32602, 'non-array args'));
  });

  it('-32602 invalid params from the method table', async () => {
    expect((await h.post(call('eth_blockNumber', { a: 1 }))).json).toEqual(err(1, -32602, 'non-array args'));
    expect((await h.post(call('eth_blockNumber', 'x'))).json).toEqual(err(1, -32602, 'non-array args'));
    expect((await h.post(call('eth_blockNumber', [1]))).json).toEqual(
      err(1, -32602, 'too many arguments, want at most 0'),
    );
    expect((await h.post(call('eth_getBlockByNumber', ['latest']))).json).toEqual(
      err(1, -32602, 'missing value for required argument 1'),
    );
    expect((await h.post(call('eth_getBlockByNumber', ['0x01', false]))).json).toEqual(
      err(1, -32602, 'invalid argument 0: hex number with leading zero digits'),
    );
    expect((await h.post(call('eth_getBlockByNumber', [12, false]))).json).toEqual(
      err(1, -32602, 'invalid argument 0: hex string without 0x prefix'),
    );
    // Integers beyond 2^53 reach the uint64 arguments exactly.
    expect(
      (await h.post('{"jsonrpc":"2.0","id":1,"method":"sidechain_getRootHash","params":[1,18446744073709551616]}'))
        .json,
    ).toEqual(
      err(
        1,
        -32602,
        'invalid argument 1: json: cannot unmarshal number 18446744073709551616 into Go value of type uint64',
      ),
    );
  });

  it('-32000 handler errors', async () => {
    expect((await h.post(call('sidechain_getSigners', ['0x63']))).json).toEqual(err(1, -32000, 'unknown block'));
    // Whole values in non-integer text are refused by name, as Go's decoder does (strconv.ParseUint).
    for (const [text, arg] of [
      ['1.0', 0],
      ['1e0', 0],
      ['-0', 0],
      ['1E2', 1],
      ['2.5', 1],
    ] as const) {
      const params = arg === 0 ? `[${text},2]` : `[1,${text}]`;
      expect(
        (await h.post(`{"jsonrpc":"2.0","id":1,"method":"sidechain_getRootHash","params":${params}}`)).json,
      ).toEqual(
        err(1, -32602, `invalid argument ${arg}: json: cannot unmarshal number ${text} into Go value of type uint64`),
      );
    }
    // Elsewhere such a number is a number of the wrong kind, as before.
    expect(
      (await h.post('{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":[1.0,false]}')).json,
    ).toEqual(err(1, -32602, 'invalid argument 0: hex string without 0x prefix'));
    expect(
      (await h.post('{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",1.0]}')).json,
    ).toEqual(err(1, -32602, 'invalid argument 1: json: cannot unmarshal number into Go value of type bool'));
    expect((await h.post('{"jsonrpc":"2.0","id":1,"method":"sidechain_getAuthor","params":[1.5]}')).json).toEqual(
      err(1, -32602, 'invalid argument 0: json: cannot unmarshal number into Go value of type string'),
    );
    expect((await h.post('{"jsonrpc":"2.0","id":1,"method":"sidechain_getRootHash","params":[5,4]}')).json).toEqual(
      err(1, -32000, 'Invalid parameters start: 5 and end block: 4 params'),
    );
    expect((await h.post('{"jsonrpc":"2.0","id":1,"method":"sidechain_getRootHash","params":[1,99]}')).json).toEqual(
      err(1, -32000, 'Invalid parameters start: 1 and end block: 99 params'),
    );
  });

  it('-32603 when the node itself fails; the server keeps serving', async () => {
    let broken = true;
    const flaky: SidechainPort = {
      view: () => {
        if (broken) throw new Error('node is gone');
        return port.view();
      },
      setHead: async () => ({ ok: true }),
    };
    const s = await startServer(flaky);
    try {
      expect((await s.post(call('eth_blockNumber', [], 9))).json).toEqual(err(9, -32603, 'method handler crashed'));
      expect((await s.post(`[${call('eth_blockNumber', [], 1)},${call('nope', [], 2)}]`)).json).toEqual([
        err(1, -32603, 'method handler crashed'),
        err(2, -32603, 'method handler crashed'),
      ]);
      broken = false;
      expect((await s.post(call('eth_blockNumber', [], 10))).json).toEqual(res(10, '0xe'));
    } finally {
      await s.close();
    }
  });
});

describe('JSON-RPC server: HTTP transport errors (geth rpc/http.go)', () => {
  it('405 for every method but POST', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const r = await h.send(method, method === 'GET' ? undefined : call('eth_chainId'));
      expect(r.status, method).toBe(405);
      expect(r.json, method).toEqual(err(null, -32600, 'method not allowed'));
    }
    const head = await fetch(h.url, { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('POST');
  });

  it('415 unless the content type is a JSON one', async () => {
    const body = call('eth_chainId');
    const unsupported = err(null, -32600, 'invalid content type, only application/json is supported');
    for (const ct of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx', '']) {
      const r = await h.post(body, ct === '' ? {} : { 'content-type': ct });
      expect(r.status, ct).toBe(415);
      expect(r.json, ct).toEqual(unsupported);
    }
    for (const ct of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/json-rpc',
      'application/jsonrequest',
    ]) {
      const r = await h.post(body, { 'content-type': ct });
      expect(r.status, ct).toBe(200);
      expect(r.json, ct).toEqual(res(1, '0x3a99'));
    }
  });

  it('413 for a body over the limit, declared or streamed; the limit is configurable', async () => {
    const big = await h.post(Buffer.alloc(5 * 1024 * 1024 + 1, 0x20));
    expect(big.status).toBe(413);
    expect(big.json).toEqual(err(null, -32600, 'content length too large (5242881>5242880)'));
    // Exactly at the limit is read (and here is whitespace around one call).
    const padded = Buffer.concat([
      Buffer.from(call('eth_chainId')),
      Buffer.alloc(5 * 1024 * 1024 - call('eth_chainId').length, 0x20),
    ]);
    expect((await h.post(padded)).json).toEqual(res(1, '0x3a99'));

    const small = await startServer(port, { bodyLimitBytes: 64 });
    try {
      expect((await small.post(call('eth_chainId'))).status).toBe(200);
      const over = await small.post(`[${call('eth_chainId')},${call('eth_chainId')}]`);
      expect(over.status).toBe(413);
      expect(over.json).toEqual(
        err(null, -32600, `content length too large (${2 * call('eth_chainId').length + 3}>64)`),
      );
      // Chunked, without a declared length: cut off while streaming.
      const streamed = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = httpRequest(
          small.url,
          { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
          (r) => {
            let text = '';
            r.setEncoding('utf8');
            r.on('data', (c: string) => (text += c));
            r.on('end', () => resolve({ status: r.statusCode ?? 0, text }));
          },
        );
        req.on('error', reject);
        for (let i = 0; i < 4; i++) req.write(call('eth_chainId'));
        req.end();
      });
      expect(streamed.status).toBe(413);
      expect(JSON.parse(streamed.text)).toEqual(err(null, -32600, 'request body too large (>64 bytes)'));
      expect((await small.post(call('eth_chainId'))).json).toEqual(res(1, '0x3a99'));
    } finally {
      await small.close();
    }
  });
});

describe('JSON-RPC server: the view is read per request', () => {
  it('one view per request (a batch shares one) and a rewind shows up in the next request', async () => {
    const p = createFixtureSidechainPort();
    const s = await startServer(p);
    try {
      const before = p.viewCalls;
      await s.post(`[${call('eth_blockNumber', [], 1)},${call('eth_chainId', [], 2)},${call('net_version', [], 3)}]`);
      expect(p.viewCalls - before).toBe(1);
      await s.post(call('eth_blockNumber'));
      expect(p.viewCalls - before).toBe(2);
      // Invalid messages never touch the node.
      await s.post('[1,2,3]');
      await s.post('{bad');
      expect(p.viewCalls - before).toBe(2);
      expect(await p.setHead(5n)).toEqual({ ok: true });
      expect((await s.post(call('eth_blockNumber'))).json).toEqual(res(1, '0x5'));
      expect((await s.post(call('eth_getBlockByNumber', ['0x6', false]))).json).toEqual(res(1, null));
    } finally {
      await s.close();
    }
  });
});

// --- ethers v6 end to end ---------------------------------------------------------------------------------

describe('JSON-RPC server: ethers v6 JsonRpcProvider end to end (sidechain.md §5)', () => {
  it('detects the network, reads the block number and blocks by number, tag and hash, batched', async () => {
    const bodies: string[] = [];
    const p = createFixtureSidechainPort();
    const app = createJsonRpcServer(p);
    app.addHook('preHandler', async (req) => {
      if (Buffer.isBuffer(req.body)) bodies.push(req.body.toString('utf8'));
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    // No staticNetwork: the provider must detect the chain id itself (eth_chainId at start-up).
    const provider = new JsonRpcProvider(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/`);
    try {
      const network = await provider.getNetwork();
      expect(network.chainId).toBe(FIXTURE_CHAIN_ID);
      expect(await provider.getBlockNumber()).toBe(14);

      const chain = p.chain;
      const head = chain.head().block;
      const latest = (await provider.getBlock('latest'))!;
      expect(latest.number).toBe(14);
      expect(latest.hash).toBe(head.hash);
      expect(latest.parentHash).toBe(head.header.parentHash);
      expect(latest.timestamp).toBe(Number(head.header.time));

      // Requests issued together go out as one JSON array (ethers batches within 10 ms).
      const blocks = canonicalBlocks(chain);
      const fetched = await Promise.all(blocks.map((b) => provider.getBlock(Number(b.block.header.number))));
      for (const [i, b] of blocks.entries()) {
        const got = fetched[i]!;
        expect(got.number).toBe(Number(b.block.header.number));
        expect(got.hash).toBe(b.block.hash);
        expect(got.parentHash).toBe(b.block.header.parentHash);
        expect(got.timestamp).toBe(Number(b.block.header.time));
        expect(got.difficulty).toBe(b.block.header.difficulty);
        expect((await provider.getBlock(b.block.hash))!.number).toBe(got.number);
      }
      expect(bodies.some((b) => b.trimStart().startsWith('[') && (JSON.parse(b) as unknown[]).length > 1)).toBe(true);

      const withTxs = (await provider.getBlock(12, true))!;
      const b12 = chain.byNumber(12n)!.block;
      expect(
        withTxs.prefetchedTransactions.slice(0, 2).map((t) => [t.from.toLowerCase(), t.to?.toLowerCase(), t.value]),
      ).toEqual(FIXTURE_TRANSFERS.get(12n)!.map((t) => [t.from, t.to, t.value]));
      if (b12.body.stateSyncs.length > 0)
        expect(withTxs.prefetchedTransactions.at(-1)!.hash).toBe(stateSyncTxHash(12n, b12.hash));
      expect(await provider.getBlock(99)).toBeNull();
      // The geth wording maps onto ethers' UNSUPPORTED_OPERATION.
      await expect(provider.send('eth_newFilter', [{}])).rejects.toMatchObject({ code: 'UNSUPPORTED_OPERATION' });
      expect(await provider.send('sidechain_getSigners', ['latest'])).toEqual(chain.signersAfter(head.hash));
    } finally {
      provider.destroy();
      await app.close();
    }
  });
});
