/**
 * PeerKnowledge (one slab of bit rows reused as a ring) against the plain rule it keeps: per block
 * hash a set of peers, for the last MAX_KNOWN_BLOCKS hashes met (first met, first forgotten).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type Hex } from '../../core/bytes';
import { MAX_KNOWN_BLOCKS, PeerKnowledge } from './blockGossip';

const PEERS = Array.from({ length: 11 }, (_, i) => `sc-${i + 2}`);
const hashOf = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

class Model {
  readonly known = new Map<Hex, Set<number>>();
  private entry(h: Hex): Set<number> {
    let s = this.known.get(h);
    if (s === undefined) {
      if (this.known.size >= MAX_KNOWN_BLOCKS) this.known.delete(this.known.keys().next().value!);
      s = new Set();
      this.known.set(h, s);
    }
    return s;
  }
  mark(i: number, h: Hex): void {
    this.entry(h).add(i);
  }
  markAll(h: Hex, positions: number[]): void {
    const s = this.entry(h);
    for (const i of positions) s.add(i);
  }
  forget(i: number): void {
    for (const s of this.known.values()) s.delete(i);
  }
  without(h: Hex): number[] {
    const s = this.known.get(h);
    return PEERS.map((_, i) => i).filter((i) => !s?.has(i));
  }
}

const op = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ k: fc.constant('mark' as const), peer: fc.nat(PEERS.length - 1), h: fc.nat(1500) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('markAll' as const),
      h: fc.nat(1500),
      peers: fc.uniqueArray(fc.nat(PEERS.length - 1), { maxLength: PEERS.length }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('forget' as const), peer: fc.nat(PEERS.length - 1) }) },
);

describe('PeerKnowledge against a bounded map of peer sets', () => {
  it('knows, without and markAll agree with the model after any sequence, past the bound too', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 3000, maxLength: 4000 }), (ops) => {
        const k = new PeerKnowledge(PEERS);
        const m = new Model();
        for (const o of ops) {
          if (o.k === 'mark') {
            k.mark(PEERS[o.peer]!, hashOf(o.h));
            m.mark(o.peer, hashOf(o.h));
          } else if (o.k === 'markAll') {
            const mask = k.markAll(hashOf(o.h), o.peers);
            m.markAll(hashOf(o.h), o.peers);
            for (let i = 0; i < PEERS.length; i++)
              expect(((mask[i >> 3]! >> (i & 7)) & 1) === 1).toBe(o.peers.includes(i));
          } else {
            k.forgetPeer(PEERS[o.peer]!);
            m.forget(o.peer);
          }
        }
        for (let p = 0; p <= 1500; p++) {
          const h = hashOf(p);
          expect(k.without(h)).toEqual(m.without(h));
          for (let i = 0; i < PEERS.length; i++) expect(k.knows(PEERS[i]!, h)).toBe(m.known.get(h)?.has(i) === true);
        }
      }),
      // Thousands of operations per case: a failure is reported as found (with its seed), not shrunk.
      { numRuns: 20, endOnFailure: true },
    );
  });
});

describe('PeerKnowledge.clear', () => {
  it('forgets every block and starts the ring again', () => {
    const k = new PeerKnowledge(PEERS);
    for (let n = 0; n < MAX_KNOWN_BLOCKS + 5; n++) k.mark(PEERS[n % PEERS.length]!, hashOf(n));
    expect(k.knows(PEERS[0]!, hashOf(0))).toBe(false); // the oldest fell out
    expect(k.knows(PEERS[(MAX_KNOWN_BLOCKS + 4) % PEERS.length]!, hashOf(MAX_KNOWN_BLOCKS + 4))).toBe(true);
    k.clear();
    expect(k.knows(PEERS[(MAX_KNOWN_BLOCKS + 4) % PEERS.length]!, hashOf(MAX_KNOWN_BLOCKS + 4))).toBe(false);
    expect(k.without(hashOf(7))).toHaveLength(PEERS.length);
    k.mark(PEERS[1]!, hashOf(7));
    expect(k.without(hashOf(7))).toHaveLength(PEERS.length - 1);
  });
});
