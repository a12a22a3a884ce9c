/**
 * RLP over bytes: the same bytes as ethers' encoder (the one the project used before, and the one
 * that still serialises its signed transactions) for any nesting of byte strings, and decode
 * gives the item back. Pinned vectors from the RLP spec's examples beside it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeRlp, encodeRlp, getBytes } from 'ethers';
import { toHex, utf8 } from './bytes';
import { type RlpItem, rlpDecode, rlpEncode } from './rlp';

const item: fc.Memo<RlpItem> = fc.memo((depth) =>
  depth <= 1
    ? fc.uint8Array({ maxLength: 70 })
    : fc.oneof(fc.uint8Array({ maxLength: 70 }), fc.array(item(depth - 1), { maxLength: 5 })),
);

/** The item in ethers' input form (hex strings and arrays). */
const asEthers = (x: RlpItem): unknown => (x instanceof Uint8Array ? toHex(x) : x.map(asEthers));
/** ethers' decoded form (hex strings) as bytes. */
const fromEthers = (x: unknown): RlpItem => (typeof x === 'string' ? getBytes(x) : (x as unknown[]).map(fromEthers));

describe('RLP', () => {
  it('the spec examples', () => {
    expect(toHex(rlpEncode(utf8('dog')))).toBe('0x83646f67');
    expect(toHex(rlpEncode([utf8('cat'), utf8('dog')]))).toBe('0xc88363617483646f67');
    expect(toHex(rlpEncode(new Uint8Array()))).toBe('0x80');
    expect(toHex(rlpEncode([]))).toBe('0xc0');
    expect(toHex(rlpEncode(new Uint8Array([0x0f])))).toBe('0x0f');
    expect(toHex(rlpEncode(new Uint8Array([0x04, 0x00])))).toBe('0x820400');
    expect(toHex(rlpEncode([[], [[]], [[], [[]]]]))).toBe('0xc7c0c1c0c3c0c1c0');
  });

  it("encodes as ethers' encoder does, and decodes back", () => {
    fc.assert(
      fc.property(item(4), (x) => {
        const bytes = rlpEncode(x);
        expect(toHex(bytes)).toBe(encodeRlp(asEthers(x) as Parameters<typeof encodeRlp>[0]));
        expect(rlpDecode(bytes)).toEqual(x);
        expect(fromEthers(decodeRlp(bytes))).toEqual(x);
      }),
      { numRuns: 300 },
    );
  });
});
