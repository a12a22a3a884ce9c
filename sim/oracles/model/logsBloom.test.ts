/**
 * The oracle's own bloom, pinned by public vectors (not by the sidechain's code): geth's
 * TestBloomExtensively (core/types/bloom9_test.go: 100 items, the keccak256 of the bloom), and two
 * Ethereum mainnet receipts with their logs and `logsBloom` as a node returned them (ethers' test
 * data, src.ts/_tests/blockchain-data.ts): one with a single log, one with two.
 */
import { describe, expect, it } from 'vitest';
import { toHex, fromHex, utf8 } from '../../../src/core/bytes';
import { keccak256Raw } from '../../../src/core/hash';
import { EMPTY_BLOOM, bloomBits, bloomOfItems, firstDifferingByte, logsBloom } from './logsBloom';

/** 0x + 512 hex digits, written as runs of zero bytes between the non-zero ones (position → byte). */
function bloomHex(set: Record<number, string>): string {
  const bytes = Array.from({ length: 256 }, (_, i) => set[i] ?? '00');
  return `0x${bytes.join('')}`;
}

describe('the oracle’s logs bloom', () => {
  it('geth TestBloomExtensively: 100 items, keccak256 of the bloom is c8d3ca65…', () => {
    const items = Array.from({ length: 100 }, (_, i) => utf8(`xxxxxxxxxx data ${i} yyyyyyyyyyyyyy`));
    expect(toHex(keccak256Raw(fromHex(bloomOfItems(items))))).toBe(
      '0xc8d3ca65cdb4874300a9e39475508f23ed6da09fdbc487f89a2dcf50b09eb263',
    );
  });

  it('mainnet receipt 0x7f1c6a58… (block 4,476,790): one log, address and two topics', () => {
    const bloom = logsBloom([
      {
        address: '0xb90E64082D00437e65A76d4c8187596BC213480a',
        topics: [
          '0x748d071d1992ee1bfe7a39058114d0a50d5798fe8eb3a9bfb4687f024629a2ce',
          '0x5574aa58f7191ccab6de6cf75fe2ea0484f010b852fdd8c6b7ae151d6c2f4b83',
        ],
      },
    ]);
    expect(bloom).toBe(
      '0x00000000000000000000000000000000000000000000000000008000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001000000000000000200000000000000008000000000000000000000000000000000000000000000000000000000000000010000000000000000000800000000000000000000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000800000000000000000800000000000000000000000000000000000000',
    );
    // Three items, three bits each, no two landing on one bit here: nine bits set.
    expect([...fromHex(bloom)].reduce((n, b) => n + b.toString(2).replaceAll('0', '').length, 0)).toBe(9);
  });

  it('mainnet receipt 0xc6fcb7d0… (block 3,969,717): two logs, both in one bloom', () => {
    expect(
      logsBloom([
        {
          address: '0x314159265dD8dbb310642f98f50C066173C1259b',
          topics: [
            '0xce0457fe73731f824cc272376169235128c118b49d344817417c6d108d155e82',
            '0x93cdeb708b7545dc668eb9280176169d1c33cfd8ed6f04690a0bcc88a93fc4ae',
            '0xf0106919d12469348e14ad6a051d0656227e1aba2fefed41737fdf78421b20e1',
          ],
        },
        {
          address: '0x6090A6e47849629b7245Dfa1Ca21D94cd15878Ef',
          topics: [
            '0x0f0c27adfd84b60b6f456b0e87cdccb1e5fb9603991588d87fa99f5b6b61e670',
            '0xf0106919d12469348e14ad6a051d0656227e1aba2fefed41737fdf78421b20e1',
            '0x00000000000000000000000018c6045651826824febbd39d8560584078d1b247',
          ],
        },
      ]),
    ).toBe(
      '0x00000000000000040000000000100000010000000000000040000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000200000010000000004000000000000000000000000000000000002000000000000000000000000400000000020000000000000000000000000000000000000004000000000000000000000000000000000000000000000000801000000000000000000000020000000000040000000040000000000000000002000000004000000000000000000000000000000000000000000000010000000000000000000000000000000000200000000000000000',
    );
  });

  it('no logs: the empty bloom, 256 zero bytes', () => {
    expect(logsBloom([])).toBe(EMPTY_BLOOM);
    expect(EMPTY_BLOOM).toBe(bloomHex({}));
    expect(bloomOfItems([])).toBe(EMPTY_BLOOM);
  });

  it('bit k is bit k % 8 of byte 255 − k / 8: the empty input sets bits 1490, 1537, 1783', () => {
    // keccak256("") = c5d2460186f7…: pairs c5d2, 4601, 86f7, low 11 bits 1490, 1537, 1783.
    expect(bloomBits(new Uint8Array())).toEqual([1490, 1537, 1783]);
    expect(bloomOfItems([new Uint8Array()])).toBe(bloomHex({ 33: '80', 63: '02', 69: '04' }));
  });

  it('names the first byte that differs, with both values', () => {
    const a = bloomHex({ 10: '01', 200: '80' });
    expect(firstDifferingByte(a, a)).toBeNull();
    expect(firstDifferingByte(a, a.toUpperCase().replace('0X', '0x'))).toBeNull();
    expect(firstDifferingByte(a, bloomHex({ 10: '01', 200: '00' }))).toEqual({
      byte: 200,
      expected: '0x80',
      got: '0x00',
    });
    expect(firstDifferingByte(a, EMPTY_BLOOM)).toEqual({ byte: 10, expected: '0x01', got: '0x00' });
    expect(firstDifferingByte(a, '0x')).toEqual({ byte: 0, expected: '0x00', got: 'none' });
  });
});
