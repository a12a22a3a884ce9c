/**
 * The oracles' own picture of the sidechain, built from the blocks the nodes report importing:
 * every block ever imported by any node (blocks are immutable and the same hash is the same block
 * everywhere), with its total difficulty and the producer snapshot after it, computed here by the
 * reference's rules (sidechain.md §2.3-§2.7), not by the node's code:
 *
 *  - the snapshot at genesis is `NewValidatorSet(span 0's producers)`;
 *  - a sprint-end block (n > 0, (n + 1) % sprint = 0) switches the set to the producers the
 *    validator contract names for block n + 1 (`getBorValidators`: span 0's producers up to its
 *    end, then the latest span committed on this chain whose range holds n + 1, else the latest
 *    span) — members that left get power 0, newcomers the new-validator priority — and rotates the
 *    proposer once;
 *  - a block's in-turn producer is its parent snapshot's proposer; the succession of signer s is
 *    (index(s) − index(proposer)) mod N in the address-sorted set.
 *
 * It judges nothing by itself: it records, per block, what the rules expect (the snapshot's size,
 * the proposer, the signer's succession, the earliest legal time, the producers a sprint-end
 * header must announce), and the oracles compare that with what the block says.
 */
import { type Address } from '../../../src/core/address';
import { type Hex } from '../../../src/core/bytes';
import { type SidechainBlockFact } from '../../../src/node/observations';
import { type DeepReadonly } from '../../../src/core/readonly';
import { type RunRecord } from '../oracle';
import { PrioritySet } from './proposerPriority';
import { EMPTY_BLOOM } from './logsBloom';
import { type DelayParams, producerDelayS } from './producerDelay';

export interface SidechainParams extends DelayParams {
  /** Last block of span 0 (the genesis producers' span). */
  firstSpanEnd: bigint;
  /** State syncs committed by a block must be older than its time minus this. */
  stateSyncDelayS: number;
}

export interface SpanModel {
  id: bigint;
  startBlock: bigint;
  endBlock: bigint;
  /** Sorted by signer address. */
  producers: ReadonlyArray<{ id: bigint; signer: Address; power: bigint }>;
}

/** What the rules expect of a block, judged against its parent's snapshot. */
export interface Expected {
  /** Producers in the parent's snapshot (N). */
  producers: number;
  proposer: string | null;
  /** The signer's succession, or null when the signer is not a producer of the parent's snapshot. */
  succession: number | null;
  /** The earliest header time the rules allow: parent.time + delay(number, succession). */
  minTime: bigint;
  /** For a sprint-end block: the producers its header must announce (address order); else null. */
  announce: Array<{ address: Address; power: bigint }> | null;
}

export interface ModelBlock {
  fact: DeepReadonly<SidechainBlockFact>;
  td: bigint;
  /** The producer snapshot after this block (its children are checked against it). */
  set: PrioritySet;
  /** Spans committed on this chain by system call, in commit order. */
  spans: readonly SpanModel[];
  /** The last state-sync id committed on this chain. */
  lastStateId: bigint;
  /** Null for genesis. */
  expected: Expected | null;
  /** The node that reported it first. */
  firstNode: string;
  firstAtMs: number;
}

const byAddress = (a: { address: string }, b: { address: string }): number =>
  a.address < b.address ? -1 : a.address > b.address ? 1 : 0;

export class SidechainModel {
  private readonly blocks = new Map<Hex, ModelBlock>();
  genesis: ModelBlock | null = null;
  /** Spans the service committed, by id (from the service nodes' state writes). */
  readonly serviceSpans = new Map<bigint, SpanModel>();

  constructor(readonly params: SidechainParams) {}

  get(hash: Hex): ModelBlock | undefined {
    return this.blocks.get(hash);
  }

  /** Feed one record (the suite feeds the model before any oracle sees the record). */
  observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind === 'sidechain.started' && this.genesis === null) {
      const producers = o.genesis.producers
        .map((p) => ({ id: p.id, signer: p.signer.toLowerCase() as Address, power: p.power }))
        .sort((a, b) => byAddress({ address: a.signer }, { address: b.signer }));
      const g: ModelBlock = {
        fact: {
          number: 0n,
          hash: o.genesis.hash,
          parentHash: `0x${'00'.repeat(32)}`,
          time: o.genesis.time,
          difficulty: o.genesis.difficulty,
          signer: `0x${'00'.repeat(20)}`,
          txHash: o.genesis.txHash,
          receiptHash: o.genesis.receiptHash,
          // A genesis has no transactions: no logs.
          bloom: EMPTY_BLOOM,
          stateSyncs: [],
          spanCommit: null,
          announced: null,
          baseFee: o.genesis.baseFee,
          gasLimit: o.genesis.gasLimit,
          gasUsed: o.genesis.gasUsed,
        },
        td: o.genesis.difficulty,
        set: PrioritySet.create(producers.map((p) => ({ address: p.signer, power: p.power }))),
        spans: [{ id: 0n, startBlock: 0n, endBlock: this.params.firstSpanEnd, producers }],
        lastStateId: 0n,
        expected: null,
        firstNode: r.node,
        firstAtMs: r.t,
      };
      this.genesis = g;
      this.blocks.set(g.fact.hash, g);
    } else if (o.kind === 'sidechain.imported') {
      this.insert(o.block, r.node, r.t);
    } else if (o.kind === 'service.genesis' || o.kind === 'service.commit') {
      const writes = o.kind === 'service.genesis' ? o.state : o.writes;
      for (const w of writes)
        if (w.what === 'span' && !this.serviceSpans.has(w.id))
          this.serviceSpans.set(w.id, {
            id: w.id,
            startBlock: w.startBlock,
            endBlock: w.endBlock,
            producers: w.producers
              .map((p) => ({ id: p.id, signer: p.signer.toLowerCase() as Address, power: p.power }))
              .sort((a, b) => byAddress({ address: a.signer }, { address: b.signer })),
          });
    }
  }

  /** Add a block whose parent is known (returns it, new or known), or null for an unknown parent. */
  insert(fact: DeepReadonly<SidechainBlockFact>, node: string, atMs: number): ModelBlock | null {
    const known = this.blocks.get(fact.hash);
    if (known) return known;
    const parent = this.blocks.get(fact.parentHash);
    if (!parent) return null;
    const p = this.params;
    const set = parent.set;
    const proposer = set.proposer;
    const i = set.indexOf(fact.signer);
    const pi = proposer === null ? -1 : set.indexOf(proposer);
    const n = set.size;
    const succession = i < 0 || pi < 0 ? null : (i - pi + n) % n;
    const delay = producerDelayS(fact.number, succession ?? 0, p);
    const minTime = parent.fact.time + (delay > BigInt(p.periodS) ? delay : BigInt(p.periodS));

    let spans = parent.spans;
    if (fact.spanCommit) {
      const c = fact.spanCommit;
      spans = [
        ...spans,
        {
          id: c.id,
          startBlock: c.startBlock,
          endBlock: c.endBlock,
          producers: c.producers
            .map((x) => ({ id: x.id, signer: x.signer.toLowerCase() as Address, power: x.power }))
            .sort((a, b) => byAddress({ address: a.signer }, { address: b.signer })),
        },
      ];
    }
    const last = fact.stateSyncs[fact.stateSyncs.length - 1];
    const sprint = BigInt(p.sprint);
    const sprintEnd = fact.number > 0n && (fact.number + 1n) % sprint === 0n;
    let announce: Expected['announce'] = null;
    let nextSet = set;
    if (sprintEnd) {
      announce = this.producersFor(spans, fact.number + 1n).map((x) => ({ address: x.signer, power: x.power }));
      nextSet = set.copy();
      const wanted = new Map<string, bigint>(announce.map((a) => [a.address, a.power]));
      const changes: Array<{ address: string; power: bigint }> = set.validators.map((m) => ({
        address: m.address,
        power: wanted.get(m.address) ?? 0n,
      }));
      for (const a of announce) if (set.indexOf(a.address) < 0) changes.push({ address: a.address, power: a.power });
      nextSet.update(changes);
      nextSet.increment(1);
    }
    const b: ModelBlock = {
      fact,
      td: parent.td + fact.difficulty,
      set: nextSet,
      spans,
      lastStateId: last ? last.id : parent.lastStateId,
      expected: { producers: n, proposer, succession, minTime, announce },
      firstNode: node,
      firstAtMs: atMs,
    };
    this.blocks.set(fact.hash, b);
    return b;
  }

  /**
   * `getBorValidators(n)` on a chain with these committed spans: span 0's producers up to its
   * end, then the latest span whose range holds n, else the latest span committed.
   */
  producersFor(spans: readonly SpanModel[], n: bigint): SpanModel['producers'] {
    const first = spans[0]!;
    if (n <= this.params.firstSpanEnd) return first.producers;
    for (let k = spans.length - 1; k >= 1; k--) {
      const s = spans[k]!;
      if (s.startBlock <= n && n <= s.endBlock) return s.producers;
    }
    return spans[spans.length - 1]!.producers;
  }

  /** The ancestor of `b` numbered `n` (b itself when n is its number), or undefined. */
  ancestorAt(b: ModelBlock, n: bigint): ModelBlock | undefined {
    let cur: ModelBlock | undefined = b;
    while (cur && cur.fact.number > n) cur = this.blocks.get(cur.fact.parentHash);
    return cur && cur.fact.number === n ? cur : undefined;
  }

  /** The chain from genesis (block 0) to `head`, in order; empty for an unknown head. */
  chainTo(head: Hex): ModelBlock[] {
    const out: ModelBlock[] = [];
    let b = this.blocks.get(head);
    while (b) {
      out.push(b);
      b = b.fact.number > 0n ? this.blocks.get(b.fact.parentHash) : undefined;
    }
    return out.reverse();
  }
}

/**
 * The sidechain's fork choice by the reference (sidechain.md §3.1, README item 28): the higher
 * total difficulty; on equal TD the lower number; then the lexicographically larger hash. No
 * self-preference (geth's clique sets it off). True when `a` is strictly preferred to `b`.
 */
export function preferred(a: ModelBlock, b: ModelBlock): boolean {
  if (a.td !== b.td) return a.td > b.td;
  if (a.fact.number !== b.fact.number) return a.fact.number < b.fact.number;
  return a.fact.hash.toLowerCase() > b.fact.hash.toLowerCase();
}
