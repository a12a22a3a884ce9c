import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_JSON_DEPTH, encodeJson, parseJsonValue, parseRpcBody } from './jsonText';
import { JsonNumber } from '../../core/jsonNumber';

/** Big integers come back as bigints, other non-integers with their text; compare them as the doubles JSON.parse makes. */
function asDoubles(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof JsonNumber) return v.value;
  if (Array.isArray(v)) return v.map(asDoubles);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v))
      Object.defineProperty(out, k, { value: asDoubles(x), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}

const jsonParseOk = (s: string): boolean => {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
};

describe('jsonText: the parser agrees with JSON.parse', () => {
  it('on valid JSON: the same value (property)', () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 4 }), (text) => {
        const r = parseJsonValue(text);
        expect(r.ok).toBe(true);
        expect(asDoubles((r as { value: unknown }).value)).toEqual(JSON.parse(text));
      }),
      { numRuns: 1000 },
    );
  });

  it('on arbitrary and mutated text: accepts exactly what JSON.parse accepts (property)', () => {
    const mutated = fc
      .tuple(
        fc.json({ maxDepth: 3 }),
        fc.nat(),
        fc.constantFrom('', ',', ']', '}', '"', ':', '\\', 'x', '0', '-', ' ', '\u0001'),
      )
      .map(([t, at, ins]) => {
        const i = t.length === 0 ? 0 : at % t.length;
        return t.slice(0, i) + ins + t.slice(i + (ins === '' ? 1 : 0));
      });
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 40 }), mutated), (text) => {
        expect(parseJsonValue(text).ok, JSON.stringify(text)).toBe(jsonParseOk(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps integers beyond 2^53 exact, and "__proto__" as an own key', () => {
    expect(
      parseJsonValue('[18446744073709551615,-9007199254740993,9007199254740991,1e400,1.5,1.0,1E0,-0,0,-7]'),
    ).toEqual({
      ok: true,
      value: [
        18446744073709551615n,
        -9007199254740993n,
        9007199254740991,
        new JsonNumber('1e400', Infinity),
        new JsonNumber('1.5', 1.5),
        new JsonNumber('1.0', 1),
        new JsonNumber('1E0', 1),
        new JsonNumber('-0', -0),
        0,
        -7,
      ],
    });
    expect(encodeJson(parseJsonValue('[1.0,2.5]'))).toBe('{"ok":true,"value":[1,2.5]}');
    const r = parseJsonValue('{"__proto__":{"polluted":1}}') as { ok: true; value: Record<string, unknown> };
    expect(Object.hasOwn(r.value, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('decodes escapes; an unpaired surrogate becomes U+FFFD as in Go', () => {
    expect(parseJsonValue('"a\\u0041\\n\\/\\ud83d\\ude00"')).toEqual({ ok: true, value: 'aA\n/😀' });
    expect(parseJsonValue('"\\ud800x"')).toEqual({ ok: true, value: '\ufffdx' });
    expect(parseJsonValue('"\\ud800\\u0041"')).toEqual({ ok: true, value: '\ufffdA' });
    expect(parseJsonValue('"\\udc00"')).toEqual({ ok: true, value: '\ufffd' });
  });

  it(`nests up to ${MAX_JSON_DEPTH} levels; deeper is malformed, never a crash`, () => {
    const nest = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(parseJsonValue(nest(MAX_JSON_DEPTH)).ok).toBe(true);
    expect(parseJsonValue(`${'{"a":'.repeat(MAX_JSON_DEPTH)}1${'}'.repeat(MAX_JSON_DEPTH)}`).ok).toBe(true);
    expect(parseJsonValue(nest(MAX_JSON_DEPTH + 1)).ok).toBe(false);
    expect(parseJsonValue(`${'['.repeat(MAX_JSON_DEPTH)}{}${']'.repeat(MAX_JSON_DEPTH)}`).ok).toBe(false);
    // The batch array and the message object count, as in Go.
    const deepParams = (n: number) => `[{"jsonrpc":"2.0","id":1,"method":"m","params":${nest(n)}}]`;
    expect(parseRpcBody(deepParams(MAX_JSON_DEPTH - 2)).ok).toBe(true);
    expect(parseRpcBody(deepParams(MAX_JSON_DEPTH - 1)).ok).toBe(false);
    expect(parseRpcBody(nest(200_000)).ok).toBe(false);
    expect(parseRpcBody('['.repeat(5_000_000)).ok).toBe(false);
  });
});

describe('jsonText: messages as geth decodes them', () => {
  it('keeps the raw id text and reads the fields', () => {
    const r = parseRpcBody(' {"id" : 1.50 , "jsonrpc":"2.0","method":"m","params":[1,{"a":null}]} ');
    expect(r).toEqual({
      ok: true,
      batch: false,
      messages: [
        {
          version: '2.0',
          idRaw: '1.50',
          method: 'm',
          hasParams: true,
          params: [1, { a: null }],
          hasResult: false,
          hasError: false,
        },
      ],
    });
  });

  it('a batch is an array of messages; non-objects are empty messages', () => {
    const r = parseRpcBody('[{"jsonrpc":"2.0","id":"a","method":"x"}, 5, null, [], {"result":1,"error":null}]');
    expect(r.ok && r.batch).toBe(true);
    const ms = (r as unknown as { messages: Array<Record<string, unknown>> }).messages;
    expect(ms).toHaveLength(5);
    expect(ms[0]).toMatchObject({ idRaw: '"a"', method: 'x' });
    for (const m of ms.slice(1, 4))
      expect(m).toMatchObject({ version: '', idRaw: undefined, method: '', hasParams: false });
    expect(ms[4]).toMatchObject({ hasResult: true, hasError: true });
  });

  it('an empty body or a broken first value is malformed; text after the first value is ignored', () => {
    expect(parseRpcBody('').ok).toBe(false);
    expect(parseRpcBody(' \n\t').ok).toBe(false);
    expect(parseRpcBody('[{"id":1},').ok).toBe(false);
    expect(parseRpcBody('{"id":1} ]]] nonsense').ok).toBe(true);
    expect(parseRpcBody('\ufeff{}').ok).toBe(false);
  });
});

describe('jsonText: encodeJson', () => {
  it('matches JSON.stringify on JSON values (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => {
        expect(encodeJson(v)).toBe(JSON.stringify(v));
      }),
      { numRuns: 1000 },
    );
  });

  it('writes bigints as numbers, drops what JSON.stringify drops, refuses cycles', () => {
    expect(encodeJson({ a: 12345678901234567890n, b: undefined, c: [undefined, NaN, -Infinity], d: () => 1 })).toBe(
      '{"a":12345678901234567890,"c":[null,null,null]}',
    );
    expect(encodeJson({ t: { toJSON: () => 'x' } })).toBe('{"t":"x"}');
    expect(encodeJson(undefined)).toBe('null');
    const cyc: Record<string, unknown> = {};
    cyc.self = cyc;
    expect(() => encodeJson(cyc)).toThrow(/cyclic/);
  });
});
