/**
 * The event ABI: topic0 of every event, hand-checked encodings, round trips with exactly the field
 * names and types of src/modules/observers.ts, and rejection (null, never a throw) of anything that
 * is not the exact encoding of one of the events.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { id, AbiCoder, getAddress } from 'ethers';
import {
  type SignerChangeEvent,
  type StakedEvent,
  type StakeUpdateEvent,
  type StateSyncedEvent,
  type TopUpFeeEvent,
  type UnstakeInitEvent,
  type ParentEvent,
} from '../modules/framework/observers';
import {
  type DecodedParentLog,
  type ParentEventArgs,
  type ParentLogName,
  PARENT_LOG_NAMES,
  decodeLog,
  encodeLog,
  eventTopic,
} from './abi';
import { type Hex } from '../core/bytes';
import { pad32 } from '../core/amount';
import { toHex } from '../core/bytes';

const A1 = '0x1111111111111111111111111111111111111111';
const A2 = '0xabcdef0123456789abcdef0123456789abcdef01';
const TX = `0x${'ab'.repeat(32)}` as Hex;
const PUB64 = `0x${'c3'.repeat(64)}` as Hex;
const ROOT = `0x${'5e'.repeat(32)}` as Hex;

const SAMPLES: { [N in ParentLogName]: ParentEventArgs[N] } = {
  Staked: {
    signer: A1,
    validatorId: 7n,
    activationEpoch: 3n,
    amount: 10n ** 21n,
    total: 5n * 10n ** 21n,
    signerPubkey: PUB64,
  },
  StakeUpdate: { validatorId: 7n, newAmount: 2n * 10n ** 21n },
  UnstakeInit: { user: A2, validatorId: 7n, deactivationEpoch: 4n, amount: 10n ** 21n },
  SignerChange: { validatorId: 7n, oldSigner: A1, newSigner: A2, signerPubkey: PUB64 },
  TopUpFee: { user: A2, fee: 123456789n },
  StateSynced: { id: 42n, contractAddress: A2, data: '0xdeadbeef' },
  NewHeaderBlock: { proposer: A1, headerBlockId: 20000n, reward: 0n, start: 256n, end: 511n, root: ROOT },
};

const CANONICAL: Record<ParentLogName, string> = {
  Staked: 'Staked(address,uint256,uint256,uint256,uint256,bytes)',
  StakeUpdate: 'StakeUpdate(uint256,uint256)',
  UnstakeInit: 'UnstakeInit(address,uint256,uint256,uint256)',
  SignerChange: 'SignerChange(uint256,address,address,bytes)',
  TopUpFee: 'TopUpFee(address,uint256)',
  StateSynced: 'StateSynced(uint256,address,bytes)',
  NewHeaderBlock: 'NewHeaderBlock(address,uint256,uint256,uint256,uint256,bytes32)',
};

/** The field names of observers.ts, written out by hand (the type test below keeps them honest). */
const OBSERVER_FIELDS: Record<ParentLogName, string[]> = {
  Staked: [
    'name',
    'txHash',
    'logIndex',
    'blockNumber',
    'signer',
    'validatorId',
    'activationEpoch',
    'amount',
    'total',
    'signerPubkey',
  ],
  StakeUpdate: ['name', 'txHash', 'logIndex', 'blockNumber', 'validatorId', 'newAmount'],
  UnstakeInit: ['name', 'txHash', 'logIndex', 'blockNumber', 'user', 'validatorId', 'deactivationEpoch', 'amount'],
  SignerChange: ['name', 'txHash', 'logIndex', 'blockNumber', 'validatorId', 'oldSigner', 'newSigner', 'signerPubkey'],
  TopUpFee: ['name', 'txHash', 'logIndex', 'blockNumber', 'user', 'fee'],
  StateSynced: ['name', 'txHash', 'logIndex', 'blockNumber', 'id', 'contractAddress', 'data'],
  NewHeaderBlock: [
    'name',
    'txHash',
    'logIndex',
    'blockNumber',
    'proposer',
    'headerBlockId',
    'reward',
    'start',
    'end',
    'root',
  ],
};

const sorted = (xs: string[]): string[] => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

function asLog(enc: { topics: Hex[]; data: Hex }, logIndex = 3n, blockNumber = 99n) {
  return { ...enc, txHash: TX, logIndex, blockNumber };
}

describe('event signatures', () => {
  it.each(PARENT_LOG_NAMES)('topic0 of %s is the keccak of its canonical signature', (name) => {
    expect(eventTopic(name)).toBe(id(CANONICAL[name]));
    expect(encodeLog(name, SAMPLES[name] as never).topics[0]).toBe(id(CANONICAL[name]));
  });
});

describe('hand-checked encodings', () => {
  it('TopUpFee: both fields indexed, empty data', () => {
    const e = encodeLog('TopUpFee', { user: A2, fee: 123456789n });
    expect(e.topics).toEqual([id('TopUpFee(address,uint256)'), toHex(pad32(BigInt(A2))), toHex(pad32(123456789n))]);
    expect(e.data).toBe('0x');
  });

  it('StateSynced: data is the ABI-encoded bytes (offset, length, right-padded content)', () => {
    const e = encodeLog('StateSynced', { id: 42n, contractAddress: A2, data: '0xdeadbeef' });
    expect(e.topics[1]).toBe(toHex(pad32(42n)));
    expect(e.data).toBe(`0x${'00'.repeat(31)}20${'00'.repeat(31)}04deadbeef${'00'.repeat(28)}`);
  });

  it('Staked: the unindexed fields match an independent AbiCoder encoding', () => {
    const s = SAMPLES.Staked;
    const e = encodeLog('Staked', s);
    expect(e.topics).toEqual([id(CANONICAL.Staked), toHex(pad32(BigInt(A1))), toHex(pad32(7n)), toHex(pad32(3n))]);
    expect(e.data).toBe(
      AbiCoder.defaultAbiCoder().encode(['uint256', 'uint256', 'bytes'], [s.amount, s.total, s.signerPubkey]),
    );
  });

  it('UnstakeInit: amount is indexed, deactivationEpoch is data', () => {
    const e = encodeLog('UnstakeInit', SAMPLES.UnstakeInit);
    expect(e.topics[3]).toBe(toHex(pad32(10n ** 21n)));
    expect(e.data).toBe(toHex(pad32(4n)));
  });

  it('NewHeaderBlock: start, end and root are data', () => {
    const e = encodeLog('NewHeaderBlock', SAMPLES.NewHeaderBlock);
    expect(e.topics.slice(1)).toEqual([toHex(pad32(BigInt(A1))), toHex(pad32(20000n)), toHex(pad32(0n))]);
    expect(e.data).toBe(`${toHex(pad32(256n))}${toHex(pad32(511n)).slice(2)}${ROOT.slice(2)}`);
  });

  it('encodeLog refuses an unknown event name', () => {
    expect(() => encodeLog('Transfer' as ParentLogName, {} as never)).toThrow(/event: not a parent-chain event/);
  });
});

describe('decodeLog round trips with the observers.ts field names', () => {
  it.each(PARENT_LOG_NAMES)('%s', (name) => {
    const decoded = decodeLog(asLog(encodeLog(name, SAMPLES[name] as never)));
    expect(decoded).not.toBeNull();
    expect(sorted(Object.keys(decoded!))).toEqual(sorted(OBSERVER_FIELDS[name]));
    expect(decoded).toEqual({ name, txHash: TX, logIndex: 3n, blockNumber: 99n, ...SAMPLES[name] });
  });

  it('addresses, bytes and the tx hash come back lower-case', () => {
    const e = encodeLog('SignerChange', {
      ...SAMPLES.SignerChange,
      newSigner: getAddress(A2) as Hex,
      signerPubkey: `0x${'C3'.repeat(64)}`,
    });
    const upper = {
      topics: e.topics.map((t) => t.toUpperCase().replace('0X', '0x')),
      data: e.data.toUpperCase().replace('0X', '0x'),
      txHash: TX.toUpperCase().replace('0X', '0x'),
      logIndex: 0n,
      blockNumber: 1n,
    };
    const d = decodeLog(upper);
    expect(d).toMatchObject({ name: 'SignerChange', txHash: TX, newSigner: A2, signerPubkey: PUB64 });
  });

  it('the decoded union matches observers.ts exactly (type level)', () => {
    expectTypeOf<Extract<DecodedParentLog, { name: 'Staked' }>>().toEqualTypeOf<StakedEvent>();
    expectTypeOf<Extract<DecodedParentLog, { name: 'StakeUpdate' }>>().toEqualTypeOf<StakeUpdateEvent>();
    expectTypeOf<Extract<DecodedParentLog, { name: 'UnstakeInit' }>>().toEqualTypeOf<UnstakeInitEvent>();
    expectTypeOf<Extract<DecodedParentLog, { name: 'SignerChange' }>>().toEqualTypeOf<SignerChangeEvent>();
    expectTypeOf<Extract<DecodedParentLog, { name: 'TopUpFee' }>>().toEqualTypeOf<TopUpFeeEvent>();
    expectTypeOf<Extract<DecodedParentLog, { name: 'StateSynced' }>>().toEqualTypeOf<StateSyncedEvent>();
    expectTypeOf<Exclude<DecodedParentLog, { name: 'NewHeaderBlock' }>>().toEqualTypeOf<ParentEvent>();
    // And a value passes straight through.
    const d = decodeLog(asLog(encodeLog('TopUpFee', SAMPLES.TopUpFee)));
    const pass: ParentEvent | null = d !== null && d.name !== 'NewHeaderBlock' ? d : null;
    expect(pass?.name).toBe('TopUpFee');
  });
});

describe('decodeLog: anything else is null, never a throw', () => {
  const good = encodeLog('StateSynced', SAMPLES.StateSynced);
  const word = `0x${'00'.repeat(32)}`;
  const cases: Array<[string, unknown]> = [
    ['unknown topic0', { ...good, topics: [id('Transfer(address,address,uint256)'), ...good.topics.slice(1)] }],
    ['no topics', { ...good, topics: [] }],
    ['a missing indexed topic', { ...good, topics: good.topics.slice(0, 2) }],
    ['an extra topic', { ...good, topics: [...good.topics, word] }],
    ['trailing data', { ...good, data: `${good.data}${'00'.repeat(32)}` }],
    ['truncated data', { ...good, data: good.data.slice(0, 66) }],
    ['dirty padding in the bytes', { ...good, data: `${good.data.slice(0, -2)}01` }],
    [
      'an address topic with high bits set',
      { ...good, topics: [good.topics[0], good.topics[1], `0x${'ff'.repeat(32)}`] },
    ],
    ['a short topic', { ...good, topics: [good.topics[0], '0x01', good.topics[2]] }],
    ['data that is not hex', { ...good, data: '0xzz' }],
    ['data without 0x', { ...good, data: good.data.slice(2) }],
    ['a topics string', { ...good, topics: 'nope' }],
  ];
  it.each(cases)('%s', (_label, partial) => {
    expect(decodeLog({ ...(partial as object), txHash: TX, logIndex: 0n, blockNumber: 1n } as never)).toBeNull();
  });

  it('bad positions', () => {
    expect(decodeLog({ ...good, txHash: '0x1234', logIndex: 0n, blockNumber: 1n })).toBeNull();
    expect(decodeLog({ ...good, txHash: TX, logIndex: -1n, blockNumber: 1n })).toBeNull();
    expect(decodeLog({ ...good, txHash: TX, logIndex: 0 as unknown as bigint, blockNumber: 1n })).toBeNull();
    expect(decodeLog({ ...good, txHash: TX, logIndex: 0n, blockNumber: undefined as unknown as bigint })).toBeNull();
    expect(decodeLog(null as never)).toBeNull();
  });
});
