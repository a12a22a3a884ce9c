/**
 * Fuzz: malformed JSON-RPC over real HTTP. Every answer must be well-formed (a JSON-RPC error with
 * the code and message geth gives for that kind of input, or a valid result), the server must keep
 * serving, and nothing a client sends may change the chain.
 */
import { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type FastifyInstance } from 'fastify';
import { RPC_METHODS } from './methods';
import { type FixtureSidechainPort, createFixtureSidechainPort } from '../testing/sidechainPort';
import { createJsonRpcServer } from './jsonRpcServer';

/** A smaller body limit than the default keeps oversized bodies cheap to send; the rule is the same. */
const BODY_LIMIT = 256 * 1024;
const BATCH_LIMIT = 1000;

type Expect =
  | { kind: 'any' }
  | { kind: 'exact'; text: string }
  | { kind: 'json'; value: unknown }
  | { kind: 'paramsOrResult'; idRaw: string }
  | { kind: 'tooLarge' };

interface Case {
  name: string;
  body: string | Uint8Array;
  expect: Expect;
}

const errText = (idRaw: string, code: number, message: string): string =>
  `{"jsonrpc":"2.0","id":${idRaw},"error":${JSON.stringify({ code, message })}}`;
const PARSE_ERROR = errText('null', -32700, 'parse error');
const invalid = (idRaw: string): string => errText(idRaw, -32600, 'invalid request');
const callText = (idRaw: string, method: string, paramsRaw?: string): string =>
  `{"jsonrpc":"2.0","id":${idRaw},"method":${JSON.stringify(method)}${paramsRaw !== undefined ? `,"params":${paramsRaw}` : ''}}`;

// --- generators -------------------------------------------------------------------------------------

const CALL_START = /^[\s]*[{["tfn\-0-9]/;

const randomBodyBytes: fc.Arbitrary<Case> = fc.uint8Array({ maxLength: 300 }).map((bytes) => {
  const text = Buffer.from(bytes).toString('utf8');
  // Text that cannot begin a JSON value is a parse error whatever follows.
  return {
    name: 'random bytes',
    body: bytes,
    expect: CALL_START.test(text) ? { kind: 'any' } : { kind: 'exact', text: PARSE_ERROR },
  };
});

const validRequestText = fc.oneof(
  fc.constant(callText('1', 'eth_chainId', '[]')),
  fc.constant(`[${callText('1', 'eth_blockNumber')},${callText('"b"', 'eth_getBlockByNumber', '["latest",false]')}]`),
  fc.constant(callText('7', 'sidechain_getSigners', '["0x3"]')),
);
const badJson: fc.Arbitrary<Case> = fc
  .tuple(validRequestText, fc.nat(), fc.constantFrom('', ',', '}', ']', '"', ':', 'x', '\\'))
  .map(([text, at, tail]) => {
    // Any proper prefix of an object or array, plus junk that cannot close it, is not JSON.
    const cut = text.slice(0, at % (text.length - 1));
    const body = tail === '}' || tail === ']' ? cut : cut + tail;
    return { name: 'truncated JSON', body, expect: { kind: 'exact', text: PARSE_ERROR } };
  });

const wrongVersion: fc.Arbitrary<Case> = fc
  .tuple(
    fc.constantFrom(
      '"1.0"',
      '"2"',
      '2.0',
      '2',
      'null',
      '""',
      '"2.0 "',
      '" 2.0"',
      'true',
      '{}',
      '[]',
      '"２.0"',
      '"2.00"',
      'omit',
    ),
    fc.integer({ min: -1000, max: 1000 }),
  )
  .map(([v, id]) => {
    const version = v === 'omit' ? '' : `"jsonrpc":${v},`;
    return {
      name: 'wrong jsonrpc version',
      body: `{${version}"id":${id},"method":"eth_chainId","params":[]}`,
      expect: { kind: 'exact', text: invalid(String(id)) },
    };
  });

const scalarIdRaw = fc.oneof(
  fc.string({ maxLength: 20 }).map((s) => JSON.stringify(s)),
  fc.string({ unit: 'binary', maxLength: 10 }).map((s) => JSON.stringify(s)),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.constantFrom('true', 'false', 'null', '-0', '1e999', '0.0000001', '1E+2', '123.4500'),
);
const oddIds: fc.Arbitrary<Case> = fc.oneof(
  scalarIdRaw.map(
    (idRaw) =>
      ({
        name: 'odd scalar id',
        body: callText(idRaw, 'eth_chainId'),
        expect: { kind: 'exact', text: `{"jsonrpc":"2.0","id":${idRaw},"result":"0x3a99"}` },
      }) satisfies Case,
  ),
  fc
    .oneof(
      fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
    )
    .map(
      (id) =>
        ({
          name: 'object or array id',
          body: callText(JSON.stringify(id), 'eth_chainId'),
          expect: { kind: 'exact', text: invalid('null') },
        }) satisfies Case,
    ),
);

const hugeNumber = fc.constantFrom(
  '1e400',
  '-1e400',
  '18446744073709551616',
  '18446744073709551615',
  '-1',
  '1.5',
  '99999999999999999999999999999999999999',
  '0.0',
  '-0',
  '1e2',
);
const junkArg = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
  hugeNumber,
  fc.constantFrom(
    '"latest"',
    '"0x0"',
    '"0x01"',
    '"0xffffffffffffffff"',
    '"0x"',
    `"0x${'ab'.repeat(32)}"`,
    '{"blockNumber":"0x1"}',
  ),
);
const badParams: fc.Arbitrary<Case> = fc
  .tuple(
    fc.constantFrom(...RPC_METHODS),
    fc.oneof(
      fc
        .dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 })
        .map((o) => ({ raw: JSON.stringify(o), nonArray: true })),
      fc.string({ maxLength: 10 }).map((s) => ({ raw: JSON.stringify(s), nonArray: true })),
      hugeNumber.map((raw) => ({ raw, nonArray: true })),
      fc.boolean().map((b) => ({ raw: String(b), nonArray: true })),
      fc.array(junkArg, { maxLength: 4 }).map((args) => ({ raw: `[${args.join(',')}]`, nonArray: false })),
    ),
    fc.integer({ min: 0, max: 1_000_000 }),
  )
  .map(([method, params, id]) => ({
    name: 'params of odd shapes',
    body: callText(String(id), method, params.raw),
    expect: params.nonArray
      ? { kind: 'exact', text: errText(String(id), -32602, 'non-array args') }
      : { kind: 'paramsOrResult', idRaw: String(id) },
  }));

const knownMethods = new Set(RPC_METHODS);
const unknownMethod: fc.Arbitrary<Case> = fc
  .tuple(
    fc.oneof(
      fc.string({ minLength: 1, maxLength: 40 }),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }),
      fc.constantFrom(
        'eth_sendTransaction',
        'bor_getSigners',
        'constructor',
        '__proto__',
        'toString',
        'eth_getLogs',
        'debug_setHead',
      ),
    ),
    fc.nat(),
  )
  .filter(([m]) => !knownMethods.has(m) && !m.endsWith('_subscribe') && !m.endsWith('_unsubscribe'))
  .map(([method, id]) => ({
    name: 'unknown method',
    body: callText(String(id), method, '[]'),
    expect: {
      kind: 'json',
      value: {
        jsonrpc: '2.0',
        id,
        error: { code: -32601, message: `the method ${method} does not exist/is not available` },
      },
    },
  }));

const nestedBatch: fc.Arbitrary<Case> = fc
  .array(fc.array(validRequestText, { maxLength: 3 }), { minLength: 1, maxLength: 5 })
  .map((inner) => ({
    name: 'nested batches',
    body: `[${inner.map((xs) => `[${xs.join(',')}]`).join(',')}]`,
    expect: { kind: 'exact', text: `[${inner.map(() => invalid('null')).join(',')}]` },
  }));

const hugeBatch: fc.Arbitrary<Case> = fc
  .tuple(fc.integer({ min: BATCH_LIMIT + 1, max: BATCH_LIMIT + 300 }), fc.integer({ min: 0, max: 10 }))
  .map(([n, leadingNotifications]) => {
    const items = Array.from({ length: n }, (_, i) =>
      i < leadingNotifications ? '{"jsonrpc":"2.0","method":"eth_chainId"}' : callText(String(i), 'eth_chainId'),
    );
    return {
      name: 'huge batch',
      body: `[${items.join(',')}]`,
      expect: {
        kind: 'exact',
        text: `[${errText(String(Math.min(leadingNotifications, n - 1)), -32600, 'batch too large')}]`,
      },
    };
  });

const oversized: fc.Arbitrary<Case> = fc
  .tuple(fc.integer({ min: 1, max: 4096 }), fc.constantFrom(0x20, 0x5b, 0x7b, 0x61))
  .map(([extra, byte]) => ({
    name: 'oversized body',
    body: new Uint8Array(BODY_LIMIT + extra).fill(byte),
    expect: { kind: 'tooLarge' },
  }));

/** Failures print a case by its kind and the start of its body, not megabytes of bytes. */
function printable(c: Case): Case {
  const body = typeof c.body === 'string' ? c.body : Buffer.from(c.body).toString('latin1');
  const shown = body.length > 200 ? `${body.slice(0, 200)}… (${body.length} bytes)` : body;
  return Object.assign(c, { [fc.toStringMethod]: () => `${c.name}: ${JSON.stringify(shown)}` });
}

const anyCase: fc.Arbitrary<Case> = fc
  .oneof(
    { arbitrary: randomBodyBytes, weight: 4 },
    { arbitrary: badJson, weight: 3 },
    { arbitrary: wrongVersion, weight: 3 },
    { arbitrary: oddIds, weight: 4 },
    { arbitrary: badParams, weight: 5 },
    { arbitrary: unknownMethod, weight: 3 },
    { arbitrary: nestedBatch, weight: 2 },
    { arbitrary: hugeBatch, weight: 1 },
    { arbitrary: oversized, weight: 1 },
  )
  .map(printable);

// --- the checks -------------------------------------------------------------------------------------------

const PARAMS_MESSAGE =
  /^(invalid argument \d+: .+|missing value for required argument \d+|too many arguments, want at most \d+|non-array args)$/;

/** One response object: exactly one of result / error, and an error's message fits its code. */
function checkResponseObject(o: unknown): void {
  expect(typeof o === 'object' && o !== null && !Array.isArray(o)).toBe(true);
  const r = o as Record<string, unknown>;
  expect(r.jsonrpc).toBe('2.0');
  expect(Object.hasOwn(r, 'id')).toBe(true);
  expect(Object.hasOwn(r, 'result') !== Object.hasOwn(r, 'error')).toBe(true);
  expect(Object.keys(r)).toHaveLength(3);
  if (!Object.hasOwn(r, 'error')) return;
  const e = r.error as { code: unknown; message: unknown };
  expect(Object.keys(e).sort((a, b) => (a < b ? -1 : 1))).toEqual(['code', 'message']);
  expect(typeof e.message).toBe('string');
  const message = e.message as string;
  switch (e.code) {
    case -32700:
      expect(message).toBe('parse error');
      expect(r.id).toBeNull();
      break;
    case -32600:
      expect(message).toMatch(
        /^(invalid request|empty batch|batch too large|method name too long: \d+ > 2048|content length too large \(\d+>\d+\))$/,
      );
      break;
    case -32601:
      expect(message).toMatch(/^(the method .* does not exist\/is not available|notifications not supported)$/s);
      break;
    case -32602:
      expect(message).toMatch(PARAMS_MESSAGE);
      break;
    case -32000:
    case -32003:
      expect(message.length).toBeGreaterThan(0);
      break;
    default:
      throw new Error(`unexpected error code ${String(e.code)}: ${message}`);
  }
}

function checkWellFormed(status: number, text: string): void {
  expect([200, 413]).toContain(status);
  if (text === '') {
    expect(status).toBe(200);
    return;
  }
  const body = JSON.parse(text) as unknown;
  if (Array.isArray(body)) {
    expect(status).toBe(200);
    expect(body.length).toBeGreaterThan(0);
    body.forEach(checkResponseObject);
  } else {
    checkResponseObject(body);
  }
}

let port: FixtureSidechainPort;
let app: FastifyInstance;
let url: string;

beforeAll(async () => {
  port = createFixtureSidechainPort();
  app = createJsonRpcServer(port, { bodyLimitBytes: BODY_LIMIT, batchItemLimit: BATCH_LIMIT });
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await app.close();
});

async function post(body: string | Uint8Array): Promise<{ status: number; text: string; contentType: string | null }> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: r.status, text: await r.text(), contentType: r.headers.get('content-type') };
}

describe('JSON-RPC server fuzz: malformed requests (property)', () => {
  it('every answer is well-formed and the one geth gives; the server keeps serving; the chain is untouched', async () => {
    const headBefore = port.chain.head().block.hash;
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(anyCase, async (c) => {
        seen.set(c.name, (seen.get(c.name) ?? 0) + 1);
        const r = await post(c.body);
        expect(r.contentType).toBe('application/json');
        checkWellFormed(r.status, r.text);
        switch (c.expect.kind) {
          case 'exact':
            expect(r.status).toBe(200);
            expect(r.text).toBe(c.expect.text);
            break;
          case 'json':
            expect(r.status).toBe(200);
            expect(JSON.parse(r.text)).toEqual(c.expect.value);
            break;
          case 'paramsOrResult': {
            expect(r.status).toBe(200);
            expect(r.text.startsWith(`{"jsonrpc":"2.0","id":${c.expect.idRaw},`)).toBe(true);
            const o = JSON.parse(r.text) as { error?: { code: number } };
            if (o.error) expect([-32602, -32000]).toContain(o.error.code);
            break;
          }
          case 'tooLarge':
            expect(r.status).toBe(413);
            expect(r.text).toBe(errText('null', -32600, `content length too large (${c.body.length}>${BODY_LIMIT})`));
            break;
          case 'any':
            break;
        }
      }),
      { numRuns: 600 },
    );
    // Every kind of input was tried.
    expect([...seen.keys()].sort((a, b) => (a < b ? -1 : 1))).toEqual(
      [
        'huge batch',
        'nested batches',
        'object or array id',
        'odd scalar id',
        'oversized body',
        'params of odd shapes',
        'random bytes',
        'truncated JSON',
        'unknown method',
        'wrong jsonrpc version',
      ].sort((a, b) => (a < b ? -1 : 1)),
    );
    expect([...seen.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(500);
    // Still serving, and nothing moved the chain.
    expect(JSON.parse((await post(callText('1', 'eth_getBlockByNumber', '["latest",false]'))).text)).toMatchObject({
      id: 1,
      result: { hash: headBefore, number: '0xe' },
    });
    expect(port.chain.head().block.hash).toBe(headBefore);
    expect(port.setHeadCalls).toEqual([]);
  });
});
