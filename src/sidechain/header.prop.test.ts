import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Wallet } from 'ethers';
import { type SidechainHeader, buildExtra, headerHash, recoverSigner, sealHash, sealHeader } from './header';
import { fromHex, toHex, type Hex } from '../core/bytes';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const privateKey = fc.bigInt({ min: 1n, max: N - 1n }).map((k) => '0x' + k.toString(16).padStart(64, '0'));
const hex = (len: number) => fc.uint8Array({ minLength: len, maxLength: len }).map((b) => toHex(b));
const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });

const header: fc.Arbitrary<SidechainHeader> = fc
  .record({
    parentHash: hex(32),
    uncleHash: hex(32),
    coinbase: hex(20),
    stateRoot: hex(32),
    txHash: hex(32),
    receiptHash: hex(32),
    bloom: hex(256),
    difficulty: fc.bigInt({ min: 0n, max: 1n << 128n }),
    number: u64,
    gasLimit: u64,
    gasUsed: u64,
    time: u64,
    vanity: hex(32),
    middle: fc.integer({ min: 0, max: 3 }).chain((k) => hex(40 * k)),
    mixDigest: hex(32),
    nonce: hex(8),
    baseFee: fc.option(fc.bigInt({ min: 0n, max: 1n << 100n }), { nil: undefined }),
  })
  .map(({ vanity, middle, baseFee, ...rest }) => {
    const h: SidechainHeader = { ...rest, extraData: buildExtra(middle, vanity) };
    if (baseFee !== undefined) h.baseFee = baseFee;
    return h;
  });

const HEX_FIELDS = [
  'parentHash',
  'uncleHash',
  'coinbase',
  'stateRoot',
  'txHash',
  'receiptHash',
  'bloom',
  'mixDigest',
  'nonce',
] as const;
const INT_FIELDS = ['difficulty', 'number', 'gasLimit', 'gasUsed', 'time', 'baseFee'] as const;

function flipHex(value: Hex, bit: number, limitBytes?: number): Hex {
  const b = Uint8Array.from(fromHex(value));
  const at = bit % ((limitBytes ?? b.length) * 8);
  b[at >> 3]! ^= 1 << (at & 7);
  return toHex(b);
}

/** Flip one bit of one sealed field; the field is picked by `pick`, the bit by `bit`. */
function flipSealedBit(h: SidechainHeader, pick: number, bit: number): { header: SidechainHeader; field: string } {
  const fields: string[] = [...HEX_FIELDS, ...INT_FIELDS.filter((f) => h[f] !== undefined), 'extraData'];
  const field = fields[pick % fields.length]!;
  const out: SidechainHeader = { ...h };
  if ((HEX_FIELDS as readonly string[]).includes(field)) {
    const f = field as (typeof HEX_FIELDS)[number];
    (out as unknown as Record<string, Hex>)[f] = flipHex(h[f], bit);
  } else if (field === 'extraData') {
    // Only the signed part: everything but the 65-byte seal.
    out.extraData = flipHex(h.extraData, bit, fromHex(h.extraData).length - 65);
  } else {
    const f = field as (typeof INT_FIELDS)[number];
    const width = f === 'difficulty' ? 128 : f === 'baseFee' ? 100 : 64;
    out[f] = (h[f] as bigint) ^ (1n << BigInt(bit % width));
  }
  return { header: out, field };
}

describe('seal properties', () => {
  it('seal/recover round-trips for random keys and headers', () => {
    fc.assert(
      fc.property(privateKey, header, (sk, h) => {
        const sealed = sealHeader(h, sk);
        expect(recoverSigner(sealed)).toBe(new Wallet(sk).address.toLowerCase());
        expect(sealHash(sealed)).toBe(sealHash(h));
      }),
      { numRuns: 100 },
    );
  });

  it('any bit flip in a sealed field changes the seal hash, the block hash and the recovered signer', () => {
    fc.assert(
      fc.property(privateKey, header, fc.nat(), fc.nat({ max: 2047 }), (sk, h, pick, bit) => {
        const sealed = sealHeader(h, sk);
        const signer = recoverSigner(sealed);
        const { header: flipped, field } = flipSealedBit(sealed, pick, bit);
        expect(sealHash(flipped), field).not.toBe(sealHash(sealed));
        expect(headerHash(flipped), field).not.toBe(headerHash(sealed));
        expect(recoverSigner(flipped), field).not.toBe(signer);
      }),
      { numRuns: 150 },
    );
  });
});
