/**
 * The REST server over a real ServiceApp (src/rpc/testing/appServicePort.ts): every GET endpoint of
 * the spec's table with the spec's fields, POST /txs in each mode, the prepare endpoints and their
 * BaseReq rules, the error bodies and statuses, and one real socket.
 */
import { restQueryReply } from './queryReply';
import { type QueryAnswer } from '../../app/queryRouter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { type Address } from '../../core/address';
import { canonicalJson } from '../../core/canonicalJson';
import { abciLog } from '../../core/errors';
import { type TestChain, type TestKey, testKey, TOKEN } from '../../app/testing/testChain';
import { MSG_REGISTRY } from '../../app/registry';
import { type MsgDef } from '../../modules/framework/msgDef';
import { encodeTx, signTx, txHash, txJson } from '../../modules/auth/stdTx';
import { MsgSendDef } from '../../modules/bank/msgs';
import { BroadcastTimeoutError, type ServicePort } from '../ports';
import { appServiceFixture, type AppServiceFixture } from '../testing/appServicePort';
import { createRestServer } from './restServer';

function expectError(r: LightMyRequestResponse, status: number, message?: string | RegExp): void {
  expect(r.statusCode, r.body).toBe(status);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  const body = r.json() as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(['error']);
  expect(typeof body.error).toBe('string');
  if (typeof message === 'string') expect(body.error).toBe(message);
  else if (message) expect(body.error).toMatch(message);
}

/** A signed tx in its JSON form, signed against the mempool's account state. */
function signedJson<M>(
  chain: TestChain,
  def: MsgDef<M>,
  msg: M,
  key: TestKey,
  opts: { signer?: TestKey; chainId?: string } = {},
) {
  const acc = chain.app.signingAccount(key.address) ?? { accountNumber: 0n, sequence: 0n };
  const tx = signTx(
    def,
    msg,
    { chainId: opts.chainId ?? chain.chainId, accountNumber: acc.accountNumber, sequence: acc.sequence, memo: '' },
    (opts.signer ?? key).privateKey,
  );
  return { tx, json: JSON.parse(canonicalJson(txJson(tx))) as Record<string, unknown> };
}

const sendMsg = (from: Address, to: Address, amount: bigint) => ({
  fromAddress: from,
  toAddress: to,
  amount: [{ denom: 'matic', amount }],
});

describe('GET: every endpoint of the spec table, from a chain with a checkpoint history', () => {
  let f: AppServiceFixture;
  let server: FastifyInstance;
  beforeAll(() => {
    f = appServiceFixture({ checkpoints: true });
    server = createRestServer(f.port);
  });
  afterAll(() => server.close());

  const endpoints: Array<[string, string[]]> = [
    [
      '/sidechain/span/0',
      ['span_id', 'start_block', 'end_block', 'validator_set', 'selected_producers', 'sidechain_chain_id'],
    ],
    [
      '/sidechain/latest-span',
      ['span_id', 'start_block', 'end_block', 'validator_set', 'selected_producers', 'sidechain_chain_id'],
    ],
    ['/sidechain/params', ['sprint_duration', 'span_duration', 'producer_count']],
    ['/auth/accounts/{address}', ['type', 'value']],
    ['/auth/accounts/{address}/sequence', ['address', 'account_number', 'sequence']],
    [
      '/auth/params',
      [
        'max_memo_characters',
        'tx_sig_limit',
        'tx_size_cost_per_byte',
        'sig_verify_cost_ed25519',
        'sig_verify_cost_secp256k1',
        'max_tx_gas',
        'tx_fees',
      ],
    ],
    ['/staking/validator-set', ['validators', 'proposer']],
    ['/staking/validator/1', ['ID', 'startEpoch', 'endEpoch', 'power', 'pubKey', 'signer', 'last_updated', 'accum']],
    ['/checkpoints/1', ['id', 'proposer', 'startBlock', 'endBlock', 'rootHash', 'accountRootHash', 'timestamp']],
    ['/checkpoints/buffer', ['proposer', 'startBlock', 'endBlock', 'rootHash', 'accountRootHash', 'timestamp']],
    ['/checkpoints/count', ['result']],
    ['/checkpoints/last-no-ack', ['result']],
    ['/checkpoints/latest', ['id', 'proposer', 'startBlock', 'endBlock', 'rootHash', 'accountRootHash', 'timestamp']],
    ['/checkpoints/list?page=1&limit=10', ['0']],
    [
      '/checkpoints/parama',
      ['checkpoint_buffer_time', 'avg_checkpoint_length', 'max_checkpoint_length', 'child_chain_block_interval'],
    ],
    ['/checkpoints/prepare?start=0&end=255', ['proposer', 'rootHash', 'startBlock', 'endBlock']],
    ['/overview', ['ack_count', 'checkpoint_buffer', 'validator_count', 'validator_set', 'last_noack_time']],
  ];

  it.each(endpoints)(
    '%s: 200, {height, result} with the spec fields, exactly what the port answered',
    async (path, keys) => {
      const url = path.replace('{address}', f.chain.validators[0]!.address);
      const r = await server.inject({ method: 'GET', url });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      const body = r.json() as { height: string; result: Record<string, unknown> };
      expect(body.height).toBe(f.chain.app.height.toString());
      expect(Object.keys(body.result)).toEqual(keys);
      expect(body).toEqual(restQueryReply(f.port.query(url)).body);
    },
  );

  it('the account and sequence answers carry the spec fields', async () => {
    const a = f.chain.validators[0]!.address;
    const acc = (await server.inject(`/auth/accounts/${a}`)).json().result;
    expect(acc.type).toBe('auth/Account');
    expect(Object.keys(acc.value)).toEqual(['address', 'coins', 'public_key', 'account_number', 'sequence']);
    expect(acc.value.address).toBe(a);
  });

  it('a HEAD answers the GET status with no body', async () => {
    const r = await server.inject({ method: 'HEAD', url: '/sidechain/params' });
    expect(r.statusCode).toBe(200);
    expect(r.body).toBe('');
  });
});

describe('GET: error answers pass through the router; nothing crashes the server', () => {
  let f: AppServiceFixture;
  let server: FastifyInstance;
  beforeAll(() => {
    f = appServiceFixture();
    server = createRestServer(f.port);
  });
  afterAll(() => server.close());

  it('a chain without checkpoints: the reference statuses for the empty cases', async () => {
    const querierError = (message: string) => abciLog({ codespace: 'sdk', code: 1, message });
    expectError(
      await server.inject('/checkpoints/buffer'),
      500,
      querierError('could not fetch checkpoint buffer; No checkpoint found in buffer'),
    );
    expectError(
      await server.inject('/checkpoints/latest'),
      400,
      querierError('could not fetch checkpoint by index 0; Invalid checkpoint Index'),
    );
    expectError(
      await server.inject('/checkpoints/1'),
      400,
      querierError('could not fetch checkpoint by index 1; Invalid checkpoint Index'),
    );
    expect((await server.inject('/checkpoints/list?page=1&limit=10')).json()).toEqual({ height: '0', result: null });
    expectError(
      await server.inject('/checkpoints/prepare?start=0&end=255'),
      400,
      'could not get root hash: blocks not available',
    );
  });

  it('unknown paths are 404 {"error"}; bad values are the router\'s 400s', async () => {
    expectError(await server.inject('/no/such/thing'), 404, 'no route for "/no/such/thing"');
    expectError(await server.inject('/'), 404);
    expectError(await server.inject('/staking/validator/x'), 400, "'x' is not a valid uint64");
    expectError(
      await server.inject('/staking/validator/18446744073709551616'),
      400,
      "'18446744073709551616' is not a valid uint64",
    );
    expectError(await server.inject('/staking/validator/-1'), 400);
    expectError(await server.inject('/auth/accounts/0x00'), 404, 'Invalid address');
    expectError(await server.inject('/checkpoints/list'), 400, 'page and limit query params required');
    expectError(await server.inject('/checkpoints/list?page=1e400&limit=1'), 400, "'1e400' is not a valid uint64");
  });

  it('percent-encoding: decoded by the router; broken encodings are 400 {"error"}', async () => {
    expect((await server.inject('/sidechain/span/%30')).statusCode).toBe(200);
    expect((await server.inject('/sidechain%2Fparams')).statusCode).toBe(200);
    expectError(await server.inject('/%zz'), 400, /^malformed URL/);
    expectError(await server.inject('/sidechain/span/%E0%A4%A'), 400, /^malformed URL/);
    expectError(await server.inject('/sidechain/span/%F0%9F%98%80'), 400, /is not a valid uint64/);
    expect((await server.inject('/sidechain/params?x=%zz&&&=&%')).statusCode).toBe(200);
  });

  it('a scheme-relative path does not smuggle a host segment past the router', async () => {
    expectError(await server.inject('//evil.example/sidechain/params'), 404);
    expectError(await server.inject('///sidechain/params/x'), 404);
  });

  it('very long paths and query strings', async () => {
    expectError(await server.inject('/' + 'a/'.repeat(50_000)), 404);
    expectError(await server.inject('/staking/validator/' + '9'.repeat(100_000)), 400);
    expect((await server.inject('/sidechain/params?' + 'q=1&'.repeat(20_000))).statusCode).toBe(200);
  });

  it('a query that throws is a 500 {"error"} and the server keeps serving', async () => {
    let throwNext = true;
    const flaky: ServicePort = {
      chainId: f.port.chainId,
      query: (p) => {
        if (throwNext) {
          throwNext = false;
          throw new Error('store closed');
        }
        return f.port.query(p);
      },
      broadcast: (tx, mode) => f.port.broadcast(tx, mode),
    };
    const s = createRestServer(flaky);
    expectError(await s.inject('/sidechain/params'), 500, 'internal error: store closed');
    expect((await s.inject('/sidechain/params')).statusCode).toBe(200);
    // An answer that is not a query answer at all is a bug in the port: a 500, not a crash.
    const badStatus = createRestServer({ ...flaky, query: () => ({}) as QueryAnswer });
    expectError(await badStatus.inject('/sidechain/params'), 500, /internal error/);
    await Promise.all([s.close(), badStatus.close()]);
  });

  it('methods: POST paths refuse GET and PUT with 405 (Allow: POST); read paths refuse writes with 405 (Allow: GET)', async () => {
    for (const [method, url, allow] of [
      ['GET', '/txs', 'POST'],
      ['PUT', '/txs', 'POST'],
      ['DELETE', '/checkpoint/new', 'POST'],
      ['GET', '/topup/fee?x=1', 'POST'],
      ['POST', '/auth/params', 'GET, HEAD'],
      ['DELETE', '/auth/params', 'GET, HEAD'],
      ['PATCH', '/nowhere', 'GET, HEAD'],
      ['PUT', '/txs/', 'POST'],
      ['GET', '/checkpoint/no-ack/', 'POST'],
      ['OPTIONS', '/sidechain/params', 'GET, HEAD'],
    ] as const) {
      const r = await server.inject({ method, url, payload: method === 'GET' ? undefined : '{}' });
      expectError(r, 405, new RegExp(`^method ${method} not allowed`));
      expect(r.headers.allow).toBe(allow);
    }
  });
});

describe('POST /txs', () => {
  let f: AppServiceFixture;
  let server: FastifyInstance;
  const recipient = testKey('rest-recipient');
  beforeAll(() => {
    f = appServiceFixture();
    server = createRestServer(f.port);
  });
  afterAll(() => server.close());

  const sequenceOf = async (a: Address) =>
    (await server.inject(`/auth/accounts/${a}/sequence`)).json().result.sequence as string;
  const balanceOf = async (a: Address) => {
    const coins = (await server.inject(`/auth/accounts/${a}`)).json().result.value.coins as Array<{
      denom: string;
      amount: { i: string };
    }>;
    return BigInt(coins.find((c) => c.denom === 'matic')?.amount.i ?? '0');
  };

  it('sync: CheckTx passes (code 0, height "0", the tx hash of the canonical bytes); the next block moves the coins, sequence +1', async () => {
    const sender = f.chain.validators[0]!;
    const { tx, json } = signedJson(
      f.chain,
      MsgSendDef,
      sendMsg(sender.address, recipient.address, 5n * TOKEN),
      sender,
    );
    const before = await sequenceOf(sender.address);
    const r = await server.inject({ method: 'POST', url: '/txs', payload: { tx: json } });
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({ height: '0', code: 0, raw_log: '' });
    expect(body.txhash).toBe(txHash(encodeTx(tx)).slice(2).toUpperCase());
    expect(f.port.mempool).toHaveLength(1);
    f.port.commitMempool();
    expect(await sequenceOf(sender.address)).toBe((BigInt(before) + 1n).toString());
    expect(await balanceOf(recipient.address)).toBe(5n * TOKEN);
  });

  it('block: answers after the commit with the height, gas and the tx events; coins moved, sequence +1', async () => {
    const sender = f.chain.validators[1]!;
    const { json } = signedJson(f.chain, MsgSendDef, sendMsg(sender.address, recipient.address, 2n * TOKEN), sender);
    const before = {
      seq: await sequenceOf(sender.address),
      bal: await balanceOf(recipient.address),
      height: f.chain.app.height,
    };
    const r = await server.inject({ method: 'POST', url: '/txs', payload: { tx: json, mode: 'block' } });
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({ height: (before.height + 1n).toString(), code: 0, raw_log: '' });
    expect(body.txhash).toMatch(/^[0-9A-F]{64}$/);
    expect(BigInt(body.gas_used)).toBeGreaterThan(0n);
    expect(body.logs[0].events).toContainEqual({
      type: 'transfer',
      attributes: expect.arrayContaining([{ key: 'recipient', value: recipient.address }]),
    });
    expect(await sequenceOf(sender.address)).toBe((BigInt(before.seq) + 1n).toString());
    expect(await balanceOf(recipient.address)).toBe(before.bal + 2n * TOKEN);
  });

  it('async: code 0 at once; the prepared {"type":"auth/StdTx","value"} wrapper is accepted too', async () => {
    const sender = f.chain.validators[2]!;
    const { json } = signedJson(f.chain, MsgSendDef, sendMsg(sender.address, recipient.address, 1n), sender);
    const r = await server.inject({
      method: 'POST',
      url: '/txs',
      payload: { tx: { type: 'auth/StdTx', value: json }, mode: 'async' },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ height: '0', code: 0 });
    f.port.commitMempool();
  });

  it('a bad signature: 200 with code 4 and the ABCI log; nothing is committed, the app hash is unchanged', async () => {
    const sender = f.chain.validators[3]!;
    const { json } = signedJson(f.chain, MsgSendDef, sendMsg(sender.address, recipient.address, TOKEN), sender, {
      signer: f.chain.validators[0]!,
    });
    const before = { hash: f.chain.app.appHash, height: f.chain.app.height, state: f.chain.app.exportState() };
    for (const mode of ['sync', 'block'] as const) {
      const r = await server.inject({ method: 'POST', url: '/txs', payload: { tx: json, mode } });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toMatchObject({
        height: '0',
        code: 4,
        codespace: 'sdk',
        raw_log: abciLog({
          codespace: 'sdk',
          code: 4,
          message: 'signature verification failed; verify correct account sequence and chain-id',
        }),
      });
    }
    expect(f.port.mempool).toHaveLength(0);
    expect({ hash: f.chain.app.appHash, height: f.chain.app.height, state: f.chain.app.exportState() }).toEqual(before);
  });

  it('decode errors are 400 "failed to decode JSON payload: …" naming the field; nothing reaches the port', async () => {
    const sender = f.chain.validators[0]!;
    const { json } = signedJson(f.chain, MsgSendDef, sendMsg(sender.address, recipient.address, 1n), sender);
    const calls = f.port.calls.broadcast;
    const post = (payload: unknown) =>
      server.inject({
        method: 'POST',
        url: '/txs',
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
        headers: { 'content-type': 'application/json' },
      });
    const msg = json.msg as { type: string; value: Record<string, unknown> };
    expectError(await post({}), 400, 'failed to decode JSON payload: tx: is required');
    expectError(await post([json]), 400, 'failed to decode JSON payload: body: expected an object, got array');
    expectError(
      await post({ tx: json, mode: 'commit' }),
      400,
      'failed to decode JSON payload: mode: expected "sync", "async" or "block", got string "commit"',
    );
    expectError(await post({ tx: json, mode: 1 }), 400, /mode: expected/);
    expectError(
      await post({ tx: { ...json, msg: { ...msg, type: 'bank/Nope' } } }),
      400,
      'failed to decode JSON payload: tx.msg.type: unknown message type "bank/Nope"',
    );
    expectError(
      await post({ tx: { ...json, msg: { ...msg, value: { ...msg.value, to_address: '0x12' } } } }),
      400,
      /^failed to decode JSON payload: tx\.msg\.value\.to_address: /,
    );
    expectError(await post({ tx: { ...json, signature: 'zz' } }), 400, /^failed to decode JSON payload: tx\.signature/);
    expectError(
      await post({ tx: { ...json, extra: 1 } }),
      400,
      /^failed to decode JSON payload: tx\.extra: unknown field/,
    );
    expectError(await post('{"tx": 1e400}'), 400, /^failed to decode JSON payload: tx: expected an object/);
    expectError(await post('{"tx":'), 400, /^failed to decode JSON payload: /);
    expectError(await post(''), 400, /^failed to decode JSON payload: /);
    expectError(await server.inject({ method: 'POST', url: '/txs' }), 400, 'failed to decode JSON payload: empty body');
    expect(f.port.calls.broadcast).toBe(calls);
  });

  it('a broadcast timeout is 504; any other port failure is 500; the server keeps serving', async () => {
    const sender = f.chain.validators[0]!;
    const { json } = signedJson(f.chain, MsgSendDef, sendMsg(sender.address, recipient.address, 1n), sender);
    const failing = (e: unknown): ServicePort => ({
      chainId: 'x',
      query: (p) => f.port.query(p),
      broadcast: () => Promise.reject(e),
    });
    const t = createRestServer(failing(new BroadcastTimeoutError()));
    expectError(
      await t.inject({ method: 'POST', url: '/txs', payload: { tx: json, mode: 'block' } }),
      504,
      'timed out waiting for tx to be included in a block',
    );
    const b = createRestServer(failing('not even an Error'));
    expectError(
      await b.inject({ method: 'POST', url: '/txs', payload: { tx: json } }),
      500,
      'internal error: not even an Error',
    );
    expect((await b.inject('/auth/params')).statusCode).toBe(200);
    await Promise.all([t.close(), b.close()]);
  });
});

describe('POST /checkpoint/* and /topup/*: the prepared unsigned StdTx', () => {
  let f: AppServiceFixture;
  let server: FastifyInstance;
  let base: { from: Address; chain_id: string };
  const root = `0x${'11'.repeat(32)}`;
  const accountRoot = `0x${'22'.repeat(32)}`;
  beforeAll(() => {
    f = appServiceFixture();
    server = createRestServer(f.port);
    base = { from: f.chain.validators[0]!.address, chain_id: f.chain.chainId };
  });
  afterAll(() => server.close());

  const post = (url: string, payload: unknown) =>
    server.inject({
      method: 'POST',
      url,
      payload: JSON.stringify(payload),
      headers: { 'content-type': 'application/json' },
    });
  const unsigned = (type: string, value: Record<string, string>, memo = '') => ({
    type: 'auth/StdTx',
    value: { msg: { type, value }, signature: '', memo },
  });

  it('/checkpoint/new: MsgCheckpoint with the spec names, integers as strings; root_Hash or root_hash', async () => {
    const p = base.from;
    const expected = unsigned('checkpoint/MsgCheckpoint', {
      accountRootHash: accountRoot,
      endBlock: '255',
      proposer: p,
      rootHash: root,
      startBlock: '0',
    });
    const body = {
      base_req: base,
      proposer: p,
      start_block: '0',
      end_block: '255',
      root_Hash: root,
      account_root_hash: accountRoot,
      bor_chain_id: '137',
    };
    const r = await post('/checkpoint/new', body);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual(expected);
    const { root_Hash: _, ...lower } = body;
    expect(
      (
        await post('/checkpoint/new', {
          ...lower,
          root_hash: root.toUpperCase().replace('0X', '0x'),
          start_block: 0,
          end_block: 255,
        })
      ).json(),
    ).toEqual(expected);
    expectError(
      await post('/checkpoint/new', { ...body, root_hash: root }),
      400,
      'failed to decode JSON payload: body.root_Hash: give root_Hash or root_hash, not both',
    );
  });

  it('/checkpoint/ack and /checkpoint/no-ack', async () => {
    const txh = `0x${'ab'.repeat(32)}`;
    const ack = await post('/checkpoint/ack', {
      base_req: base,
      from: base.from,
      header_block: '3',
      tx_hash: txh,
      log_index: '7',
      start_block: '0',
      proposer: base.from,
    });
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.json()).toEqual(
      unsigned('checkpoint/MsgCheckpointACK', { from: base.from, headerBlock: '3', log_index: '7', tx_hash: txh }),
    );
    const noAck = await post('/checkpoint/no-ack', { base_req: { ...base, memo: 'timed out' }, proposer: base.from });
    expect(noAck.statusCode, noAck.body).toBe(200);
    expect(noAck.json()).toEqual(unsigned('checkpoint/MsgCheckpointNoACK', { from: base.from }, 'timed out'));
  });

  it('/topup/fee: from_address is base_req.from; /topup/withdraw: amount, empty meaning 0', async () => {
    const txh = `0x${'cd'.repeat(32)}`;
    const fee = await post('/topup/fee', {
      base_req: base,
      id: '2',
      tx_hash: txh,
      log_index: '0',
      user: '0xignored',
      fee: 'x',
    });
    expect(fee.statusCode, fee.body).toBe(200);
    expect(fee.json()).toEqual(
      unsigned('topup/MsgTopup', { from_address: base.from, id: '2', log_index: '0', tx_hash: txh }),
    );
    for (const amount of ['', undefined, null]) {
      expect((await post('/topup/withdraw', { base_req: base, amount })).json()).toEqual(
        unsigned('topup/MsgWithdrawFee', { amount: '0', from_address: base.from }),
      );
    }
    expect(
      (await post('/topup/withdraw', { base_req: base, amount: '1000000000000000000000' })).json().value.msg.value
        .amount,
    ).toBe('1000000000000000000000');
    expectError(
      await post('/topup/withdraw', { base_req: base, amount: '-1' }),
      400,
      /^failed to decode JSON payload: body\.amount: not a decimal integer/,
    );
  });

  it('a prepared tx, signed as returned and posted to /txs, is accepted and delivered', async () => {
    const key = f.chain.validators[1]!;
    const prepared = (
      await post('/topup/withdraw', { base_req: { from: key.address, chain_id: f.chain.chainId }, amount: '' })
    ).json();
    const def = MSG_REGISTRY.get(prepared.value.msg.type)!;
    const { json } = signedJson(f.chain, def, def.decode(prepared.value.msg.value), key);
    const r = await server.inject({ method: 'POST', url: '/txs', payload: { tx: json, mode: 'block' } });
    expect(r.json()).toMatchObject({ code: 0 });
    expect(BigInt((await server.inject('/topup/dividend-account/2')).json().result.feeAmount)).toBeGreaterThan(0n);
  });

  it('BaseReq: 401 without chain-id (unless simulate) or a usable from; 400 for fees with gas prices or a mistyped member', async () => {
    const body = { proposer: base.from };
    const url = '/checkpoint/no-ack';
    expectError(await post(url, body), 401, 'chain-id required but not specified');
    expectError(
      await post(url, { ...body, base_req: { from: base.from } }),
      401,
      'chain-id required but not specified',
    );
    expectError(await post(url, { ...body, base_req: { chain_id: 'c' } }), 401, 'invalid from address: ');
    expectError(
      await post(url, { ...body, base_req: { chain_id: 'c', from: 'alice' } }),
      401,
      'invalid from address: alice',
    );
    expectError(
      await post(url, { ...body, base_req: { chain_id: 'c', from: `0x${'00'.repeat(20)}` } }),
      401,
      `invalid from address: 0x${'00'.repeat(20)}`,
    );
    expect((await post(url, { ...body, base_req: { from: base.from, simulate: true } })).statusCode).toBe(200);
    const coins = [{ denom: 'matic', amount: '1' }];
    expectError(
      await post(url, { ...body, base_req: { ...base, fees: coins, gas_prices: coins } }),
      400,
      'cannot provide both fees and gas prices',
    );
    expect(
      (await post(url, { ...body, base_req: { ...base, fees: coins, gas: 'auto', gas_adjustment: '1.5' } })).statusCode,
    ).toBe(200);
    expectError(
      await post(url, { ...body, base_req: [] }),
      400,
      'failed to decode JSON payload: base_req: expected an object, got array',
    );
    expectError(
      await post(url, { ...body, base_req: { ...base, from: 5 } }),
      400,
      'failed to decode JSON payload: base_req.from: expected a string, got number 5',
    );
    expectError(
      await post(url, { ...body, base_req: { ...base, sequence: '-1' } }),
      400,
      /^failed to decode JSON payload: base_req\.sequence: /,
    );
    expectError(
      await post(url, { ...body, base_req: { ...base, fees: 'lots' } }),
      400,
      /^failed to decode JSON payload: base_req\.fees: /,
    );
    expectError(
      await post(url, { ...body, base_req: { ...base, gas: 'many' } }),
      400,
      /^failed to decode JSON payload: base_req\.gas: gas must be either integer or "auto"/,
    );
    expectError(
      await post(url, { ...body, base_req: { ...base, simulate: 'yes' } }),
      400,
      /^failed to decode JSON payload: base_req\.simulate: /,
    );
  });

  it('message fields: 400 naming the field; a message failing ValidateBasic: 400 with its ABCI log', async () => {
    const body = {
      base_req: base,
      proposer: base.from,
      start_block: '0',
      end_block: '255',
      root_Hash: root,
      account_root_hash: accountRoot,
    };
    expectError(
      await post('/checkpoint/new', { ...body, start_block: undefined }),
      400,
      'failed to decode JSON payload: body.start_block: is required',
    );
    expectError(
      await post('/checkpoint/new', { ...body, end_block: '18446744073709551616' }),
      400,
      /^failed to decode JSON payload: body\.end_block: out of range/,
    );
    expectError(
      await post('/checkpoint/new', { ...body, end_block: 2 ** 64 }),
      400,
      /^failed to decode JSON payload: body\.end_block: not a safe integer/,
    );
    expectError(
      await post('/checkpoint/new', { ...body, root_Hash: '0x12' }),
      400,
      /^failed to decode JSON payload: body\.root_Hash: expected 32 bytes/,
    );
    expectError(
      await post('/checkpoint/new', { ...body, proposer: 'me' }),
      400,
      /^failed to decode JSON payload: body\.proposer: /,
    );
    expectError(
      await post('/checkpoint/new', { ...body, start_block: '9', end_block: '3' }),
      400,
      abciLog({ codespace: '1', code: 1400, message: 'Invalid startBlock 9 or/and endBlock 3' }),
    );
    expectError(
      await post('/checkpoint/ack', { base_req: base, from: base.from, header_block: '1', tx_hash: root }),
      400,
      'failed to decode JSON payload: body.log_index: is required',
    );
    expectError(
      await post('/topup/fee', { base_req: base, id: 'one', tx_hash: root, log_index: '0' }),
      400,
      /^failed to decode JSON payload: body\.id: /,
    );
    expectError(
      await post('/checkpoint/no-ack', 'just a string'),
      400,
      'failed to decode JSON payload: body: expected an object, got string "just a string"',
    );
    expectError(
      await post('/checkpoint/no-ack', null),
      400,
      'failed to decode JSON payload: body: expected an object, got null',
    );
  });
});

describe('bodies and content types', () => {
  let f: AppServiceFixture;
  beforeAll(() => {
    f = appServiceFixture();
  });

  it('over the body limit: 413 {"error"} (default 1 MiB, configurable); the server keeps serving', async () => {
    const server = createRestServer(f.port);
    const big = JSON.stringify({ tx: 'x'.repeat(1024 * 1024) });
    expectError(
      await server.inject({
        method: 'POST',
        url: '/txs',
        payload: big,
        headers: { 'content-type': 'application/json' },
      }),
      413,
      'request body too large (limit 1048576 bytes)',
    );
    const small = createRestServer(f.port, { bodyLimitBytes: 100 });
    expectError(
      await small.inject({ method: 'POST', url: '/topup/withdraw', payload: { base_req: { memo: 'm'.repeat(200) } } }),
      413,
      'request body too large (limit 100 bytes)',
    );
    expectError(await small.inject({ method: 'POST', url: '/topup/withdraw', payload: { base_req: {} } }), 401);
    expect((await server.inject('/auth/params')).statusCode).toBe(200);
    await Promise.all([server.close(), small.close()]);
  });

  it('any declared content type is read as JSON (as the reference does); an empty or broken one is 415 {"error"}', async () => {
    const server = createRestServer(f.port);
    const payload = JSON.stringify({
      base_req: { chain_id: 'c', from: f.chain.validators[0]!.address },
      proposer: f.chain.validators[0]!.address,
    });
    expect(
      (
        await server.inject({
          method: 'POST',
          url: '/checkpoint/no-ack/',
          payload,
          headers: { 'content-type': 'application/json' },
        })
      ).statusCode,
    ).toBe(200);
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
    ]) {
      const r = await server.inject({
        method: 'POST',
        url: '/checkpoint/no-ack',
        payload,
        headers: { 'content-type': type },
      });
      expect(r.statusCode, `${type}: ${r.body}`).toBe(200);
    }
    expectError(
      await server.inject({ method: 'POST', url: '/checkpoint/no-ack', payload, headers: { 'content-type': '' } }),
      415,
      /^unsupported content type/,
    );
    expectError(
      await server.inject({
        method: 'POST',
        url: '/checkpoint/no-ack',
        payload: 'a=1&b=2',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      400,
      /^failed to decode JSON payload: /,
    );
    await server.close();
  });
});

describe('over a real socket', () => {
  let f: AppServiceFixture;
  let server: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    f = appServiceFixture();
    server = createRestServer(f.port);
    const address = await server.listen({ port: 0, host: '127.0.0.1' });
    base = address;
  });
  afterAll(() => server.close());

  it('GET, POST /txs (block) and an error answer with fetch', async () => {
    const params = await fetch(`${base}/sidechain/params`);
    expect(params.status).toBe(200);
    expect(params.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(((await params.json()) as { result: object }).result)).toEqual([
      'sprint_duration',
      'span_duration',
      'producer_count',
    ]);

    const sender = f.chain.validators[0]!;
    const { json } = signedJson(
      f.chain,
      MsgSendDef,
      sendMsg(sender.address, testKey('socket-recipient').address, 3n),
      sender,
    );
    const r = await fetch(`${base}/txs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tx: json, mode: 'block' }),
    });
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ code: 0, height: f.chain.app.height.toString() });

    const missing = await fetch(`${base}/staking/validator/99`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'No validator found' });
  });

  it('requests Node refuses before routing (huge request line, garbage) still get a JSON {"error"} body', async () => {
    const raw = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const u = new URL(base);
        const socket = connect(Number(u.port), u.hostname, () => socket.end(text));
        let out = '';
        socket.on('data', (d) => (out += d.toString()));
        socket.on('end', () => resolve(out));
        socket.on('error', reject);
      });
    const huge = await raw(`GET /${'a'.repeat(40_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(huge.slice(huge.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'request line or headers too large',
    });
    const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(Object.keys(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4)))).toEqual(['error']);
    // Sent raw (fetch would normalize it): a backslash is a slash to the WHATWG URL parser.
    const smuggled = await raw('GET /\\evil.example/sidechain/params HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(smuggled).toMatch(/^HTTP\/1\.1 404 /);
    expect((await fetch(`${base}/auth/params`)).status).toBe(200);
  });
});
