import { describe, expect, it } from 'vitest';
import { type Hex } from '../../core/bytes';
import { type SidechainBlock } from '../../sidechain/block';
import { MAX_ORPHANS_PER_PARENT, OrphanPool } from './orphanPool';

const H = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex;
const block = (n: number) => ({ hash: H(n) }) as unknown as SidechainBlock;

describe('orphan pool', () => {
  it('holds blocks by the parent they wait for, once each and up to the cap, and releases them together', () => {
    const pool = new OrphanPool();
    pool.hold(H(1), { block: block(10), from: 'sc-2', relay: true });
    pool.hold(H(1), { block: block(10), from: 'sc-3', relay: true });
    pool.hold(H(1), { block: block(11), from: 'sc-3', relay: true });
    expect(pool.wants(H(1))).toBe(true);
    expect(pool.holds(H(11))).toBe(true);
    expect(pool.holds(H(1))).toBe(false);
    expect(pool.release(H(1)).map((o) => [o.block.hash, o.from])).toEqual([
      [H(10), 'sc-2'],
      [H(11), 'sc-3'],
    ]);
    expect(pool.wants(H(1))).toBe(false);
    for (let i = 0; i < MAX_ORPHANS_PER_PARENT + 5; i++)
      pool.hold(H(2), { block: block(100 + i), from: '', relay: false });
    expect(pool.release(H(2))).toHaveLength(MAX_ORPHANS_PER_PARENT);
  });

  it('one fetch at a time per parent; a rewind forgets the blocks, a crash the fetches too', () => {
    const pool = new OrphanPool();
    expect(pool.startFetch(H(5))).toBe(true);
    expect(pool.startFetch(H(5))).toBe(false);
    pool.hold(H(5), { block: block(6), from: 'sc-1', relay: true });
    pool.clear({ fetches: false });
    expect(pool.wants(H(5))).toBe(false);
    expect(pool.startFetch(H(5))).toBe(false);
    pool.clear({ fetches: true });
    expect(pool.startFetch(H(5))).toBe(true);
    pool.endFetch(H(5));
    expect(pool.startFetch(H(5))).toBe(true);
  });

  it('the missing ancestor of a held chain is the parent its oldest block waits for', () => {
    const pool = new OrphanPool();
    expect(pool.missingAncestor(H(9))).toBe(H(9));
    // 7 waits for 6, 8 for 7, 9 for 8 (held in any order): a block waiting for 9 misses 6.
    pool.hold(H(8), { block: block(9), from: 'sc-2', relay: false });
    pool.hold(H(6), { block: block(7), from: 'sc-2', relay: false });
    pool.hold(H(7), { block: block(8), from: 'sc-2', relay: false });
    expect(pool.missingAncestor(H(9))).toBe(H(6));
    expect(pool.missingAncestor(H(7))).toBe(H(6));
    // Once 6 arrives, 7 is released: the blocks above it miss 7 again, until 7 imports.
    pool.release(H(6));
    expect(pool.missingAncestor(H(9))).toBe(H(7));
    pool.clear({ fetches: false });
    expect(pool.missingAncestor(H(9))).toBe(H(9));
  });
});
