import { describe, expect, it } from 'vitest';
import { encodeRlp, keccak256 } from 'ethers';
import { type Hex, bytesToHex, fromRlp, hexToBytes, toRlp } from 'viem';
import { headerRlpList } from '../../sidechain/header';
import { buildFixtureChain } from '../testing/sidechainPort';
import { blockSize } from './blockSize';

describe("geth's block size", () => {
  const chain = buildFixtureChain(14);

  it('is the length of [header, transactions, uncles] in RLP, as viem encodes it (legacy as lists, typed as bytes)', () => {
    // An independent encoder: viem's RLP over the header list, each transaction's signed bytes
    // (a legacy one is an RLP list already, a typed one a byte string) and the empty uncles.
    let withTxs = 0;
    for (const b of chain.canonicalRange(0n)) {
      const txs = b.block.body.txs.map((t) => (t.type === 0 ? fromRlp(t.raw as Hex) : (t.raw as Hex)));
      const header = headerRlpList(b.block.header).map((f) => bytesToHex(f));
      const expected = hexToBytes(toRlp([header, txs, []] as never)).length;
      expect(blockSize(b.block.header, b.block.body.txs), `block ${b.block.header.number}`).toBe(expected);
      if (txs.length) withTxs++;
    }
    expect(withTxs).toBe(2);
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
