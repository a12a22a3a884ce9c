/**
 * When the sidechain commits the next span (sidechain.md §2.7 `needToCommitSpan`, reference README
 * item 29): on a chain whose contract holds span k, span k + 1 is committed at a sprint start,
 * due at the first block of span k's last sprint (`end − sprint + 1`; the first span, when nothing
 * was committed yet, at the first sprint start). Bor commits it exactly there, reading the span
 * from Heimdall as it builds the block; Lockstep's producer reads spans its node fetched from its
 * service node (a poll), and commits late rather than stop when it does not have the span yet.
 * So the oracle holds the producer to the reference wherever it had the span: a sprint-start
 * block at or after the due block that does not commit span k + 1 is a violation when its
 * producer's service node had committed that span long enough before the block was produced for
 * one fetch (the poll period and a round trip; more tries on a lossy network), and no fault was in
 * force meanwhile. What a commit carries (the service's producers, range and id) and when it is
 * too early are the producer-schedule oracle's checks; the rotation those producers give per
 * sprint is too (schedule.ts, model/sidechainModel.ts).
 */
import { Oracle, type RunRecord } from './oracle';
import { type SidechainModel } from './model/sidechainModel';
import { FaultWindows } from './model/faultWindows';

export interface SpanCommitTiming {
  /** How long after its service node committed a span a producer surely has it, ms. */
  fetchMs: number;
}

export class SpanCommitOracle extends Oracle {
  readonly name = 'span-commit';
  readonly class = 'safety' as const;
  readonly reads = [
    'fault.start',
    'fault.end',
    'sidechain.started',
    'sidechain.produced',
    'service.commit',
    'sidechain.imported',
  ] as const;
  private readonly faults = new FaultWindows();
  /** Sidechain node → the service node it reads from. */
  private readonly serviceOf = new Map<string, string>();
  /** Service node → span id → when it committed the span. */
  private readonly spanAt = new Map<string, Map<bigint, number>>();
  /** Block hash → the sidechain node that produced it. */
  private readonly producedBy = new Map<string, string>();
  private readonly judged = new Set<string>();

  constructor(
    private readonly model: SidechainModel,
    private readonly timing: SpanCommitTiming,
  ) {
    super();
  }

  override observe(r: RunRecord): void {
    const o = r.obs;
    this.faults.observe(r);
    switch (o.kind) {
      case 'sidechain.started':
        if (o.serviceNode !== undefined) this.serviceOf.set(r.node, o.serviceNode);
        return;
      case 'sidechain.produced':
        this.producedBy.set(o.hash, r.node);
        return;
      case 'service.commit': {
        for (const w of o.writes) {
          if (w.what !== 'span') continue;
          let m = this.spanAt.get(r.node);
          if (!m) {
            m = new Map();
            this.spanAt.set(r.node, m);
          }
          if (!m.has(w.id)) m.set(w.id, r.t);
        }
        return;
      }
      case 'sidechain.imported': {
        if (this.judged.has(o.block.hash)) return;
        this.judged.add(o.block.hash);
        this.judge(r, o.block.hash);
        return;
      }
      default:
        return;
    }
  }

  private judge(r: RunRecord, hash: string): void {
    const b = this.model.get(hash as `0x${string}`);
    if (!b || b.fact.number === 0n) return;
    const sprint = BigInt(this.model.params.sprint);
    const n = b.fact.number;
    if (n % sprint !== 0n) return;
    const parent = this.model.get(b.fact.parentHash);
    if (!parent) return;
    const current = parent.spans[parent.spans.length - 1]!;
    const next = current.id + 1n;
    const due = parent.spans.length === 1 ? sprint : current.endBlock - sprint + 1n;
    if (n < due) return;
    this.saw('sidechain.span.commit-block');
    if (b.fact.spanCommit?.id === next) return;
    const producer = this.producedBy.get(hash);
    const service = producer === undefined ? undefined : this.serviceOf.get(producer);
    const storedAt = service === undefined ? undefined : this.spanAt.get(service)?.get(next);
    if (storedAt === undefined) return;
    const producedAt = b.firstAtMs;
    if (producedAt - storedAt < this.timing.fetchMs) return;
    if (!this.faults.calm(storedAt, producedAt)) return;
    this.fail(
      r.t,
      producer!,
      `block ${n} (a sprint start, span ${next} due from block ${due}) does not commit span ${next}, which its producer's service node ${service} had committed ${((producedAt - storedAt) / 1000).toFixed(1)} s before (a fetch takes at most ${this.timing.fetchMs / 1000} s)`,
      {
        number: n,
        hash,
        span: next,
        due,
        storedAtMs: storedAt,
        producedAtMs: producedAt,
        fetchMs: this.timing.fetchMs,
      },
    );
  }
}
