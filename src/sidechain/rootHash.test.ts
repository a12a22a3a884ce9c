import { describe, expect, it } from 'vitest';
import vectors from './vectors/sidechain.json';
import { type RootHashChainView, MAX_CHECKPOINT_LENGTH, rootHashOf, sidechainRootHash } from './rootHash';
import { type SidechainHeaderFields } from '../core/hashRules';

const empty = vectors.keccak.emptyTrieRoot;
const synthetic = (k: bigint): SidechainHeaderFields => ({
  number: k,
  time: 1000n + 2n * (k - 1n),
  txHash: empty,
  receiptHash: empty,
});
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => BigInt(a + i));

function chainTo(head: bigint, missing: bigint[] = []): RootHashChainView {
  return {
    headNumber: () => head,
    headerByNumber: (n) => (n <= head && !missing.includes(n) ? synthetic(n) : undefined),
  };
}

describe('sidechainRootHash (bor_getRootHash format)', () => {
  for (const r of vectors.rootHash.roots) {
    it(`[${r.start}, ${r.end}]`, () => {
      const root = sidechainRootHash(range(r.start, r.end).map(synthetic));
      expect(root).toBe(r.root);
      expect(root).toMatch(/^[0-9a-f]{64}$/);
    });
  }
});

describe('rootHashOf: Bor GetRootHash checks (sidechain.md §4.2)', () => {
  const chain = chainTo(100n);
  it('answers the vectors through a chain view', () => {
    for (const r of vectors.rootHash.roots)
      expect(rootHashOf(chain, r.start, r.end)).toEqual({ ok: true, value: r.root });
  });
  it('start > end or end > head', () => {
    expect(rootHashOf(chain, 5, 4)).toEqual({
      ok: false,
      error: { codespace: 'jsonrpc', code: -32000, message: 'Invalid parameters start: 5 and end block: 4 params' },
    });
    expect(rootHashOf(chain, 1n, 101n)).toMatchObject({
      ok: false,
      error: { message: 'Invalid parameters start: 1 and end block: 101 params' },
    });
  });
  it('too long', () => {
    const end = MAX_CHECKPOINT_LENGTH; // [0, 2^15] is 2^15 + 1 blocks
    expect(rootHashOf(chainTo(1n << 20n), 0n, end)).toMatchObject({
      ok: false,
      error: { code: -32000, message: 'Start: 0 and end block: 32768 exceed max allowed checkpoint length: 32768' },
    });
  });
  it('the uint64 wrap: start >= end + 2 reports the length error, start = end + 1 the start/end one', () => {
    expect(rootHashOf(chain, 6, 4)).toMatchObject({
      ok: false,
      error: { message: 'Start: 6 and end block: 4 exceed max allowed checkpoint length: 32768' },
    });
    expect(rootHashOf(chain, 5, 4)).toMatchObject({
      ok: false,
      error: { message: 'Invalid parameters start: 5 and end block: 4 params' },
    });
  });
  it('a missing header is "unknown block"', () => {
    expect(rootHashOf(chainTo(10n, [3n]), 1, 4)).toMatchObject({ ok: false, error: { message: 'unknown block' } });
  });
  it('bad numbers are input errors', () => {
    expect(() => rootHashOf(chain, -1, 4)).toThrow(/^start:/);
    expect(() => rootHashOf(chain, 1, 1n << 64n)).toThrow(/^end:/);
  });
});
