/**
 * ABI properties: every event round-trips for arbitrary field values, and decodeLog never throws,
 * whatever it is given (it answers null for anything that is not an exact encoding).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type Hex, toHex } from '../core/bytes';
import { UINT256_MAX } from '../core/amount';
import { type ParentEventArgs, type ParentLogName, decodeLog, encodeLog, eventTopic } from './abi';

const uint = fc.bigInt({ min: 0n, max: UINT256_MAX });
const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => toHex(b));
const bytes = (max: number) => fc.uint8Array({ maxLength: max }).map((b) => toHex(b));
const word = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => toHex(b));

const eventArb: fc.Arbitrary<{ [N in ParentLogName]: { name: N; args: ParentEventArgs[N] } }[ParentLogName]> = fc.oneof(
  fc.record({
    name: fc.constant('Staked' as const),
    args: fc.record({
      signer: address,
      validatorId: uint,
      activationEpoch: uint,
      amount: uint,
      total: uint,
      signerPubkey: bytes(80),
    }),
  }),
  fc.record({ name: fc.constant('StakeUpdate' as const), args: fc.record({ validatorId: uint, newAmount: uint }) }),
  fc.record({
    name: fc.constant('UnstakeInit' as const),
    args: fc.record({ user: address, validatorId: uint, deactivationEpoch: uint, amount: uint }),
  }),
  fc.record({
    name: fc.constant('SignerChange' as const),
    args: fc.record({ validatorId: uint, oldSigner: address, newSigner: address, signerPubkey: bytes(80) }),
  }),
  fc.record({ name: fc.constant('TopUpFee' as const), args: fc.record({ user: address, fee: uint }) }),
  fc.record({
    name: fc.constant('StateSynced' as const),
    args: fc.record({ id: uint, contractAddress: address, data: bytes(100) }),
  }),
  fc.record({
    name: fc.constant('NewHeaderBlock' as const),
    args: fc.record({ proposer: address, headerBlockId: uint, reward: uint, start: uint, end: uint, root: word }),
  }),
);

const position = fc.record({
  txHash: word,
  logIndex: fc.bigInt({ min: 0n, max: 1n << 32n }),
  blockNumber: fc.bigInt({ min: 0n, max: 1n << 40n }),
});

describe('ABI properties', () => {
  it('decode(encode(event)) gives back the event', () => {
    fc.assert(
      fc.property(eventArb, position, (ev, pos) => {
        const enc = encodeLog(ev.name, ev.args as never);
        expect(decodeLog({ ...enc, ...pos })).toEqual({ name: ev.name, ...pos, ...ev.args });
      }),
      { numRuns: 300 },
    );
  });

  it('decodeLog never throws, and whatever it accepts re-encodes to exactly the input', () => {
    const topic0 = fc.constantFrom(
      ...(
        ['Staked', 'StakeUpdate', 'UnstakeInit', 'SignerChange', 'TopUpFee', 'StateSynced', 'NewHeaderBlock'] as const
      ).map(eventTopic),
    );
    const topics = fc
      .tuple(topic0, fc.array(fc.oneof(word, fc.constant(toHex(new Uint8Array(32)))), { maxLength: 4 }))
      .map(([t, rest]) => [t, ...rest]);
    const data = fc.oneof(
      bytes(200),
      fc
        .array(fc.oneof(word, fc.constant(`0x${'00'.repeat(31)}20` as Hex)), { maxLength: 6 })
        .map((ws) => `0x${ws.map((w) => w.slice(2)).join('')}` as Hex),
    );
    fc.assert(
      fc.property(topics, data, position, (t, d, pos) => {
        const decoded = decodeLog({ topics: t, data: d, ...pos });
        if (decoded === null) return;
        const { name, txHash: _t, logIndex: _l, blockNumber: _b, ...args } = decoded;
        const again = encodeLog(name, args as never);
        expect(again).toEqual({ topics: t, data: d });
      }),
      { numRuns: 500 },
    );
  });

  it('mutating one byte of a valid log gives null or another exact encoding, never a throw', () => {
    fc.assert(
      fc.property(eventArb, position, fc.nat(), fc.integer({ min: 1, max: 255 }), (ev, pos, at, xor) => {
        const enc = encodeLog(ev.name, ev.args as never);
        const blob = [...enc.topics.map((x) => x.slice(2)), enc.data.slice(2)].join('');
        const i = at % (blob.length / 2);
        const byte = (parseInt(blob.slice(2 * i, 2 * i + 2), 16) ^ xor).toString(16).padStart(2, '0');
        const mutated = blob.slice(0, 2 * i) + byte + blob.slice(2 * i + 2);
        const topics = enc.topics.map((_, k) => `0x${mutated.slice(64 * k, 64 * k + 64)}` as Hex);
        const data = `0x${mutated.slice(64 * enc.topics.length)}` as Hex;
        const decoded = decodeLog({ topics, data, ...pos });
        if (decoded !== null) {
          const { name, txHash: _t, logIndex: _l, blockNumber: _b, ...args } = decoded;
          expect(encodeLog(name, args as never)).toEqual({ topics, data });
        }
      }),
      { numRuns: 300 },
    );
  });
});
