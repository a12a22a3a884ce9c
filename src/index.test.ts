import { describe, expect, it } from 'vitest';
import { restQuery } from './rpc/testing/restQuery';
import * as lib from './index';

describe('library surface (a public contract: names stay stable)', () => {
  it('exports every documented name', () => {
    for (const name of [
      'keccak256',
      'publicKeyFromPrivateKey',
      'addressFromPublicKey',
      'signDigest',
      'recoverPublicKey',
      'sidechainBlockHash',
      'merkleRoot',
      'checkpointRootHash',
      'dividendAccountHash',
      'accountRootHash',
      'shuffleList',
      'selectNextProducers',
      'ValidatorSet',
      'createServiceApp',
    ]) {
      expect(typeof (lib as Record<string, unknown>)[name], name).toBe('function');
    }
  });

  it('shuffleList takes a hex seed and returns a new array (reference §10.4)', () => {
    const input = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    const seed = '0x01800c' + '00'.repeat(29);
    expect(lib.shuffleList(input, seed)).toEqual([0, 7, 8, 6, 3, 9, 4, 5, 2, 1]);
    expect(input).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('selectNextProducers returns ids of the given type', () => {
    const vals = [1, 2, 3, 4, 5].map((id) => ({ id, power: 10 }));
    const seed = '0x8f5bab218b6bb34476f51ca588e9f4553a3a7ce5e13a66c660a5283e97e9a85a';
    const ids = lib.selectNextProducers(seed, vals, 4);
    expect(ids).toHaveLength(4);
    for (const id of ids) expect(typeof id).toBe('number');
    expect(lib.selectNextProducers(seed, vals, 5)).toEqual([1, 2, 3, 4, 5]);
    const big = lib.selectNextProducers(
      seed,
      vals.map((v) => ({ id: BigInt(v.id), power: 10n })),
      4,
    );
    expect(big.map(Number)).toEqual(ids);
  });

  it('ValidatorSet: construction, proposer and increments', () => {
    const set = new lib.ValidatorSet([
      { address: '0x0000000000000000000000000000000000000001', power: 1 },
      { address: '0x0000000000000000000000000000000000000002', power: 1n },
    ]);
    expect(set.proposer.address).toBe('0x0000000000000000000000000000000000000001');
    set.incrementProposerPriority(1);
    expect(set.proposer.address).toBe('0x0000000000000000000000000000000000000002');
    expect(typeof set.validators[0]!.proposerPriority).toBe('bigint');
  });

  it('createServiceApp runs a block and answers queries', () => {
    const key = lib.publicKeyFromPrivateKey('0x' + '42'.repeat(32));
    const app = lib.createServiceApp({
      chain_id: 'lib-test',
      app_state: { staking: { validators: [{ id: 1, pub_key: key, power: 10 }] } },
    });
    app.beginBlock({ timeMs: 1000, proposer: lib.addressFromPublicKey(key) });
    const r = app.deliverTx(new TextEncoder().encode('not json'));
    expect(r.code).toBe(2);
    app.endBlock();
    const c = app.commit();
    expect(c.height).toBe(1n);
    expect(restQuery(app, '/sidechain/params')).toEqual({
      status: 200,
      body: { height: '1', result: { sprint_duration: 16, span_duration: 1600, producer_count: 4 } },
    });
    expect(restQuery(app, '/staking/validator/1').status).toBe(200);
    expect(restQuery(app, '/nope').status).toBe(404);
  });

  it('a bad genesis names the field', () => {
    expect(() =>
      lib.createServiceApp({
        chain_id: 'x',
        app_state: { staking: { validators: [{ id: 1, pub_key: '0x1234', power: 1 }] } },
      }),
    ).toThrow(/genesis\.app_state\.staking\.validators\[0\]\.pub_key/);
    expect(() => lib.createServiceApp({ chain_id: 'x', app_state: { staking: { validators: [] } } })).toThrow(
      /validators: at least one/,
    );
    const validators = [{ id: 1, pub_key: lib.publicKeyFromPrivateKey('0x' + '42'.repeat(32)), power: 1 }];
    expect(() =>
      lib.createServiceApp({
        chain_id: 'x',
        app_state: { staking: { validators }, sidechain: { params: { sprint_duration: 0 } } },
      }),
    ).toThrow(/genesis\.app_state\.sidechain\.params\.sprint_duration: must be non-zero/);
    expect(() => lib.createServiceApp({ chain_id: 'x', app_state: { staking: { validators }, bogus: 1 } })).toThrow(
      /genesis\.app_state\.bogus: unknown field/,
    );
    expect(() => lib.createServiceApp({ app_state: { staking: { validators } } })).toThrow(
      /genesis\.chain_id: is required/,
    );
  });
});

describe('library surface: sidechain', () => {
  it('calcProducerDelay, sidechainDifficulty, stateSyncTxHash, sidechainRootHash (reference §7 vectors)', () => {
    const p = { period: 2, producerDelay: 4, sprint: 16, wiggle: 2 };
    expect([
      lib.calcProducerDelay(32, 0, p),
      lib.calcProducerDelay(32, 2, p),
      lib.calcProducerDelay(33, 0, p),
      lib.calcProducerDelay(33, 1, p),
    ]).toEqual([4, 8, 2, 4]);
    const A = '0x0000000000000000000000000000000000000001';
    const B = '0x0000000000000000000000000000000000000002';
    const C = '0x0000000000000000000000000000000000000003';
    expect(lib.sidechainDifficulty([C, A, B], B, B)).toBe(3n);
    expect(lib.sidechainDifficulty([C, A, B], B, C)).toBe(2n);
    expect(lib.sidechainDifficulty([C, A, B], B, A)).toBe(1n);
    expect(lib.stateSyncTxHash(16, '0x' + '11'.repeat(32))).toBe(
      '0xb1317de0d984956dd24a4c3fd47292d817373e6e69a7dab753c8fe3af87e2af6',
    );
    const empty = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
    expect(lib.sidechainRootHash([{ number: 1, time: 1000, txHash: empty, receiptHash: empty }])).toBe(
      '13a4e96a35ad3c7f1956711bfd7c37c51ab24aca05e84ddbff02ddba7dc034e0',
    );
  });
});
