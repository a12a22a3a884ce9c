/**
 * State sync (spec item 9; sidechain.md §2.7; README item 30), judged on each block the first
 * time a node imports it, against the chain it extends (model/sidechainModel.ts):
 *  - records are committed only by sprint-start blocks (n % sprint = 0), by system call;
 *  - in id order with no gap and no repeat (each id once on a chain): the first continues from
 *    the last id its parent chain committed;
 *  - only records older than the block's time minus the confirmation delay.
 * And at the end (a liveness check): a record the parent chain emitted while the network was
 * calm is on the final canonical chain within a bound of its event.
 */
import { Oracle, type RunRecord } from './oracle';
import { type SidechainModel } from './model/sidechainModel';

export class StateSyncOracle extends Oracle {
  readonly name = 'state-sync';
  readonly class = 'safety' as const;
  readonly reads = ['sidechain.imported'] as const;
  private readonly judged = new Set<string>();

  constructor(private readonly model: SidechainModel) {
    super();
  }

  override observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind !== 'sidechain.imported' || this.judged.has(o.block.hash)) return;
    this.judged.add(o.block.hash);
    const b = this.model.get(o.block.hash);
    const parent = b && this.model.get(b.fact.parentHash);
    if (!b || !parent) return;
    const f = b.fact;
    if (f.stateSyncs.length === 0) return;
    this.saw('sidechain.state-sync.sprint-start');
    const ids = f.stateSyncs.map((s) => s.id.toString());
    if (f.number % BigInt(this.model.params.sprint) !== 0n) {
      this.fail(r.t, r.node, `block ${f.number} commits state syncs ${ids.join(', ')} but is not a sprint start`, {
        number: f.number,
        ids,
      });
      return;
    }
    let next = parent.lastStateId + 1n;
    for (const s of f.stateSyncs) {
      this.saw('sidechain.state-sync.sequential');
      this.saw('sidechain.state-sync.confirmation-delay');
      if (s.id !== next) {
        this.fail(r.t, r.node, `state sync ${s.id} committed in block ${f.number} where ${next} was next`, {
          number: f.number,
          ids,
          expected: next,
        });
        return;
      }
      const newest = f.time - BigInt(this.model.params.stateSyncDelayS);
      if (!(s.timeS < newest)) {
        this.fail(
          r.t,
          r.node,
          `state sync ${s.id} (record time ${s.timeS}) committed in block ${f.number} at ${f.time}, before the ${this.model.params.stateSyncDelayS} s confirmation delay passed`,
          { number: f.number, id: s.id, recordTimeS: s.timeS },
        );
        return;
      }
      next++;
    }
  }
}

/** The liveness half: a state sync emitted in calm weather reaches the canonical chain in time. */
export class StateSyncLatencyOracle extends Oracle {
  readonly name = 'state-sync-latency';
  readonly class = 'liveness' as const;
  readonly reads = ['parent.block'] as const;
  /** StateSynced events: id → parent block time (epoch ms). */
  private readonly emitted = new Map<bigint, number>();

  constructor(
    private readonly model: SidechainModel,
    /** How long a record may take from its parent-chain block to a sidechain block, ms. */
    private readonly boundMs: number,
  ) {
    super();
  }

  override observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind !== 'parent.block') return;
    for (const e of o.events)
      if (e.event === 'StateSynced' && !this.emitted.has(e.id)) this.emitted.set(e.id, o.timeMs);
  }

  /**
   * At the end: `head` is the final canonical head of the best node; `calm(fromMs, toMs)` says
   * whether no fault was in force in that window (epoch ms); `endMs` is when the run ended (epoch ms).
   */
  finish(
    atMs: number,
    node: string,
    head: string,
    endMs: number,
    calm: (fromMs: number, toMs: number) => boolean,
  ): void {
    const chain = this.model.chainTo(head as `0x${string}`);
    const landed = new Map<bigint, bigint>();
    for (const b of chain) for (const s of b.fact.stateSyncs) landed.set(s.id, b.fact.time);
    const last = chain[chain.length - 1];
    if (!last) return;
    const ids = [...this.emitted.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const id of ids) {
      const emittedMs = this.emitted.get(id)!;
      const dueMs = emittedMs + this.boundMs;
      if (dueMs > endMs || Number(last.fact.time) * 1000 < dueMs || !calm(emittedMs, dueMs)) continue;
      this.saw('sidechain.state-sync.latency');
      const at = landed.get(id);
      if (at === undefined || Number(at) * 1000 > dueMs) {
        this.fail(
          atMs,
          node,
          `state sync ${id}, emitted at ${emittedMs / 1000} s, ${at === undefined ? 'is not on the canonical chain' : `landed only at ${at} s`} (bound ${this.boundMs / 1000} s, calm network)`,
          { id: id.toString(), emittedMs, boundMs: this.boundMs },
        );
        return;
      }
    }
  }
}
