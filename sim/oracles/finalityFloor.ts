/**
 * The sidechain's finality floor (sidechain.md §3.2, Bor's checkpoint whitelist): a sidechain node
 * fetches the last acked checkpoint from its service node and, when its canonical chain has the
 * checkpoint's root over the checkpoint's range, makes the range's end block its finality floor;
 * it never adopts a chain that leaves the floor. Judged from raw facts (the service's ack writes,
 * the blocks and heads the nodes report, the floors they report) with the oracle's own Merkle root
 * (model/merkle.ts) over its own block tree (model/sidechainModel.ts):
 *
 *  - a reported floor (`sidechain.finalized`, or the fork a node switched to for a checkpoint) is
 *    the end block of a checkpoint the node's service node has acked, the block at that height on
 *    the node's chain, and its range's root is the checkpoint's root; a floor never goes down;
 *  - no reorg the node reports goes below its floor (the common ancestor is at or above it);
 *  - once its service node has committed an ack, a live node whose canonical chain holds the
 *    checkpoint's range (root and all) has moved its floor to at least the range's end within one
 *    fetch (the poll period and a round trip, more tries on a lossy network), unless a fault was in
 *    force meanwhile.
 */
import { type Hex } from '../../src/core/bytes';
import { Oracle, type RunRecord } from './oracle';
import { type ModelBlock, type SidechainModel } from './model/sidechainModel';
import { blockLeaf, merkleRoot } from './model/merkle';
import { FaultWindows } from './model/faultWindows';

interface Acked {
  number: bigint;
  startBlock: bigint;
  endBlock: bigint;
  rootHash: string;
}

interface Due {
  node: string;
  cp: Acked;
  ackedAtMs: number;
  deadlineMs: number;
}

export class FinalityFloorOracle extends Oracle {
  readonly name = 'finality-floor';
  readonly class = 'safety' as const;
  readonly reads = [
    'fault.start',
    'fault.end',
    'sidechain.started',
    'sidechain.imported',
    'sidechain.setHead',
    'sidechain.checkpointMismatch',
    'sidechain.reorg',
    'sidechain.finalized',
    'sidechain.checkpointFork',
    'service.commit',
  ] as const;
  private readonly faults = new FaultWindows();
  /** Sidechain node → the service node it reads from. */
  private readonly serviceOf = new Map<string, string>();
  /** Service node → the checkpoints it has acked, by end block. */
  private readonly ackedBy = new Map<string, Map<bigint, Acked>>();
  /** Sidechain node → its floor (number, hash) as reported. */
  private readonly floors = new Map<string, { number: bigint; hash: Hex }>();
  private readonly heads = new Map<string, Hex>();
  private due: Due[] = [];
  /**
   * A switch to a checkpointed fork is reported before the reorg it makes (at the same moment):
   * that reorg leaves the node's losing branch, which may go below the new floor but not below
   * the floor it had before.
   */
  private readonly switching = new Map<string, { atMs: number; floor: { number: bigint; hash: Hex } | undefined }>();
  private readonly roots = new Map<string, string>();

  constructor(
    private readonly model: SidechainModel,
    /** How long after its service node acked a checkpoint a sidechain node surely has fetched it, ms. */
    private readonly fetchMs: number,
  ) {
    super();
  }

  override observe(r: RunRecord): void {
    const o = r.obs;
    // Deadlines come due at the records this oracle reads (the suite hands it no others): between
    // two of them nothing it judges by changes, and a judgment names its deadline, not the time of
    // the record that found it due.
    if (!this.readsKind(o.kind)) return;
    this.checkDue(r.t);
    this.faults.observe(r);
    switch (o.kind) {
      case 'sidechain.started':
        if (o.serviceNode !== undefined) this.serviceOf.set(r.node, o.serviceNode);
        this.heads.set(r.node, o.head.hash);
        return;
      case 'sidechain.imported':
      case 'sidechain.setHead':
      case 'sidechain.checkpointMismatch':
        this.heads.set(r.node, o.head.hash);
        return;
      case 'sidechain.reorg': {
        this.heads.set(r.node, o.newHead);
        const sw = this.switching.get(r.node);
        this.switching.delete(r.node);
        const floor = sw?.atMs === r.t ? sw.floor : this.floors.get(r.node);
        if (!floor) return;
        this.saw('sidechain.finality.no-reorg-below-floor');
        if (o.ancestor < floor.number)
          this.fail(
            r.t,
            r.node,
            `reorged to ${o.newHead} through block ${o.ancestor}, below its finality floor ${floor.number}`,
            { ancestor: o.ancestor, floor: floor.number, oldHead: o.oldHead, newHead: o.newHead },
          );
        return;
      }
      case 'sidechain.finalized':
        this.newFloor(r, o.number, o.hash);
        return;
      case 'sidechain.checkpointFork':
        this.switching.set(r.node, { atMs: r.t, floor: this.floors.get(r.node) });
        this.heads.set(r.node, o.head.hash);
        this.newFloor(r, o.end, o.fork);
        return;
      case 'service.commit':
        for (const w of o.writes) if (w.what === 'checkpoint') this.acked(r, w);
        return;
      default:
        return;
    }
  }

  private acked(r: RunRecord, w: { number: bigint; startBlock: bigint; endBlock: bigint; rootHash: Hex }): void {
    let mine = this.ackedBy.get(r.node);
    if (!mine) {
      mine = new Map();
      this.ackedBy.set(r.node, mine);
    }
    const cp: Acked = { number: w.number, startBlock: w.startBlock, endBlock: w.endBlock, rootHash: w.rootHash };
    mine.set(w.endBlock, cp);
    for (const [sc, svc] of this.serviceOf)
      if (svc === r.node) this.due.push({ node: sc, cp, ackedAtMs: r.t, deadlineMs: r.t + this.fetchMs });
  }

  private newFloor(r: RunRecord, number: bigint, hash: Hex): void {
    this.saw('sidechain.finality.floor-is-acked-end');
    const before = this.floors.get(r.node);
    this.floors.set(r.node, { number, hash });
    const at = { number, hash };
    if (before && number < before.number) {
      this.fail(r.t, r.node, `its finality floor went down from ${before.number} to ${number}`, {
        ...at,
        before: before.number,
      });
      return;
    }
    const svc = this.serviceOf.get(r.node);
    const cp = svc === undefined ? undefined : this.ackedBy.get(svc)?.get(number);
    if (!cp) {
      this.fail(
        r.t,
        r.node,
        `made block ${number} its finality floor, which is not the end of a checkpoint its service node ${svc ?? '?'} acked`,
        at,
      );
      return;
    }
    const head = this.heads.get(r.node);
    const tip = head === undefined ? undefined : this.model.get(head);
    const onChain = tip ? this.model.ancestorAt(tip, number) : undefined;
    if (onChain?.fact.hash !== hash) {
      this.fail(r.t, r.node, `its finality floor ${hash} (block ${number}) is not on its canonical chain`, at);
      return;
    }
    const root = this.rootOf(onChain, cp.startBlock);
    if (root !== cp.rootHash.toLowerCase())
      this.fail(
        r.t,
        r.node,
        `made block ${number} final, but its chain's root of ${cp.startBlock}..${cp.endBlock} is ${root ?? 'unknown'}, not checkpoint ${cp.number}'s ${cp.rootHash}`,
        { ...at, checkpoint: cp.number, root, acked: cp.rootHash },
      );
  }

  /** The checkpoint root of `start`..end on the chain ending at `end` (null if a block is unknown). */
  private rootOf(end: ModelBlock, start: bigint): string | null {
    const key = `${end.fact.hash}/${start}`;
    const hit = this.roots.get(key);
    if (hit !== undefined) return hit;
    const leaves: Uint8Array[] = [];
    let b: ModelBlock | undefined = end;
    while (b && b.fact.number >= start) {
      leaves.push(blockLeaf(b.fact));
      if (b.fact.number === start) break;
      b = this.model.get(b.fact.parentHash);
    }
    if (!b || b.fact.number !== start) return null;
    const root = merkleRoot(leaves.reverse()).toLowerCase();
    this.roots.set(key, root);
    return root;
  }

  /** Judge every fetch whose time is up (records come in time order). */
  private checkDue(nowMs: number): void {
    if (this.due.length === 0 || this.due[0]!.deadlineMs > nowMs) return;
    const keep: Due[] = [];
    for (const d of this.due) {
      if (d.deadlineMs > nowMs) keep.push(d);
      else this.judgeDue(d);
    }
    this.due = keep;
  }

  private judgeDue(d: Due): void {
    const floor = this.floors.get(d.node);
    this.saw('sidechain.finality.floor-after-ack');
    if (floor && floor.number >= d.cp.endBlock) return;
    if (!this.faults.calm(d.ackedAtMs, d.deadlineMs)) return;
    const head = this.heads.get(d.node);
    const tip = head === undefined ? undefined : this.model.get(head);
    const end = tip ? this.model.ancestorAt(tip, d.cp.endBlock) : undefined;
    if (!end || this.rootOf(end, d.cp.startBlock) !== d.cp.rootHash.toLowerCase()) return;
    this.fail(
      d.deadlineMs,
      d.node,
      `checkpoint ${d.cp.number} (${d.cp.startBlock}..${d.cp.endBlock}) was acked at ${d.ackedAtMs / 1000} s and its chain holds it, but its finality floor is ${floor ? floor.number : 'unset'} ${(d.deadlineMs - d.ackedAtMs) / 1000} s later`,
      {
        checkpoint: d.cp.number,
        endBlock: d.cp.endBlock,
        floor: floor ? floor.number : null,
        ackedAtMs: d.ackedAtMs,
        fetchMs: this.fetchMs,
      },
    );
  }

  /** At the end of the run: the fetches whose time is up. */
  finish(endMs: number): void {
    this.checkDue(endMs);
  }
}
