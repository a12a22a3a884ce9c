import { describe, expect, it } from 'vitest';
import { Wallet, encodeRlp, keccak256 as ethersKeccak } from 'ethers';
import vectors from './vectors/sidechain.json';
import {
  type SidechainHeader,
  EMPTY_TRIE_ROOT,
  UNCLE_HASH,
  ZERO_HASH,
  buildExtra,
  decodeValidatorBytes,
  encodeValidatorBytes,
  headerHash,
  headerValidatorBytes,
  makeHeader,
  recoverSigner,
  sealHash,
  sealHeader,
} from './header';
import { fromHex, toHex } from '../core/bytes';
import { ZERO_ADDRESS } from '../core/address';

function zeroHeader(extraBytes: number, baseFee?: bigint): SidechainHeader {
  const h: SidechainHeader = {
    parentHash: ZERO_HASH,
    uncleHash: ZERO_HASH,
    coinbase: ZERO_ADDRESS,
    stateRoot: ZERO_HASH,
    txHash: ZERO_HASH,
    receiptHash: ZERO_HASH,
    bloom: toHex(new Uint8Array(256)),
    difficulty: 0n,
    number: 0n,
    gasLimit: 0n,
    gasUsed: 0n,
    time: 0n,
    extraData: toHex(new Uint8Array(extraBytes)),
    mixDigest: ZERO_HASH,
    nonce: '0x0000000000000000',
  };
  if (baseFee !== undefined) h.baseFee = baseFee;
  return h;
}

describe('constants', () => {
  it('uncle hash = keccak(rlp([])), empty trie root = keccak(rlp(""))', () => {
    expect(UNCLE_HASH).toBe(vectors.keccak.uncleHash);
    expect(UNCLE_HASH).toBe(ethersKeccak(encodeRlp([])));
    expect(EMPTY_TRIE_ROOT).toBe(vectors.keccak.emptyTrieRoot);
    expect(EMPTY_TRIE_ROOT).toBe(ethersKeccak(encodeRlp('0x')));
  });
});

describe('seal hash (sidechain.md §1.2, §7)', () => {
  it('geth TestSealHash vector', () => {
    const h = zeroHeader(vectors.sealHash.extraBytes, BigInt(vectors.sealHash.baseFee));
    expect(sealHash(h)).toBe(vectors.sealHash.hash);
  });
  it('covers baseFee only when present', () => {
    expect(sealHash(zeroHeader(97))).not.toBe(vectors.sealHash.hash);
  });
  it('ignores the seal bytes but not the vanity or the middle', () => {
    const h = zeroHeader(97, 0n);
    const extra = fromHex(h.extraData);
    extra[96] = 7; // in the seal
    expect(sealHash({ ...h, extraData: toHex(extra) })).toBe(vectors.sealHash.hash);
    extra[31] = 7; // in the vanity
    expect(sealHash({ ...h, extraData: toHex(extra) })).not.toBe(vectors.sealHash.hash);
  });
  it('needs room for a seal', () => {
    expect(() => sealHash(zeroHeader(64))).toThrow(/header\.extraData: shorter than the 65-byte seal/);
  });
  it('names a bad field', () => {
    expect(() => sealHash({ ...zeroHeader(97), parentHash: '0x12' })).toThrow(/header\.parentHash: expected 32 bytes/);
    expect(() => sealHash({ ...zeroHeader(97), gasLimit: 1n << 64n })).toThrow(/header\.gasLimit: out of range/);
    expect(() => sealHash({ ...zeroHeader(97), number: -1n })).toThrow(/header\.number: must not be negative/);
  });
});

describe('header hash', () => {
  it('Ethereum mainnet genesis (independent check of the RLP layout)', () => {
    const j = vectors.headerHash.header;
    const h: SidechainHeader = {
      ...zeroHeader(0),
      uncleHash: j.uncleHash as `0x${string}`,
      stateRoot: j.stateRoot as `0x${string}`,
      txHash: j.txHash as `0x${string}`,
      receiptHash: j.receiptHash as `0x${string}`,
      difficulty: BigInt(j.difficulty),
      gasLimit: BigInt(j.gasLimit),
      extraData: j.extraData as `0x${string}`,
      nonce: j.nonce as `0x${string}`,
    };
    expect(headerHash(h)).toBe(vectors.headerHash.hash);
  });
  it('covers the seal, unlike the seal hash', () => {
    const h = makeHeader({ number: 1n, parentHash: ZERO_HASH, time: 2n });
    const sealed = sealHeader(h, '0x' + '01'.repeat(32));
    expect(sealHash(sealed)).toBe(sealHash(h));
    expect(headerHash(sealed)).not.toBe(headerHash(h));
  });
});

describe('seal and recover', () => {
  const sk = '0x' + '42'.repeat(32);
  const address = new Wallet(sk).address.toLowerCase();

  it('recovers the sealing key’s address', () => {
    const h = makeHeader({ number: 5n, parentHash: ZERO_HASH, time: 1010n, difficulty: 3n, baseFee: 7n });
    const sealed = sealHeader(h, sk);
    expect(recoverSigner(sealed)).toBe(address);
    // The seal is r ‖ s ‖ v with v ∈ {0,1}, in the last 65 bytes; the rest of extra is untouched.
    const extra = fromHex(sealed.extraData);
    expect(extra.length).toBe(97);
    expect(extra[96] === 0 || extra[96] === 1).toBe(true);
    expect(toHex(extra.subarray(0, 32))).toBe(ZERO_HASH);
  });
  it('keeps the producer list in the middle of extra', () => {
    const vb = encodeValidatorBytes([{ address: '0x' + '22'.repeat(20), power: 3 }]);
    const h = makeHeader({ number: 15n, parentHash: ZERO_HASH, time: 0n, extraData: buildExtra(vb) });
    const sealed = sealHeader(h, sk);
    expect(toHex(headerValidatorBytes(sealed))).toBe(vb);
    expect(recoverSigner(sealed)).toBe(address);
  });
  it('an unsealed (zero) seal recovers nothing', () => {
    expect(recoverSigner(makeHeader({ number: 1n, parentHash: ZERO_HASH, time: 0n }))).toBeNull();
  });
  it('a short extra has no seal', () => {
    expect(
      recoverSigner({ ...makeHeader({ number: 1n, parentHash: ZERO_HASH, time: 0n }), extraData: '0x00' }),
    ).toBeNull();
    expect(() =>
      sealHeader(
        { ...makeHeader({ number: 1n, parentHash: ZERO_HASH, time: 0n }), extraData: toHex(new Uint8Array(96)) },
        sk,
      ),
    ).toThrow(/header\.extraData: needs 32 bytes of vanity and 65 of seal/);
  });
  it('does not modify its input', () => {
    const h = makeHeader({ number: 1n, parentHash: ZERO_HASH, time: 0n });
    const before = h.extraData;
    sealHeader(h, sk);
    expect(h.extraData).toBe(before);
  });
});

describe('validator bytes (sidechain.md §2.6)', () => {
  const a = '0x00000000000000000000000000000000000000aa';
  const b = '0x00000000000000000000000000000000000000bb';
  it('sorted by address, 20-byte address ‖ 20-byte big-endian power', () => {
    const hex = encodeValidatorBytes([
      { address: b.toUpperCase().replace('0X', '0x'), power: 258n },
      { address: a, power: 1 },
    ]);
    expect(hex).toBe('0x' + a.slice(2) + '00'.repeat(19) + '01' + b.slice(2) + '00'.repeat(18) + '0102');
    expect(decodeValidatorBytes(hex)).toEqual([
      { address: a, power: 1n },
      { address: b, power: 258n },
    ]);
  });
  it('empty list ↔ empty bytes', () => {
    expect(encodeValidatorBytes([])).toBe('0x');
    expect(decodeValidatorBytes('0x')).toEqual([]);
  });
  it('rejects a bad list, naming the field', () => {
    expect(() => encodeValidatorBytes([{ address: a, power: 0 }])).toThrow(/validators\[0\]\.power: must be positive/);
    expect(() => encodeValidatorBytes([{ address: a, power: 1n << 160n }])).toThrow(/does not fit in 20 bytes/);
    expect(() =>
      encodeValidatorBytes([
        { address: a, power: 1 },
        { address: a, power: 2 },
      ]),
    ).toThrow(/duplicate producer/);
    expect(() => encodeValidatorBytes([{ address: '0x12', power: 1 }])).toThrow(/validators\[0\]\.address/);
    expect(() => decodeValidatorBytes(toHex(new Uint8Array(41)))).toThrow(/invalid validator list on sprint end block/);
  });
  it('buildExtra lays out vanity ‖ middle ‖ seal', () => {
    expect(fromHex(buildExtra()).length).toBe(97);
    const vanity = toHex(new Uint8Array(32).fill(9));
    const extra = fromHex(buildExtra('0x' + '01'.repeat(40), vanity));
    expect(extra.length).toBe(32 + 40 + 65);
    expect(extra[0]).toBe(9);
    expect(extra[32]).toBe(1);
    expect(extra[72]).toBe(0);
    expect(() => buildExtra('0x', '0x00')).toThrow(/vanity: expected 32 bytes/);
  });
});
