import { describe, expect, it } from 'vitest';
import vectors from './vectors/sidechain.json';
import { borReceiptKey, stateSyncTxHash } from './stateSync';
import { fromHex, toHex } from '../core/bytes';

describe('state-sync tx hash (sidechain.md §2.8, §7)', () => {
  for (const v of vectors.stateSyncTxHash) {
    it(`(${v.number}, ${v.blockHash.slice(0, 6)}…)`, () => {
      expect(stateSyncTxHash(v.number, v.blockHash)).toBe(v.txHash);
      expect(stateSyncTxHash(BigInt(v.number), fromHex(v.blockHash))).toBe(v.txHash);
      const key = borReceiptKey(v.number, v.blockHash);
      expect(key.length).toBe(58);
      expect(toHex(key)).toBe(v.keyPrefix + v.blockHash.slice(2));
    });
  }
  it('names a bad argument', () => {
    expect(() => stateSyncTxHash(-1, '0x' + '00'.repeat(32))).toThrow(/^number:/);
    expect(() => stateSyncTxHash(1n << 64n, '0x' + '00'.repeat(32))).toThrow(/^number:/);
    expect(() => stateSyncTxHash(1, '0x00')).toThrow(/^blockHash: expected 32 bytes/);
  });
});
