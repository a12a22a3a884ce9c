import { describe, expect, it } from 'vitest';
import vectors from './vectors/sidechain.json';
import * as sidechain from './index';

describe('sidechain library surface (a public contract: names stay stable)', () => {
  it('exports the four library functions', () => {
    for (const name of ['calcProducerDelay', 'sidechainDifficulty', 'stateSyncTxHash', 'sidechainRootHash']) {
      expect(typeof (sidechain as Record<string, unknown>)[name], name).toBe('function');
    }
  });
  it('they answer the public vectors', () => {
    const d = vectors.producerDelay[1]!;
    expect(sidechain.calcProducerDelay(d.number, d.succession, d.params)).toBe(d.delay);
    const { A, B, C } = vectors.sprintRotation.addresses;
    expect(sidechain.sidechainDifficulty([C, B, A], B, A)).toBe(1n);
    const s = vectors.stateSyncTxHash[1]!;
    expect(sidechain.stateSyncTxHash(s.number, s.blockHash)).toBe(s.txHash);
    const empty = vectors.keccak.emptyTrieRoot;
    const root = sidechain.sidechainRootHash(
      [1, 2].map((k) => ({ number: k, time: 1000 + 2 * (k - 1), txHash: empty, receiptHash: empty })),
    );
    expect(root).toBe(vectors.rootHash.roots[1]!.root);
  });
});
