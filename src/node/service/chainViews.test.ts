import { describe, expect, it } from 'vitest';
import { type Hex } from '../../core/bytes';
import { type HeaderSummary } from '../../bridge/sidechainView';
import { ChainViews, SIDECHAIN_REFETCH_BLOCKS } from './chainViews';

const hash = (n: bigint, fork = 'a'): Hex => `0x${fork.repeat(2)}${n.toString(16).padStart(62, '0')}` as Hex;
const header = (n: bigint, fork = 'a'): HeaderSummary => ({
  number: n,
  hash: hash(n, fork),
  time: n * 2n,
  txHash: hash(0n),
  receiptHash: hash(0n),
});
const range = (from: bigint, to: bigint, fork = 'a') => {
  const out: HeaderSummary[] = [];
  for (let n = from; n <= to; n++) out.push(header(n, fork));
  return out;
};

describe('ChainViews', () => {
  it('polls the sidechain from an overlap before its head while the view extends', () => {
    const v = new ChainViews();
    expect(v.sidechainPoll()).toEqual({ kind: 'sc.getHeaders', from: 0n });
    v.onHeaders({ kind: 'sc.headers', anchor: null, headers: range(0n, 400n), head: 400n });
    expect(v.sidechain.headNumber()).toBe(400n);
    expect(v.sidechainPoll().from).toBe(v.sidechain.nextFrom());
    expect(v.sidechainPoll().from).toBeLessThan(400n);
  });

  it('after a gap (the anchor no longer matches), refetches from SIDECHAIN_REFETCH_BLOCKS before the anchor, then resumes', () => {
    const v = new ChainViews();
    v.onHeaders({ kind: 'sc.headers', anchor: null, headers: range(0n, 400n), head: 400n });
    // The sidechain node reorged below the overlap: its anchor's hash differs from the view's.
    v.onHeaders({ kind: 'sc.headers', anchor: { number: 380n, hash: hash(380n, 'b') }, headers: [], head: 410n });
    expect(v.sidechain.headNumber()).toBe(400n);
    expect(v.sidechainPoll().from).toBe(380n - SIDECHAIN_REFETCH_BLOCKS);
    // A gap near genesis refetches from 0.
    const w = new ChainViews();
    w.onHeaders({ kind: 'sc.headers', anchor: null, headers: range(0n, 100n), head: 100n });
    w.onHeaders({ kind: 'sc.headers', anchor: { number: 90n, hash: hash(90n, 'b') }, headers: [], head: 120n });
    expect(w.sidechainPoll().from).toBe(0n);
    // An answer that fits again ends the refetch.
    v.onHeaders({ kind: 'sc.headers', anchor: null, headers: range(124n, 410n, 'b'), head: 410n });
    expect(v.sidechainPoll().from).toBe(v.sidechain.nextFrom());
  });

  it('polls the parent chain past what its view holds', () => {
    const v = new ChainViews();
    expect(v.parentPoll()).toEqual({
      kind: 'p.sync',
      fromBlock: v.parent.nextFrom(),
      fromHeaderBlock: v.parent.lastHeaderBlock() + 1n,
    });
  });
});
