/**
 * Fork choice, from an independent block tree per node (sidechain.md §3; README item 28).
 *
 * For each sidechain node the oracle keeps the set of blocks it has imported and works out the
 * head the reference's rule gives: the block it knows with the highest total difficulty (then the
 * lower number, then the larger hash), among those that carry its finality floor (Bor's
 * whitelist: the end block of the last checkpoint it verified). After every import, rewind and
 * checkpoint switch the node reports, its head must be that block. A rewind (debug.setHead, or a
 * checkpoint-mismatch rewind) is the one move the rule does not make: the expected head becomes
 * the rewound-to block of the chain, as the node's. Reorgs (a head that does not extend the
 * previous one) must stay within the scenario's depth bound; the nodes converge once faults heal.
 */
import { type Hex } from '../../src/core/bytes';
import { type HeadFact } from '../../src/node/observations';
import { Oracle, type RunRecord } from './oracle';
import { type ModelBlock, type SidechainModel, preferred } from './model/sidechainModel';

interface NodeView {
  known: Set<Hex>;
  expected: ModelBlock;
  floor: ModelBlock | null;
  /**
   * Blocks found to carry `floor` through blocks the node holds: a child of one of them (its parent
   * held) carries it too, without the walk down to the floor. Valid while the floor stays and no
   * rewind takes blocks from `known` (both start it afresh).
   */
  carriers: { floor: ModelBlock; hashes: Set<Hex> } | null;
}

export class ForkChoiceOracle extends Oracle {
  readonly name = 'fork-choice';
  readonly class = 'safety' as const;
  readonly reads = [
    'sidechain.started',
    'sidechain.imported',
    'sidechain.finalized',
    'sidechain.checkpointFork',
    'sidechain.checkpointMismatch',
    'sidechain.setHead',
  ] as const;
  private readonly views = new Map<string, NodeView>();

  constructor(
    private readonly model: SidechainModel,
    private readonly maxReorgDepth: number | null,
  ) {
    super();
  }

  /** The head this oracle expects of `node` (for convergence and the end-of-run checks). */
  expectedHead(node: string): ModelBlock | undefined {
    return this.views.get(node)?.expected;
  }

  override observe(r: RunRecord): void {
    const o = r.obs;
    switch (o.kind) {
      case 'sidechain.started': {
        const g = this.model.genesis;
        if (!g) return;
        let v = this.views.get(r.node);
        if (!v) {
          v = { known: new Set([g.fact.hash]), expected: g, floor: null, carriers: null };
          this.views.set(r.node, v);
        }
        this.compare(r, v, o.head, 'restarted');
        return;
      }
      case 'sidechain.imported': {
        const v = this.views.get(r.node);
        if (!v) return;
        const b = this.model.get(o.block.hash);
        if (!b) {
          this.fail(
            r.t,
            r.node,
            `imported block ${o.block.number} whose parent ${o.block.parentHash} was never imported`,
            {
              number: o.block.number,
              hash: o.block.hash,
            },
          );
          return;
        }
        v.known.add(b.fact.hash);
        this.saw('sidechain.fork-choice.total-difficulty');
        this.saw('sidechain.fork-choice.tie-breaks');
        if (v.floor) this.saw('sidechain.finality.whitelist');
        if (this.floorAllows(v, b) && preferred(b, v.expected)) this.move(r, v, b);
        this.compare(r, v, o.head, `imported block ${b.fact.number}`);
        return;
      }
      case 'sidechain.finalized': {
        const v = this.views.get(r.node);
        const b = this.model.get(o.hash);
        if (v && b) v.floor = b;
        return;
      }
      case 'sidechain.checkpointFork': {
        const v = this.views.get(r.node);
        const fork = this.model.get(o.fork);
        if (!v || !fork) return;
        v.floor = fork;
        this.saw('sidechain.finality.whitelist');
        let best = fork;
        for (const h of v.known) {
          const b = this.model.get(h)!;
          if (
            b.fact.number > fork.fact.number &&
            preferred(b, best) &&
            this.ancestorAt(v, b, fork.fact.number) === fork
          )
            best = b;
        }
        if (best !== v.expected) this.move(r, v, best);
        this.compare(r, v, o.head, `switched to the checkpointed fork at ${o.end}`);
        return;
      }
      case 'sidechain.checkpointMismatch': {
        const v = this.views.get(r.node);
        if (!v) return;
        if (o.rewoundTo !== null) this.rewind(v, o.rewoundTo);
        this.compare(
          r,
          v,
          o.head,
          `a checkpoint mismatch${o.rewoundTo !== null ? ` (rewound to ${o.rewoundTo})` : ''}`,
        );
        return;
      }
      case 'sidechain.setHead': {
        const v = this.views.get(r.node);
        if (!v) return;
        this.saw('console.set-head.rewinds');
        if (o.error !== null) {
          // A rewind is refused only to a block that is not below the head (the rule says nothing
          // else may refuse it): a refusal of a number below the head the node had is the rule broken.
          if (o.number < v.expected.fact.number)
            this.fail(
              r.t,
              r.node,
              `setHead(${o.number}) refused (${o.error}) though the head was ${v.expected.fact.number}, above it`,
              { number: o.number, error: o.error, head: v.expected.fact.number },
            );
        } else {
          // geth's setHead forgets every block above n on every branch: as many as this node holds.
          const held = this.rewind(v, o.number);
          if (o.removed !== held)
            this.fail(
              r.t,
              r.node,
              `setHead(${o.number}) reports ${o.removed} blocks removed; the node held ${held} above it`,
              {
                number: o.number,
                removed: o.removed,
                held,
              },
            );
        }
        this.compare(r, v, o.head, `setHead(${o.number})`);
        return;
      }
      default:
        return;
    }
  }

  /** Bor's whitelist: a candidate must carry the floor block (one below it only if our head is too). */
  private floorAllows(v: NodeView, b: ModelBlock): boolean {
    const f = v.floor;
    if (!f) return true;
    if (b.fact.number < f.fact.number) return v.expected.fact.number < f.fact.number;
    if (v.carriers?.floor !== f) v.carriers = { floor: f, hashes: new Set() };
    const carriers = v.carriers.hashes;
    const parent = b.fact.parentHash;
    // The walk's first step goes to the parent when the node holds it; from a carrier it ends at f.
    const carries =
      (b.fact.number > f.fact.number && v.known.has(parent) && carriers.has(parent)) ||
      this.ancestorAt(v, b, f.fact.number) === f;
    if (carries) carriers.add(b.fact.hash);
    return carries;
  }

  /** The ancestor numbered `n` through the blocks this node holds (a walk that leaves them fails). */
  private ancestorAt(v: NodeView, b: ModelBlock, n: bigint): ModelBlock | undefined {
    let cur: ModelBlock | undefined = b;
    while (cur && cur.fact.number > n) {
      cur = v.known.has(cur.fact.parentHash) ? this.model.get(cur.fact.parentHash) : undefined;
    }
    return cur && cur.fact.number === n ? cur : undefined;
  }

  private move(r: RunRecord, v: NodeView, next: ModelBlock): void {
    const old = v.expected;
    v.expected = next;
    if (next.fact.parentHash === old.fact.hash || this.maxReorgDepth === null) return;
    let a: ModelBlock | undefined = old;
    let b: ModelBlock | undefined = next;
    while (a && b && a !== b) {
      if (a.fact.number >= b.fact.number) a = this.model.get(a.fact.parentHash);
      else b = this.model.get(b.fact.parentHash);
    }
    if (!a) return;
    const depth = Number(old.fact.number - a.fact.number);
    if (depth > this.maxReorgDepth)
      this.fail(r.t, r.node, `reorg of depth ${depth} exceeds the scenario's bound ${this.maxReorgDepth}`, {
        oldHead: old.fact.hash,
        newHead: next.fact.hash,
        ancestor: a.fact.number,
      });
  }

  /** Forget the node's blocks above `n` and move its expected head down to `n`; how many it held above `n`. */
  private rewind(v: NodeView, n: bigint): number {
    v.carriers = null;
    let held = 0;
    for (const h of [...v.known])
      if (this.model.get(h)!.fact.number > n) {
        v.known.delete(h);
        held++;
      }
    const to = this.model.ancestorAt(v.expected, n);
    if (to) v.expected = to;
    return held;
  }

  private compare(r: RunRecord, v: NodeView, head: HeadFact, after: string): void {
    if (head.hash === v.expected.fact.hash) return;
    const got = this.model.get(head.hash);
    const e = v.expected;
    this.fail(
      r.t,
      r.node,
      `after ${after} the head is ${head.hash} (number ${head.number}${got ? `, td ${got.td}` : ''}), not the heaviest known chain ${e.fact.hash} (number ${e.fact.number}, td ${e.td})`,
      { head: head.hash, expected: e.fact.hash, headNumber: head.number, expectedNumber: e.fact.number },
    );
  }
}

/** Convergence: once every fault has healed and the network had time to settle, all live nodes agree. */
export class ConvergenceOracle extends Oracle {
  readonly name = 'sidechain-convergence';
  readonly class = 'liveness' as const;
  /** Judged at the end of the run only (from final facts the suite gathers), never on a record. */
  readonly reads = [] as const;

  /** heads: per live node, its head number and its canonical hash at `at` (a common height). */
  check(atMs: number, heads: Array<{ node: string; number: bigint; hashAt: string | null }>, lagBound = 4n): void {
    if (heads.length < 2) return;
    this.saw('sidechain.convergence.after-heal');
    let top = 0n;
    for (const h of heads) if (h.number > top) top = h.number;
    for (const h of heads) {
      if (top - h.number > lagBound) {
        this.fail(atMs, h.node, `sidechain node is ${top - h.number} blocks behind after the faults healed`, {
          head: h.number.toString(),
          best: top.toString(),
        });
        return;
      }
    }
    const hashes = new Set(heads.map((h) => h.hashAt));
    if (hashes.size > 1)
      this.fail(atMs, heads[0]!.node, 'sidechain nodes disagree on the canonical chain after the faults healed', {
        hashes: [...hashes].map(String),
      });
  }
}
