import { describe, expect, it } from 'vitest';
import { encodeRlp, keccak256 } from 'ethers';
import { headerRlpList } from '../../sidechain/header';
import { buildFixtureChain } from '../testing/sidechainPort';
import { blockSize } from './blockSize';

describe("geth's block size", () => {
  const chain = buildFixtureChain(14);

  it('matches the sizes the hand-written RLP length gave before it was replaced (genesis, transfers, producer lists)', () => {
    // Computed by the previous implementation over the same fixture chain: genesis carries the
    // producers, 3/7/11 are sprint ends with producer lists, 10 and 12 carry two transfers.
    const expected: Record<string, number> = {
      0: 0x33f,
      1: 0x25d,
      2: 0x25d,
      3: 0x2fe,
      4: 0x25d,
      5: 0x25d,
      6: 0x25d,
      7: 0x2fe,
      8: 0x25d,
      9: 0x25d,
      10: 0x2a8,
      11: 0x2fe,
      12: 0x2a8,
      13: 0x25d,
      14: 0x25d,
    };
    for (const b of chain.canonicalRange(0n))
      expect(blockSize(b.block.header, b.block.body.txs), `block ${b.block.header.number}`).toBe(
        expected[String(b.block.header.number)],
      );
  });

  it('an empty block is its header (the block hash preimage) and two empty lists, in one list', () => {
    const b = chain.byNumber(5n)!;
    const header = encodeRlp(headerRlpList(b.block.header));
    expect(keccak256(header)).toBe(b.block.hash);
    const payload = (header.length - 2) / 2 + 2; // + 0xc0 0xc0
    const prefix = payload <= 55 ? 1 : 1 + Math.ceil(payload.toString(16).length / 2);
    expect(blockSize(b.block.header, [])).toBe(prefix + payload);
  });
});
