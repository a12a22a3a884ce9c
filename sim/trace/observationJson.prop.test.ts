/**
 * The observation serializer writes exactly what JSON.stringify with bigints as strings writes,
 * whatever the values (frozen or not, nested, with the odd values JSON drops or turns into null),
 * and a frozen fact's cached text never outlives a change below it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type RunObservation } from '../core/record';
import { observationJson } from './observationJson';

const reference = (obs: object): string => {
  const { kind: _kind, ...rest } = obs as { kind?: unknown };
  return JSON.stringify(rest, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
};

const leaf = fc.oneof(
  fc.string(),
  fc.bigInt(),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant(-0),
  fc.constant(() => 1),
  fc.constant(new Uint8Array([1, 2])),
);

/** Plain data, some of it frozen (deep or shallow), some objects shared between places. */
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object'), tie('frozen')),
  array: fc.array(tie('node'), { maxLength: 4 }),
  object: fc.dictionary(fc.string({ maxLength: 6 }), tie('node'), { maxKeys: 4 }),
  frozen: fc.oneof(tie('array'), tie('object')).map((v) => Object.freeze(v)),
}));

describe('observationJson', () => {
  it('writes what JSON.stringify with bigints as strings writes', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 6 }), value.node, { maxKeys: 5 }), fc.boolean(), (o, kind) => {
        const obs = (kind ? { kind: 'x', ...o } : o) as unknown as RunObservation;
        // Twice: the second time from the cache of frozen facts.
        expect(observationJson(obs)).toBe(reference(obs));
        expect(observationJson(obs)).toBe(reference(obs));
      }),
    );
  });

  it('caches the text of a frozen fact only when nothing below it can change', () => {
    const inner = { n: 1n };
    const shallow = Object.freeze({ inner });
    const deep = Object.freeze({ a: 'x', b: Object.freeze({ c: 2n }) });
    const obs = { kind: 'test', shallow, deep } as unknown as RunObservation;
    expect(observationJson(obs)).toBe('{"shallow":{"inner":{"n":"1"}},"deep":{"a":"x","b":{"c":"2"}}}');
    inner.n = 5n;
    expect(observationJson(obs)).toBe('{"shallow":{"inner":{"n":"5"}},"deep":{"a":"x","b":{"c":"2"}}}');
    expect(observationJson(obs)).toBe(reference(obs));
  });
});

describe('observationJson: fields left out of the trace', () => {
  it("writes a client transaction's answer without the admission facts it was given on", () => {
    const answer = { kind: 'sidechain.tx', hash: '0xab', ok: false, error: 'nonce too low', origin: 'client' };
    const withFacts = { ...answer, admission: { poolSize: 3, before: [], after: [] } } as unknown as RunObservation;
    expect(observationJson(withFacts)).toBe(reference(answer));
    expect(observationJson(withFacts)).toBe('{"hash":"0xab","ok":false,"error":"nonce too low","origin":"client"}');
    // Another kind's field of that name is written.
    const other = { kind: 'x', admission: 1 } as unknown as RunObservation;
    expect(observationJson(other)).toBe('{"admission":1}');
  });
});
