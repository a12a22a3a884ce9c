/** The oracles' checkpoint hashes against the public vectors (sidechain.md §7, heimdall.md §10.6). */
import { describe, expect, it } from 'vitest';
import { toHex, type Hex } from '../../../src/core/bytes';
import { accountLeaf, blockLeaf, merkleRoot, pad32 } from './merkle';

const EMPTY: Hex = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
const header = (number: bigint, time: bigint) => ({ number, time, txHash: EMPTY, receiptHash: EMPTY });

describe('checkpoint hash model: public vectors', () => {
  it('bor_getRootHash over {number k, time 1000 + 2(k-1)} (sidechain.md §7)', () => {
    const h = (k: bigint) => header(k, 1000n + 2n * (k - 1n));
    expect(merkleRoot([blockLeaf(h(1n))])).toBe('0x13a4e96a35ad3c7f1956711bfd7c37c51ab24aca05e84ddbff02ddba7dc034e0');
    expect(merkleRoot([blockLeaf(h(1n)), blockLeaf(h(2n))])).toBe(
      '0x58a348fb558cb8519ed9baf6bc76f50effdfe36fbbb09709432fa871dd7438b8',
    );
  });

  it('leaves and root over {number k, time 1600000000 + 2k} (heimdall.md §10.6)', () => {
    const h = (k: bigint) => header(k, 1_600_000_000n + 2n * k);
    expect(toHex(blockLeaf(h(0n)))).toBe('0xe9f4665bab71cb35aa2f491dcff265cbb184786266342098d9e96e12ad9ad091');
    expect(toHex(blockLeaf(h(1n)))).toBe('0x69d97b2e0a6704f1a03fd5b9e5efdc7b324523a812fc0ad902f1d65c1860ed50');
    expect(toHex(blockLeaf(h(2n)))).toBe('0x65869483dd5aa2fc25c39b751e4a5b53b28323af85ab7acff01cee594366ba21');
    expect(merkleRoot([blockLeaf(h(0n)), blockLeaf(h(1n))])).toBe(
      '0x4c8b433caaffca016514d5f74c4f1f0ffdb079e239bf042b93ceabb85a319e7d',
    );
  });

  it('padding: three leaves get one zero leaf; no leaf is a zero root; pad32 is big-endian', () => {
    const h = (k: bigint) => header(k, 1_600_000_000n + 2n * k);
    const three = [blockLeaf(h(0n)), blockLeaf(h(1n)), blockLeaf(h(2n))];
    expect(merkleRoot(three)).toBe(merkleRoot([...three, new Uint8Array(32)]));
    expect(merkleRoot(three)).not.toBe(merkleRoot(three.slice(0, 2)));
    expect(merkleRoot([])).toBe(`0x${'00'.repeat(32)}`);
    expect(toHex(pad32(0x0102n)).endsWith('0102')).toBe(true);
    // An account leaf is a 96-byte preimage: id, fee, slashed (README item 11).
    expect(accountLeaf({ id: 1n, feeAmount: 0n, slashedAmount: 0n })).not.toEqual(
      accountLeaf({ id: 1n, feeAmount: 1n, slashedAmount: 0n }),
    );
  });
});
