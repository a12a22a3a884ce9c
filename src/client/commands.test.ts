/**
 * The client commands end to end: a yargs parser configured like `lockstep`'s main (strict, a fail
 * handler that only prints) with `registerClientCommands`, a home folder whose keys are the test
 * chain's, and the real REST server on 127.0.0.1 over a ServicePort backed by a real ServiceApp.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FastifyInstance } from 'fastify';
import { type Address } from '../core/address';
import { type Hex } from '../core/bytes';
import { TOKEN, testKey } from '../app/testing/testChain';
import { fakeTxHash } from '../app/testing/fakeObservers';
import { appServiceFixture, type AppServiceFixture } from '../rpc/testing/appServicePort';
import { createRestServer } from '../rpc/rest/restServer';
import { cli, writeKey } from './testing/clientCli';

/** Parse the simple YAML the client prints: top-level `key: value` lines. */
function topLevelYaml(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z_][\w-]*):(?: (.*))?$/.exec(line);
    if (m) out[m[1]!] = m[2] ?? '';
  }
  return out;
}

const user1 = testKey('client-user-1');
const user2 = testKey('client-user-2');
const stranger = testKey('client-stranger');

let f: AppServiceFixture;
let server: FastifyInstance;
let node: string;
let home: string;
/** Common flags for every command: the test node and home. */
let base: string[];

beforeAll(async () => {
  f = appServiceFixture({ accounts: [{ key: user1, amount: 100n * TOKEN }] });
  server = createRestServer(f.port);
  await server.listen({ host: '127.0.0.1', port: 0 });
  const addr = server.server.address();
  node = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  home = mkdtempSync(join(tmpdir(), 'lockstep-client-'));
  mkdirSync(join(home, 'keys'), { recursive: true });
  mkdirSync(join(home, 'config'), { recursive: true });
  writeFileSync(join(home, 'config', 'genesis.json'), JSON.stringify({ chain_id: f.chain.chainId }));
  for (const [i, k] of f.chain.validators.entries()) writeKey(home, `validator-${i + 1}`, k);
  writeKey(home, 'user-1', user1);
  writeKey(home, 'user-2', user2);
  base = ['--node', node, '--home', home];
});

afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

/** Run the blocks that bring side-tx results (their post handlers run two blocks after delivery). */
function settle(): void {
  f.chain.block();
  f.chain.block();
}

describe('tx bank send and query auth account', () => {
  it('moves coins, raises the sender sequence by one, and the account query shows it', async () => {
    const before = topLevelYaml((await cli(['query', 'auth', 'account', user1.address, '--trust-node', ...base])).out);
    expect(before.sequence).toBe('0');

    const r = await cli(['tx', 'bank', 'send', stranger.address, '1000matic', '--chain-id', f.chain.chainId, ...base]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const res = topLevelYaml(r.out);
    expect(res.txhash).toMatch(/^[0-9A-F]{64}$/);
    expect(res.code).toBe('0');
    expect(Number(res.height)).toBeGreaterThan(0);
    expect(r.out.split('\n')[0]).toMatch(/^txhash: /);

    const to = await cli(['query', 'auth', 'account', stranger.address, ...base]);
    expect(to.code).toBe(0);
    expect(to.out).toContain(`address: ${stranger.address}`);
    expect(to.out).toMatch(/coins:\n- denom: matic\n {2}amount:\n {4}i: "1000"\n/);
    const fresh = topLevelYaml(to.out);
    expect(Object.keys(fresh)).toEqual(['address', 'coins', 'pubkey', 'accountnumber', 'sequence']);
    expect(fresh.pubkey).toBe('""');
    expect(fresh.sequence).toBe('0');

    const from = await cli(['query', 'auth', 'account', user1.address, '--json', ...base]);
    const acc = JSON.parse(from.out) as Record<string, unknown>;
    expect(Object.keys(acc)).toEqual(['address', 'coins', 'pubkey', 'accountnumber', 'sequence']);
    expect(acc.sequence).toBe(Number(before.sequence) + 1);
    expect(acc.pubkey).toBe(user1.pubKey);
    expect(acc.coins).toEqual([{ denom: 'matic', amount: { i: (100n * TOKEN - 1000n - 10n ** 15n).toString() } }]);
  });

  it('takes the chain id from <home>/config/genesis.json, signs with --from, and prints JSON with --json', async () => {
    const r = await cli(['tx', 'bank', 'send', stranger.address, '5matic', '--from', 'validator-2', '--json', ...base]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const res = JSON.parse(r.out) as Record<string, unknown>;
    expect(res.code).toBe(0);
    expect(res.txhash).toMatch(/^[0-9A-F]{64}$/);
    expect(f.chain.balance(stranger.address)).toBe(1005n);
    const byAddress = await cli([
      'tx',
      'bank',
      'send',
      stranger.address,
      '5matic',
      '--from',
      f.chain.validators[1]!.address.toUpperCase().replace('0X', '0x'),
      ...base,
    ]);
    expect(byAddress.code).toBe(0);
    expect(f.chain.balance(stranger.address)).toBe(1010n);
  });

  it('a rejected tx prints its result, puts the raw_log on stderr and exits 1', async () => {
    // user-2 has no account: the ante handler answers sdk code 9.
    const r = await cli(['tx', 'bank', 'send', stranger.address, '1matic', '--from', 'user-2', ...base]);
    expect(r.code).toBe(1);
    expect(topLevelYaml(r.out).code).toBe('9');
    expect(r.err).toContain('failed (code 9, codespace sdk)');
    expect(r.err).toContain('"codespace":"sdk","code":9');
  });

  it('a wrong --chain-id is rejected by the signature check', async () => {
    const r = await cli(['tx', 'bank', 'send', stranger.address, '1matic', '--chain-id', 'other-chain', ...base]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('signature verification failed');
  });

  it('sync and async modes answer before the block; --sequence signs offline', async () => {
    const seq = f.chain.app.signingAccount(user1.address)!.sequence;
    const a = await cli([
      'tx',
      'bank',
      'send',
      stranger.address,
      '1matic',
      '--broadcast-mode',
      'sync',
      '--sequence',
      String(seq),
      '--account-number',
      String(f.chain.app.signingAccount(user1.address)!.accountNumber),
      ...base,
    ]);
    expect(a.code).toBe(0);
    expect(topLevelYaml(a.out).height).toBe('0');
    const b = await cli([
      'tx',
      'bank',
      'send',
      stranger.address,
      '1matic',
      '--broadcast-mode',
      'async',
      '--sequence',
      String(seq + 1n),
      ...base,
    ]);
    expect(b.code).toBe(0);
    expect(f.port.mempool.length).toBe(2);
    f.port.commitMempool();
    expect(f.chain.balance(stranger.address)).toBe(1012n);
  });
});

describe('every query command prints its keys', () => {
  const spanKeys = ['span_id', 'start_block', 'end_block', 'validator_set', 'selected_producers', 'sidechain_chain_id'];
  const validatorKeys = ['ID', 'startEpoch', 'endEpoch', 'power', 'pubKey', 'signer', 'last_updated', 'accum'];

  it('query sidechain span latest-span / --span-id', async () => {
    const latest = await cli(['query', 'sidechain', 'span', 'latest-span', '--chain-id', 'x', ...base]);
    expect(latest.code).toBe(0);
    expect(Object.keys(topLevelYaml(latest.out))).toEqual(spanKeys);
    const byId = await cli(['query', 'sidechain', 'span', '--span-id', '0', '--json', ...base]);
    const span = JSON.parse(byId.out) as Record<string, unknown>;
    expect(Object.keys(span)).toEqual(spanKeys);
    expect(span.span_id).toBe(0);
    const missing = await cli(['query', 'sidechain', 'span', '--span-id', '99', ...base]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('span not found for id (codespace sdk, code 1)');
    const neither = await cli(['query', 'sidechain', 'span', ...base]);
    expect(neither.code).toBe(1);
    expect(neither.err).toContain('--span-id');
  });

  it('query sidechain params', async () => {
    const r = await cli(['query', 'sidechain', 'params', ...base]);
    expect(topLevelYaml(r.out)).toEqual({ sprint_duration: '16', span_duration: '1600', producer_count: '4' });
  });

  it('query auth params', async () => {
    const r = await cli(['query', 'auth', 'params', ...base]);
    expect(topLevelYaml(r.out)).toEqual({
      max_memo_characters: '256',
      tx_sig_limit: '7',
      tx_size_cost_per_byte: '10',
      sig_verify_cost_ed25519: '590',
      sig_verify_cost_secp256k1: '1000',
      max_tx_gas: '1000000',
      tx_fees: '"1000000000000000"',
    });
  });

  it('query staking validator-info --validator / --id', async () => {
    const v1 = f.chain.validators[0]!;
    const bySigner = await cli(['query', 'staking', 'validator-info', `--validator=${v1.address}`, ...base]);
    expect(bySigner.code).toBe(0);
    expect(Object.keys(topLevelYaml(bySigner.out))).toEqual(validatorKeys);
    const byId = JSON.parse(
      (await cli(['query', 'staking', 'validator-info', '--id=1', '--json', ...base])).out,
    ) as Record<string, unknown>;
    expect(Object.keys(byId)).toEqual(validatorKeys);
    expect(byId.signer).toBe(v1.address);
    expect(typeof byId.last_updated).toBe('number');
    const unknown = await cli(['query', 'staking', 'validator-info', '--id=77', ...base]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('HTTP 404: No validator found');
  });

  it('query checkpoint params prints checkpoint_buffer_time as 16m40s', async () => {
    const r = await cli(['query', 'checkpoint', 'params', '--trust-node', ...base]);
    expect(r.code).toBe(0);
    expect(topLevelYaml(r.out).checkpoint_buffer_time).toBe('16m40s');
    const j = JSON.parse((await cli(['query', 'checkpoint', 'params', '--json', ...base])).out) as Record<
      string,
      unknown
    >;
    expect(j.checkpoint_buffer_time).toBe('16m40s');
  });
});

describe('validator transactions', () => {
  it('tx topup fee credits once; the replay answers 1401 "Older invalid tx found" in codespace topup', async () => {
    const v2 = f.chain.validators[1]!;
    const txHash = fakeTxHash('client-topup');
    f.chain.observers.addEvent({
      name: 'TopUpFee',
      txHash,
      logIndex: 2n,
      blockNumber: 40n,
      user: v2.address,
      fee: 5n * TOKEN,
    });
    const before = f.chain.balance(v2.address);
    const args = [
      'tx',
      'topup',
      'fee',
      '--tx-hash',
      txHash,
      '--log-index',
      '2',
      '--validator-id',
      '2',
      '--from',
      'validator-2',
      '--chain-id',
      f.chain.chainId,
      ...base,
    ];
    const first = await cli(args);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    settle();
    // Minted 5 tokens to the validator's signer; as the relayer it also got back the 10^15 reward it
    // paid out, and paid the 10^15 fee of its tx.
    expect(f.chain.balance(v2.address)).toBe(before + 5n * TOKEN - 10n ** 15n);

    const again = await cli(args);
    expect(again.code).toBe(1);
    const res = topLevelYaml(again.out);
    expect(res.code).toBe('1401');
    expect(res.codespace).toBe('topup');
    expect(again.err).toContain('code 1401, codespace topup');
    expect(again.err).toContain('{"codespace":"topup","code":1401,"message":"Older invalid tx found"}');
    settle();
    expect(f.chain.balance(v2.address)).toBe(before + 5n * TOKEN - 10n ** 15n);
  });

  it('tx topup fee defaults --validator-id to the validator of --from', async () => {
    const v3 = f.chain.validators[2]!;
    const txHash = fakeTxHash('client-topup-3');
    f.chain.observers.addEvent({
      name: 'TopUpFee',
      txHash,
      logIndex: 0n,
      blockNumber: 41n,
      user: v3.address,
      fee: TOKEN,
    });
    const r = await cli([
      'tx',
      'topup',
      'fee',
      '--tx-hash',
      txHash,
      '--log-index',
      '0',
      '--from',
      'validator-3',
      ...base,
    ]);
    expect(r.code).toBe(0);
    const noValidator = await cli([
      'tx',
      'topup',
      'fee',
      '--tx-hash',
      txHash,
      '--log-index',
      '0',
      '--from',
      'user-1',
      ...base,
    ]);
    expect(noValidator.code).toBe(1);
    expect(noValidator.err).toContain('--validator-id: required');
    settle();
    expect(f.chain.queryResult<boolean>(`/topup/isoldtx?txhash=${txHash}&logindex=0`)).toBe(true);
  });

  it('tx topup withdraw moves the balance into the dividend account', async () => {
    const r = await cli(['tx', 'topup', 'withdraw', '--from', 'validator-4', '--amount', '1000', ...base]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(f.chain.queryResult<{ feeAmount: string }>('/topup/dividend-account/4').feeAmount).toBe('1000');
  });

  it('tx sidechain propose-span derives span id, end block and sidechain chain id', async () => {
    const r = await cli(['tx', 'sidechain', 'propose-span', '--start-block', '256', ...base]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    settle();
    const latest = JSON.parse(
      (await cli(['query', 'sidechain', 'span', 'latest-span', '--json', ...base])).out,
    ) as Record<string, number>;
    expect([latest.span_id, latest.start_block, latest.end_block]).toEqual([1, 256, 256 + 1600 - 1]);
  });

  it('tx staking validator-join: --id defaults to the first id the service does not know', async () => {
    const joiner = testKey('client-joiner');
    const txHash = fakeTxHash('client-staked');
    f.chain.observers.addEvent({
      name: 'Staked',
      txHash,
      logIndex: 1n,
      blockNumber: 50n,
      signer: joiner.address,
      validatorId: 5n,
      activationEpoch: 1n,
      amount: 10n * TOKEN,
      total: 10n * TOKEN,
      signerPubkey: `0x${joiner.pubKey.slice(4)}` as Hex,
    });
    const r = await cli([
      'tx',
      'staking',
      'validator-join',
      '--signer-pubkey',
      joiner.pubKey,
      '--tx-hash',
      txHash,
      '--log-index',
      '1',
      ...base,
    ]);
    expect(r.code).toBe(0);
    expect(r.err).toContain('using validator id 5');
    settle();
    const v = JSON.parse(
      (await cli(['query', 'staking', 'validator-info', `--validator=${joiner.address}`, '--json', ...base])).out,
    ) as Record<string, unknown>;
    expect(v.ID).toBe(5);
    expect(v.pubKey).toBe(joiner.pubKey);
  });

  it('tx checkpoint send-checkpoint (hashes and proposer key from the node), send-ack, send-noack', async () => {
    f.chain.observers.sidechainHead = 10_000n;
    const cp = await cli(['tx', 'checkpoint', 'send-checkpoint', '--start-block', '0', '--end-block', '255', ...base]);
    expect(cp.err).toBe('');
    expect(cp.code).toBe(0);
    settle();
    const buffer = f.chain.queryResult<{
      proposer: Address;
      startBlock: number;
      endBlock: number;
      rootHash: Hex;
      accountRootHash: Hex;
    }>('/checkpoints/buffer');
    expect([buffer.startBlock, buffer.endBlock]).toEqual([0, 255]);

    f.chain.observers.headerBlocks.set(1n, {
      number: 1n,
      proposer: buffer.proposer,
      startBlock: 0n,
      endBlock: 255n,
      rootHash: buffer.rootHash,
      accountRootHash: buffer.accountRootHash,
    });
    const ack = await cli([
      'tx',
      'checkpoint',
      'send-ack',
      '--tx-hash',
      `0x${'cd'.repeat(32)}`,
      '--log-index',
      '0',
      '--header',
      '1',
      ...base,
    ]);
    expect(ack.code).toBe(0);
    settle();
    expect(f.chain.queryResult<{ result: number }>('/checkpoints/count').result).toBe(1);

    // A no-ack is allowed checkpoint_buffer_time after the last checkpoint.
    f.chain.block([], { timeMs: f.chain.timeMs + 1_100_000 });
    const noack = await cli(['tx', 'checkpoint', 'send-noack', ...base]);
    expect(noack.err).toBe('');
    expect(noack.code).toBe(0);
    expect(f.chain.queryResult<{ result: number }>('/checkpoints/last-no-ack').result).toBeGreaterThan(0);
  });
});

describe('usage errors', () => {
  it('a bad flag value names the flag and sends nothing', async () => {
    const calls = f.port.calls.broadcast;
    for (const [args, flag] of [
      [['tx', 'topup', 'fee', '--tx-hash', '0x12', '--log-index', '1'], '--tx-hash'],
      [['tx', 'topup', 'fee', '--tx-hash', `0x${'ab'.repeat(32)}`, '--log-index', 'one'], '--log-index'],
      [['tx', 'bank', 'send', '0x1234', '1matic'], '<to_address>'],
      [['tx', 'bank', 'send', stranger.address, '100'], '<amount>'],
      [
        [
          'tx',
          'staking',
          'validator-join',
          '--signer-pubkey',
          '0x05',
          '--tx-hash',
          `0x${'ab'.repeat(32)}`,
          '--log-index',
          '0',
        ],
        '--signer-pubkey',
      ],
      [['tx', 'checkpoint', 'send-checkpoint', '--start-block', '0', '--end-block', '-5'], '--end-block'],
      [['query', 'staking', 'validator-info', '--validator', 'nope'], '--validator'],
      [['query', 'auth', 'account', 'nope'], '<address>'],
      [['tx', 'bank', 'send', stranger.address, '1matic', '--node', 'ftp://x'], '--node'],
    ] as Array<[string[], string]>) {
      const r = await cli([...args, '--home', home]);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.err, args.join(' ')).toContain(`lockstep: ${flag}`);
      expect(r.out).toBe('');
    }
    expect(f.port.calls.broadcast).toBe(calls);
  });

  it('an unknown flag, a missing flag or a bad choice is a usage error naming it, and the command does not run', async () => {
    const calls = f.port.calls.broadcast;
    const unknown = await cli(['tx', 'bank', 'send', stranger.address, '1matic', '--bogus', '1', ...base]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('Unknown argument: bogus');
    const missing = await cli([
      'tx',
      'checkpoint',
      'send-ack',
      '--tx-hash',
      `0x${'ab'.repeat(32)}`,
      '--log-index',
      '0',
      ...base,
    ]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('Missing required argument: header');
    const mode = await cli(['tx', 'checkpoint', 'send-noack', '--broadcast-mode', 'fast', ...base]);
    expect(mode.code).toBe(1);
    expect(mode.err).toContain('broadcast-mode');
    const both = await cli([
      'query',
      'staking',
      'validator-info',
      '--id',
      '1',
      '--validator',
      stranger.address,
      ...base,
    ]);
    expect(both.code).toBe(1);
    expect(both.err).toContain('mutually exclusive');
    expect(f.port.calls.broadcast).toBe(calls);
  });

  it('an unknown --from lists the available keys', async () => {
    const r = await cli(['tx', 'bank', 'send', stranger.address, '1matic', '--from', 'alice', ...base]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('--from: no key named "alice"');
    expect(r.err).toContain('available keys: user-1, user-2, validator-1, validator-2, validator-3, validator-4');
  });

  it('without --chain-id or a genesis file, --chain-id is named', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'lockstep-client-bare-'));
    try {
      mkdirSync(join(bare, 'keys'));
      writeKey(bare, 'user-1', user1);
      const r = await cli(['tx', 'bank', 'send', stranger.address, '1matic', '--node', node], undefined, {
        LOCKSTEP_HOME: bare,
      });
      expect(r.code).toBe(1);
      expect(r.err).toContain('lockstep: --chain-id: required');
      const empty = await cli([
        'tx',
        'bank',
        'send',
        stranger.address,
        '1matic',
        '--chain-id',
        'c',
        '--home',
        join(bare, 'nothing'),
      ]);
      expect(empty.err).toContain('there are no keys in');
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it('an unreachable node gives a message naming its URL', async () => {
    const s = createRestServer(f.port);
    await s.listen({ host: '127.0.0.1', port: 0 });
    const a = s.server.address();
    const port = typeof a === 'object' && a ? a.port : 0;
    await s.close();
    const dead = `http://127.0.0.1:${port}`;
    const q = await cli(['query', 'auth', 'params', '--node', dead]);
    expect(q.code).toBe(1);
    expect(q.err).toContain(`cannot reach the service REST API at ${dead}: is \`lockstep node start\` running?`);
    const t = await cli(['tx', 'bank', 'send', stranger.address, '1matic', '--node', dead, '--home', home]);
    expect(t.code).toBe(1);
    expect(t.err).toContain(`cannot reach the service REST API at ${dead}`);
  });

  it('--help of a command shows its flags and examples', async () => {
    const logs: string[] = [];
    const orig = console.log;
    console.log = (...a: unknown[]) => void logs.push(a.join(' '));
    try {
      await cli(['tx', 'topup', 'fee', '--help']);
    } finally {
      console.log = orig;
    }
    const help = logs.join('\n');
    for (const s of [
      '--tx-hash',
      '--log-index',
      '--validator-id',
      '--chain-id',
      '--from',
      '--broadcast-mode',
      '--node',
      '--json',
      'Examples:',
    ])
      expect(help).toContain(s);
  });
});
