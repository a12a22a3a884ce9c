/** The client's pure parts: YAML output, flag parsers, the key store and error-body rendering. */
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { testKey } from '../app/testing/testChain';
import { toYaml } from './format';
import { parseCoinsArg, parseHashFlag, parsePubKeyFlag, parseUint64Flag } from './flags';
import { genesisChainId, listKeys, loadKey, resolveChainId, resolveHome } from './keys';
import { describeErrorBody, normalizeNodeUrl } from './http';
import { accountView } from './modules/auth';
import { checkpointParamsView } from './modules/checkpoint';

describe('toYaml', () => {
  it('writes block YAML, quoting strings that would read as other types', () => {
    expect(toYaml({ a: 1, b: '1', c: '', d: 'true', e: '0xab', f: [], g: {}, h: null, i: 'x: y', j: '16m40s' })).toBe(
      ['a: 1', 'b: "1"', 'c: ""', 'd: "true"', 'e: 0xab', 'f: []', 'g: {}', 'h: null', 'i: "x: y"', 'j: 16m40s'].join(
        '\n',
      ),
    );
    expect(toYaml({ list: [{ k: 1, v: [1, 2] }, 'x'], o: { p: { q: 'r' } } })).toBe(
      ['list:', '- k: 1', '  v:', '  - 1', '  - 2', '- x', 'o:', '  p:', '    q: r'].join('\n'),
    );
  });
});

describe('flag parsers name the flag', () => {
  it('uint64', () => {
    expect(parseUint64Flag('18446744073709551615', '--n')).toBe(2n ** 64n - 1n);
    expect(() => parseUint64Flag('18446744073709551616', '--n')).toThrow(/^--n: .*uint64 maximum/);
    expect(() => parseUint64Flag('-1', '--n')).toThrow(/^--n: expected a non-negative decimal integer/);
    expect(() => parseUint64Flag('1e3', '--n')).toThrow(/^--n:/);
  });
  it('hashes and public keys, with or without 0x', () => {
    expect(parseHashFlag('AB'.repeat(32), '--tx-hash')).toBe(`0x${'ab'.repeat(32)}`);
    expect(() => parseHashFlag('0xzz', '--tx-hash')).toThrow(/^--tx-hash: .*not hex/);
    const k = testKey('units');
    expect(parsePubKeyFlag(k.pubKey, '--signer-pubkey')).toBe(k.pubKey);
    expect(parsePubKeyFlag(k.pubKey.slice(4), '--signer-pubkey')).toBe(k.pubKey);
    expect(() => parsePubKeyFlag(`0x05${k.pubKey.slice(4)}`, '--signer-pubkey')).toThrow(/starts with 0x04/);
  });
  it('coins', () => {
    expect(parseCoinsArg('1000matic', '<amount>')).toEqual([{ denom: 'matic', amount: 1000n }]);
    expect(parseCoinsArg('5matic,7stake', '<amount>')).toEqual([
      { denom: 'matic', amount: 5n },
      { denom: 'stake', amount: 7n },
    ]);
    expect(() => parseCoinsArg('1000', '<amount>')).toThrow(/denomination is missing/);
    expect(() => parseCoinsArg('0matic', '<amount>')).toThrow(/must be positive/);
    expect(() => parseCoinsArg('1matic,2matic', '<amount>')).toThrow(/given twice/);
    expect(() => parseCoinsArg('1MATIC', '<amount>')).toThrow(/invalid denomination/);
  });
});

describe('key store and home', () => {
  it('home: --home, else LOCKSTEP_HOME, else ~/.lockstep', () => {
    expect(resolveHome('rel', { LOCKSTEP_HOME: '/x' })).toBe(resolve('rel'));
    expect(resolveHome(undefined, { LOCKSTEP_HOME: '/x' })).toBe('/x');
    expect(resolveHome(undefined, {})).toBe(join(homedir(), '.lockstep'));
  });

  it('loads keys, checks the stated address, sorts names naturally, reads the genesis chain id', () => {
    const home = mkdtempSync(join(tmpdir(), 'lockstep-keys-'));
    try {
      mkdirSync(join(home, 'keys'));
      mkdirSync(join(home, 'config'));
      const a = testKey('a');
      const b = testKey('b');
      for (const n of ['validator-10', 'validator-2', 'user-1'])
        writeFileSync(
          join(home, 'keys', `${n}.json`),
          JSON.stringify({ name: n, address: a.address, pub_key: a.pubKey, private_key: a.privateKey }),
        );
      writeFileSync(
        join(home, 'keys', 'bad.json'),
        JSON.stringify({ name: 'bad', address: b.address, private_key: a.privateKey }),
      );
      expect(listKeys(home)).toEqual(['bad', 'user-1', 'validator-2', 'validator-10']);
      expect(loadKey(home, 'user-1')).toMatchObject({ address: a.address, pubKey: a.pubKey });
      expect(() => loadKey(home, 'bad')).toThrow(/does not belong to its private_key/);
      expect(() => loadKey(home, '../x')).toThrow(/^--from: not a key name/);
      expect(genesisChainId(home)).toBeUndefined();
      expect(() => resolveChainId(undefined, home)).toThrow(/^--chain-id: required/);
      writeFileSync(join(home, 'config', 'genesis.json'), JSON.stringify({ chain_id: 'lockstep-devnet' }));
      expect(resolveChainId(undefined, home)).toBe('lockstep-devnet');
      expect(resolveChainId('other', home)).toBe('other');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('REST helpers and views', () => {
  it('unpacks an ABCI log in an error body', () => {
    expect(
      describeErrorBody({
        error: '{"codespace":"sdk","code":1,"message":"could not get span; span not found for id"}',
      }),
    ).toBe('could not get span; span not found for id (codespace sdk, code 1)');
    expect(describeErrorBody({ error: 'No validator found' })).toBe('No validator found');
  });
  it('node URLs', () => {
    expect(normalizeNodeUrl('http://127.0.0.1:1317/')).toBe('http://127.0.0.1:1317');
    expect(() => normalizeNodeUrl('127.0.0.1:1317')).toThrow(/^--node:/);
  });
  it('account view: the spec keys, pubkey as 0x hex', () => {
    const k = testKey('view');
    const value = Buffer.from(k.pubKey.slice(2), 'hex').toString('base64');
    expect(
      accountView({
        type: 'auth/Account',
        value: {
          address: k.address,
          coins: [],
          public_key: { type: 'tendermint/PubKeySecp256k1', value },
          account_number: '3',
          sequence: '7',
        },
      }),
    ).toEqual({ address: k.address, coins: [], pubkey: k.pubKey, accountnumber: 3, sequence: 7 });
  });
  it('checkpoint params view: nanoseconds to a Go duration', () => {
    expect(checkpointParamsView({ checkpoint_buffer_time: 1_000_000_000_000, avg_checkpoint_length: 256 })).toEqual({
      checkpoint_buffer_time: '16m40s',
      avg_checkpoint_length: 256,
    });
  });
});
