import { describe, expect, it } from 'vitest';
import vectors from './vectors/hashRules.json';
import {
  accountRootHash,
  checkpointRootHash,
  dividendAccountHash,
  keccak256,
  merkleRoot,
  sidechainBlockHash,
} from '../index';
import { toBareHex, fromHex, concatBytes } from './bytes';
import { checkpointRootHashBytes } from './hashRules';
import { pad32 } from './amount';

const empty = vectors.emptyTrieRoot;

describe('keccak sanity vectors', () => {
  for (const v of vectors.keccak) it(`keccak(${v.input})`, () => expect(keccak256(v.input)).toBe(v.hash));
});

describe('hash rule 1: sidechain block hash (heimdall §10.6)', () => {
  for (const leaf of vectors.heimdallLeaves.leaves) {
    it(`leaf(${leaf.number})`, () => {
      const h = {
        number: leaf.number,
        time: vectors.heimdallLeaves.timeBase + 2 * leaf.number,
        txHash: empty,
        receiptHash: empty,
      };
      expect(sidechainBlockHash(h)).toBe(leaf.hash);
    });
  }
  it('accepts bigints and byte arrays', () => {
    const h = { number: 1n, time: 1600000002n, txHash: fromHex(empty), receiptHash: fromHex(empty) };
    expect(sidechainBlockHash(h)).toBe(vectors.heimdallLeaves.leaves[1]!.hash);
  });
  it('names a bad field', () => {
    expect(() => sidechainBlockHash({ number: -1, time: 0, txHash: empty, receiptHash: empty })).toThrow(/number/);
    expect(() => sidechainBlockHash({ number: 0, time: 0, txHash: '0x12', receiptHash: empty })).toThrow(
      /txHash.*32 bytes/,
    );
  });
});

describe('hash rule 2: checkpoint root', () => {
  for (const r of vectors.heimdallLeaves.roots) {
    it(`heimdall root(${r.start}..${r.end})`, () => {
      const headers = range(r.start, r.end).map((k) => ({
        number: k,
        time: vectors.heimdallLeaves.timeBase + 2 * k,
        txHash: empty,
        receiptHash: empty,
      }));
      expect(checkpointRootHash(headers)).toBe(r.root);
    });
  }
  for (const r of vectors.borRootHash.roots) {
    it(`bor_getRootHash(${r.start}, ${r.end})`, () => {
      const headers = range(r.start, r.end).map((k) => ({
        number: k,
        time: 1000 + 2 * (k - 1),
        txHash: empty,
        receiptHash: empty,
      }));
      expect(toBareHex(checkpointRootHashBytes(headers))).toBe(r.root);
    });
  }
});

describe('merkle tree shapes', () => {
  const leaf = (i: number) => keccak256(pad32(i + 1));
  const node = (a: string, b: string) => keccak256(concatBytes(fromHex(a), fromHex(b)));
  const zero = '0x' + '00'.repeat(32);

  it('1 leaf: the root is the leaf', () => expect(merkleRoot([leaf(0)])).toBe(leaf(0)));
  it('2 leaves', () => expect(merkleRoot([leaf(0), leaf(1)])).toBe(node(leaf(0), leaf(1))));
  it('3 leaves: padded with one zero leaf', () =>
    expect(merkleRoot([leaf(0), leaf(1), leaf(2)])).toBe(node(node(leaf(0), leaf(1)), node(leaf(2), zero))));
  it('5 leaves: padded to 8', () => {
    const l = [0, 1, 2, 3, 4].map(leaf);
    const expected = node(node(node(l[0]!, l[1]!), node(l[2]!, l[3]!)), node(node(l[4]!, zero), node(zero, zero)));
    expect(merkleRoot(l)).toBe(expected);
  });
  it('1024 leaves match a recursive reference tree', () => {
    const l = range(0, 1023).map(leaf);
    const ref = (xs: string[]): string =>
      xs.length === 1 ? xs[0]! : node(ref(xs.slice(0, xs.length / 2)), ref(xs.slice(xs.length / 2)));
    expect(merkleRoot(l)).toBe(ref(l));
  });
  it('0 leaves: one zero leaf', () => expect(merkleRoot([])).toBe(zero));
  it('leaves are not sorted', () => expect(merkleRoot([leaf(1), leaf(0)])).not.toBe(merkleRoot([leaf(0), leaf(1)])));
});

describe('hash rules 3 and 4: dividend accounts', () => {
  it('account hash = keccak(pad32(id) ‖ pad32(fee) ‖ pad32(slashed))', () => {
    const expected = keccak256(concatBytes(pad32(7), pad32(10n ** 15n), pad32(0)));
    expect(dividendAccountHash({ id: 7, feeAmount: '1000000000000000', slashedAmount: '0' })).toBe(expected);
  });
  it('zero amounts are 32 zero bytes', () => {
    expect(dividendAccountHash({ id: 0, feeAmount: '0', slashedAmount: '0' })).toBe(keccak256('0x' + '00'.repeat(96)));
  });
  it('account root orders leaves by id, whatever the input order', () => {
    const a = { id: 1, feeAmount: '5', slashedAmount: '0' };
    const b = { id: 2, feeAmount: '0', slashedAmount: '0' };
    const c = { id: 10, feeAmount: '9', slashedAmount: '0' };
    const expected = merkleRoot([dividendAccountHash(a), dividendAccountHash(b), dividendAccountHash(c)]);
    expect(accountRootHash([c, a, b])).toBe(expected);
  });
  it('one account: the root is its hash; none: zero root', () => {
    const a = { id: 3, feeAmount: '1', slashedAmount: '0' };
    expect(accountRootHash([a])).toBe(dividendAccountHash(a));
    expect(accountRootHash([])).toBe('0x' + '00'.repeat(32));
  });
  it('rejects a bad decimal and names the field', () => {
    expect(() => dividendAccountHash({ id: 1, feeAmount: '1e3', slashedAmount: '0' })).toThrow(/feeAmount/);
  });
});

function range(a: number, b: number): number[] {
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}
