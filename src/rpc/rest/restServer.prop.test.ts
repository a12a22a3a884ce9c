/**
 * Fuzzing the REST server with malformed requests (fast-check, the project's fixed seed): bad JSON,
 * wrong member types, out-of-range and negative numbers, unknown paths and methods, odd unicode and
 * percent-encoding, arrays for objects, missing members, oversized bodies, odd content types.
 * Every answer must be a well-formed reply (a 200 only where the request was in fact valid, else a
 * 4xx/5xx with exactly `{"error": string}`), no answer may be an internal error, the server must
 * keep serving, and the chain's state must not move.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type FastifyInstance } from 'fastify';
import { canonicalJson } from '../../core/canonicalJson';
import { signTx, txJson } from '../../modules/auth/stdTx';
import { MsgSendDef } from '../../modules/bank/msgs';
import { testKey } from '../../app/testing/testChain';
import { appServiceFixture, type AppServiceFixture } from '../testing/appServicePort';
import { createRestServer, DEFAULT_BODY_LIMIT_BYTES } from './restServer';

/** A JSON template whose member values are raw JSON text, so mutations can write what JSON.stringify cannot (1e400). */
type Template = Array<[string, string | Template]>;

function render(t: Template): string {
  return `{${t.map(([k, v]) => `${JSON.stringify(k)}:${typeof v === 'string' ? v : render(v)}`).join(',')}}`;
}

const raw = (v: unknown) => JSON.stringify(v);

/** Values that have broken decoders elsewhere: out of range, negative, fractional, wrong type, odd text. */
const WEIRD_TOKENS = [
  '1e400',
  '-1e400',
  '18446744073709551616',
  '18446744073709551615',
  '9007199254740993',
  '-1',
  '-0',
  '0.5',
  '1e2',
  '00',
  '"-1"',
  '"1e400"',
  '"18446744073709551616"',
  '"0x"',
  '"0xzz"',
  '"0X"',
  '""',
  '"\\u0000"',
  '"\\ud800"',
  '"☃"',
  '"😀"',
  '[]',
  '{}',
  'null',
  'true',
  'false',
  '[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]',
  '{"__proto__":{"polluted":1}}',
  `"0x${'0'.repeat(40)}"`,
  `"0x${'f'.repeat(64)}"`,
  `"${'a'.repeat(5000)}"`,
  '[1,2,3]',
  '{"i":"1"}',
  '"constructor"',
];

const CONTENT_TYPES = [
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  '',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  ';;;',
  'application/json; charset=latin1',
];

const SEGMENTS = [
  'sidechain',
  'span',
  'latest-span',
  'params',
  'auth',
  'accounts',
  'sequence',
  'staking',
  'validator',
  'validator-set',
  'checkpoints',
  'checkpoint',
  'buffer',
  'count',
  'latest',
  'list',
  'parama',
  'prepare',
  'overview',
  'topup',
  'txs',
  'new',
  'ack',
  'no-ack',
  'fee',
  'withdraw',
  'clerk',
  'event-record',
  'dividend-account',
  '0',
  '1',
  '99',
  '-1',
  '1e400',
  '18446744073709551616',
  '0x00',
  '..',
  '.',
  '',
  `0x${'ab'.repeat(20)}`,
  '%2F',
  '%2E%2E',
  '%00',
  '%20',
  '%',
  '%z',
  '%zz',
  '%E0%A4%A',
  '%C0%AF',
  '%FF%FE',
  '%F0%9F%98%80',
  '%u0041',
  '☃',
];

describe('REST server fuzz (1100 requests)', () => {
  let f: AppServiceFixture;
  let server: FastifyInstance;
  const templates: Record<string, Template> = {};

  beforeAll(() => {
    f = appServiceFixture({ checkpoints: true });
    server = createRestServer(f.port);
    const [a, b] = f.chain.validators;
    const base: Template = [
      ['from', raw(a!.address)],
      ['chain_id', raw(f.chain.chainId)],
      ['memo', '""'],
      ['account_number', '"0"'],
      ['sequence', '"0"'],
    ];
    // Signed for another chain: it decodes, but CheckTx refuses it (code 4), so no mutation of it can
    // ever be committed and the state must stay put whatever the fuzzer sends.
    const tx = signTx(
      MsgSendDef,
      { fromAddress: a!.address, toAddress: testKey('fuzz').address, amount: [{ denom: 'matic', amount: 1n }] },
      { chainId: 'other-chain', accountNumber: 0n, sequence: 0n, memo: '' },
      a!.privateKey,
    );
    const txObj = JSON.parse(canonicalJson(txJson(tx))) as {
      msg: { type: string; value: Record<string, unknown> };
      signature: string;
      memo: string;
    };
    const hash = raw(`0x${'cd'.repeat(32)}`);
    templates['/txs'] = [
      [
        'tx',
        [
          [
            'msg',
            [
              ['type', raw(txObj.msg.type)],
              ['value', Object.entries(txObj.msg.value).map(([k, v]) => [k, raw(v)] as [string, string])],
            ],
          ],
          ['signature', raw(txObj.signature)],
          ['memo', '""'],
        ],
      ],
      ['mode', '"sync"'],
    ];
    templates['/checkpoint/new'] = [
      ['base_req', base],
      ['proposer', raw(a!.address)],
      ['start_block', '"0"'],
      ['end_block', '"255"'],
      ['root_Hash', hash],
      ['account_root_hash', hash],
    ];
    templates['/checkpoint/ack'] = [
      ['base_req', base],
      ['from', raw(b!.address)],
      ['header_block', '"1"'],
      ['tx_hash', hash],
      ['log_index', '"0"'],
    ];
    templates['/checkpoint/no-ack'] = [
      ['base_req', base],
      ['proposer', raw(a!.address)],
    ];
    templates['/topup/fee'] = [
      ['base_req', base],
      ['id', '"1"'],
      ['tx_hash', hash],
      ['log_index', '"0"'],
    ];
    templates['/topup/withdraw'] = [
      ['base_req', base],
      ['amount', '""'],
    ];
  });
  afterAll(() => server.close());

  /** Replace, delete or add one member somewhere in the template (depth-first index). */
  function mutate(t: Template, at: number, kind: 'replace' | 'delete' | 'add', token: string): Template {
    let i = 0;
    const walk = (node: Template): Template => {
      const out: Template = [];
      for (const [k, v] of node) {
        const mine = i++ === at;
        if (mine && kind === 'delete') continue;
        if (mine && kind === 'replace') out.push([k, token]);
        else out.push([k, typeof v === 'string' ? v : walk(v)]);
        if (mine && kind === 'add') out.push([`unknown_${k}`, token]);
      }
      return out;
    };
    return walk(t);
  }

  const postPath = fc.constantFrom(
    '/txs',
    '/checkpoint/new',
    '/checkpoint/ack',
    '/checkpoint/no-ack',
    '/topup/fee',
    '/topup/withdraw',
  );
  const token = fc.oneof(
    fc.constantFrom(...WEIRD_TOKENS),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
  );

  const mutatedBody = fc
    .tuple(
      postPath,
      fc.nat(30),
      fc.constantFrom('replace', 'delete', 'add') as fc.Arbitrary<'replace' | 'delete' | 'add'>,
      token,
    )
    .map(([path, at, kind, tok]) => ({
      path,
      body: render(mutate(templates[path]!, at, kind, tok)),
    }));
  const junkBody = fc
    .tuple(
      postPath,
      fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.string({ unit: 'binary', maxLength: 100 }),
        fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? ''),
        fc.constantFrom(
          '{',
          '{"tx":',
          '[',
          '"',
          'nul',
          '{}}',
          '{"a":1,}',
          "{'a':1}",
          '\u0000',
          '\ufeff{}',
          '{"tx":{"msg":[]}}',
          '{"base_req":[],"proposer":1}',
        ),
        fc.constantFrom(...WEIRD_TOKENS),
        // Over the limit: a valid-looking JSON string one byte too long.
        fc.constant(`"${'x'.repeat(DEFAULT_BODY_LIMIT_BYTES - 1)}"`),
      ),
    )
    .map(([path, body]) => ({ path, body }));

  const segment = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...SEGMENTS) },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ maxLength: 6 })
        .map((b) => [...b].map((x) => `%${x.toString(16).padStart(2, '0')}`).join('')),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }).map((s) => encodeURIComponent(s)) },
    {
      weight: 1,
      arbitrary: fc.string({ unit: fc.constantFrom(..."abcXYZ019-_.~!$&'()*+,;=:@".split('')), maxLength: 10 }),
    },
  );
  const query = fc.option(fc.string({ unit: fc.constantFrom(...'ab=&%?#1-+.'.split('')), maxLength: 30 }), {
    nil: undefined,
  });
  const path = fc
    .tuple(fc.array(segment, { maxLength: 6 }), query, fc.boolean())
    .map(([segs, q, slashes]) => `${slashes ? '//' : '/'}${segs.join('/')}${q === undefined ? '' : `?${q}`}`);

  type Req = { method: string; url: string; body?: string; contentType?: string };
  const request: fc.Arbitrary<Req> = fc.oneof(
    { weight: 4, arbitrary: path.map((url) => ({ method: 'GET', url })) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(mutatedBody, fc.constantFrom(...CONTENT_TYPES.slice(0, 4)))
        .map(([b, ct]) => ({ method: 'POST', url: b.path, body: b.body, contentType: ct ?? 'application/json' })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(junkBody, fc.constantFrom(...CONTENT_TYPES))
        .map(([b, ct]) => ({ method: 'POST', url: b.path, body: b.body, contentType: ct })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom('PUT', 'DELETE', 'PATCH', 'OPTIONS', 'POST', 'HEAD', 'PROPFIND'),
          fc.oneof(path, postPath),
          fc.option(fc.string({ maxLength: 50 }), { nil: undefined }),
        )
        .map(([method, url, body]) => ({
          method,
          url,
          body: method === 'HEAD' ? undefined : body,
          contentType: 'application/json',
        })),
    },
  );

  it('800 malformed requests: every answer is well-formed, no internal errors, the state does not move, the server keeps serving', async () => {
    const before = { hash: f.chain.app.appHash, height: f.chain.app.height, state: f.chain.app.exportState() };
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(request, async (req) => {
        const r = await server.inject({
          method: req.method as 'GET',
          url: req.url,
          ...(req.body === undefined ? {} : { payload: req.body }),
          headers: req.contentType === undefined ? {} : { 'content-type': req.contentType },
        });
        statuses.set(r.statusCode, (statuses.get(r.statusCode) ?? 0) + 1);
        expect(r.statusCode).toBeGreaterThanOrEqual(200);
        expect(r.statusCode).toBeLessThan(600);
        if (req.method === 'HEAD') return;
        expect(r.headers['content-type']).toMatch(/^application\/json/);
        const body = JSON.parse(r.body) as Record<string, unknown>;
        if (r.statusCode === 200) {
          if (req.method === 'GET') expect(typeof body.height).toBe('string');
          else if (req.url === '/txs') expect(body.code).not.toBe(0);
          else expect(body.type).toBe('auth/StdTx');
        } else {
          expect(r.statusCode).toBeGreaterThanOrEqual(400);
          expect(Object.keys(body)).toEqual(['error']);
          expect(typeof body.error).toBe('string');
          expect(body.error).not.toMatch(/^internal error/);
        }
      }),
      { numRuns: 800 },
    );
    expect({ hash: f.chain.app.appHash, height: f.chain.app.height, state: f.chain.app.exportState() }).toEqual(before);
    expect(f.port.mempool).toHaveLength(0);
    // The generator reached each kind of answer.
    for (const s of [200, 400, 401, 404, 405, 413, 415])
      expect(statuses.get(s) ?? 0, `status ${s} in ${JSON.stringify([...statuses])}`).toBeGreaterThan(0);
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(800);
    // Still serving.
    expect((await server.inject('/checkpoints/latest')).json().result.id).toBe(1);
  });

  it('300 requests to known routes with hostile parameter values: answered by the router, never an internal error', async () => {
    const before = f.chain.app.exportState();
    const ROUTES = [
      '/sidechain/span/{n}',
      '/sidechain/span/list?page={n}&limit={n}',
      '/staking/validator/{n}',
      '/staking/signer/{a}',
      '/staking/proposer/{n}',
      '/staking/isoldtx?txhash={h}&logindex={n}',
      '/checkpoints/{n}',
      '/checkpoints/list?page={n}&limit={n}',
      '/checkpoints/prepare?start={n}&end={n}',
      '/clerk/event-record/{n}',
      '/clerk/event-record/list?from-id={n}&to-time={n}&page={n}&limit={n}',
      '/clerk/event-record/list?from-time={n}&to-time={n}&page={n}&limit={n}',
      '/topup/isoldtx?txhash={h}&logindex={n}',
      '/topup/dividend-account/{n}',
      '/auth/accounts/{a}',
      '/auth/accounts/{a}/sequence',
      '/overview?height={n}',
    ];
    const n = fc.oneof(
      fc.constantFrom(
        '0',
        '1',
        '2',
        '255',
        '256',
        '511',
        '-1',
        '1e400',
        '18446744073709551615',
        '18446744073709551616',
        '9007199254740993',
        '',
        'x',
        '%20',
        '0x10',
        '1.5',
        '+1',
        ' 1',
        '%zz',
      ),
      fc.bigInt({ min: 0n, max: 1n << 70n }).map(String),
    );
    const a = fc.constantFrom(
      f.chain.validators[0]!.address,
      f.chain.validators[0]!.address.toUpperCase(),
      `0x${'00'.repeat(20)}`,
      '0x12',
      'alice',
      '',
      '%00',
      `0x${'ab'.repeat(20)}`,
    );
    const h = fc.constantFrom(`0x${'ab'.repeat(32)}`, '0x', '0xzz', '', `0x${'ab'.repeat(33)}`, 'ab'.repeat(32));
    const url = fc
      .tuple(fc.constantFrom(...ROUTES), fc.array(fc.tuple(n, a, h), { minLength: 4, maxLength: 4 }))
      .map(([route, vals]) => {
        let i = 0;
        return route.replace(/\{([nah])\}/g, (_m, kind: string) => {
          const [nv, av, hv] = vals[i++]!;
          return kind === 'n' ? nv : kind === 'a' ? av : hv;
        });
      });
    await fc.assert(
      fc.asyncProperty(url, async (u) => {
        const r = await server.inject(u);
        const body = r.json() as Record<string, unknown>;
        if (r.statusCode === 200) expect(typeof body.height).toBe('string');
        else {
          expect(r.statusCode).toBeGreaterThanOrEqual(400);
          expect(Object.keys(body)).toEqual(['error']);
          expect(body.error).not.toMatch(/^internal error/);
        }
      }),
      { numRuns: 300 },
    );
    expect(f.chain.app.exportState()).toBe(before);
  });
});
