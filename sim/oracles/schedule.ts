/**
 * The producer schedule (sidechain.md §2.3-§2.7; README items 25-27, 29), judged on every block
 * the first time any node imports it, against the oracle's own snapshot of its parent
 * (model/sidechainModel.ts):
 *
 *  - the signer is a producer of the parent's snapshot (an outsider's block must be refused);
 *  - difficulty = N − succession, the succession counted from the sprint's in-turn proposer;
 *  - time >= parent.time + delay(number, succession) by the oracle's own delay formula;
 *  - a sprint-end header announces exactly the producers the validator contract names for the
 *    next block, and no other header announces any;
 *  - a span committed on the sidechain is the span the service committed (same id, range and
 *    selected producers with their powers), committed at a sprint start when one is due; span 0's
 *    producers are the service's genesis span's.
 *
 * The liveness half (BackupStepInOracle) checks the final canonical chain: a gap longer than the
 * last backup's delay means no backup stepped in while the primary was silent; and a backup that
 * did step in did so at its own delay: Bor stamps a block `parent.time + delay(number,
 * succession)` (or the time it learned of the parent, if later), so a backup block later than that
 * by more than the network's latency stepped in late, unless a fault could have delayed it.
 */
import { type Address } from '../../src/core/address';
import { Oracle, type RunRecord } from './oracle';
import { type ModelBlock, type SidechainModel, type SpanModel } from './model/sidechainModel';
import { type DelayParams, producerDelayS } from './model/producerDelay';

const sameProducers = (
  a: ReadonlyArray<{ address?: string; signer?: string; power: bigint; id?: bigint }>,
  b: ReadonlyArray<{ address?: string; signer?: string; power: bigint; id?: bigint }>,
): boolean =>
  a.length === b.length &&
  a.every((x, i) => {
    const y = b[i]!;
    return (
      (x.address ?? x.signer)!.toLowerCase() === (y.address ?? y.signer)!.toLowerCase() &&
      x.power === y.power &&
      (x.id === undefined || y.id === undefined || x.id === y.id)
    );
  });

const list = (ps: ReadonlyArray<{ address?: string; signer?: string; power: bigint }>): string =>
  `[${ps.map((p) => `${p.address ?? p.signer}:${p.power}`).join(', ')}]`;

export class ProducerScheduleOracle extends Oracle {
  readonly name = 'producer-schedule';
  readonly class = 'safety' as const;
  readonly reads = ['sidechain.started', 'sidechain.imported'] as const;
  private readonly judged = new Set<string>();

  constructor(private readonly model: SidechainModel) {
    super();
  }

  override observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind === 'sidechain.started') {
      const span0 = this.model.serviceSpans.get(0n);
      const g = this.model.genesis;
      if (!span0 || !g || this.judged.has('genesis')) return;
      this.judged.add('genesis');
      this.saw('sidechain.span.genesis-producers');
      const mine = g.spans[0]!.producers;
      if (!sameProducers(mine, span0.producers))
        this.fail(
          r.t,
          r.node,
          `the sidechain's genesis producers ${list(mine)} are not span 0's ${list(span0.producers)}`,
        );
      return;
    }
    if (o.kind !== 'sidechain.imported' || this.judged.has(o.block.hash)) return;
    this.judged.add(o.block.hash);
    const b = this.model.get(o.block.hash);
    if (b) this.judge(r, b);
  }

  private judge(r: RunRecord, b: ModelBlock): void {
    const f = b.fact;
    const e = b.expected!;
    const at = { number: f.number, hash: f.hash, signer: f.signer };
    this.saw('sidechain.seal.signer-in-snapshot');
    if (e.succession === null) {
      this.fail(r.t, r.node, `block ${f.number} is sealed by ${f.signer}, not a producer of its parent's snapshot`, at);
      return;
    }
    const difficulty = BigInt(e.producers - e.succession);
    this.saw('sidechain.difficulty.n-minus-succession');
    this.saw('sidechain.succession.from-proposer');
    this.saw('sidechain.sprint.rotation');
    // Until the first sprint end the in-turn producer is the genesis snapshot's.
    if (f.number < BigInt(this.model.params.sprint)) this.saw('sidechain.snapshot.genesis');
    if (f.difficulty !== difficulty) {
      this.fail(
        r.t,
        r.node,
        `block ${f.number} by ${f.signer} (succession ${e.succession} after ${e.proposer}) has difficulty ${f.difficulty}, not N - succession = ${difficulty}`,
        { ...at, difficulty: f.difficulty, expected: difficulty },
      );
      return;
    }
    this.saw('sidechain.delay.producer-delay');
    if (f.time < e.minTime) {
      const parent = this.model.get(f.parentHash)!;
      this.fail(
        r.t,
        r.node,
        `block ${f.number} at ${f.time} is earlier than parent.time ${parent.fact.time} + delay(succession ${e.succession}) = ${e.minTime}`,
        { ...at, time: f.time, earliest: e.minTime },
      );
      return;
    }
    this.saw('sidechain.sprint.announce');
    if (e.announce === null ? f.announced !== null : f.announced === null || !sameProducers(f.announced, e.announce)) {
      this.fail(
        r.t,
        r.node,
        e.announce === null
          ? `block ${f.number} is not a sprint end but announces producers ${list(f.announced ?? [])}`
          : `sprint-end block ${f.number} announces ${list(f.announced ?? [])}, not the producers of block ${f.number + 1n} ${list(e.announce)}`,
        at,
      );
      return;
    }
    const c = f.spanCommit;
    if (c) {
      this.saw('sidechain.span.commit-at-sprint-start');
      this.saw('sidechain.span.commit-matches');
      const parent = this.model.get(f.parentHash)!;
      const mine = b.spans[b.spans.length - 1]!;
      const svc = this.model.serviceSpans.get(c.id);
      const why = this.spanCommitProblem(parent.spans, mine, svc, f.number);
      if (why) this.fail(r.t, r.node, `block ${f.number} commits span ${c.id}: ${why}`, at);
    }
  }

  private spanCommitProblem(
    before: readonly SpanModel[],
    c: SpanModel,
    svc: SpanModel | undefined,
    n: bigint,
  ): string | null {
    const sprint = BigInt(this.model.params.sprint);
    if (n % sprint !== 0n) return 'not at a sprint start';
    if (!svc) return 'the service never committed it';
    if (c.startBlock !== svc.startBlock || c.endBlock !== svc.endBlock)
      return `range ${c.startBlock}..${c.endBlock}, the service's is ${svc.startBlock}..${svc.endBlock}`;
    if (!sameProducers(c.producers, svc.producers))
      return `producers ${list(c.producers)}, the service selected ${list(svc.producers)}`;
    const current = before[before.length - 1]!;
    if (c.id !== current.id + 1n) return `the chain's current span is ${current.id}`;
    // The first commit (nothing committed yet) is due at once; later ones from the current
    // span's last sprint on (a late commit is allowed, README item 29 / needsSpanCommit).
    if (before.length > 1 && n < current.endBlock - sprint + 1n)
      return `not due before block ${current.endBlock - sprint + 1n} (the current span ends at ${current.endBlock})`;
    return null;
  }
}

/**
 * The liveness half: on the final canonical chain every gap is at most the last backup's delay
 * (plus slack), except where faults silenced every producer, or before a block its producer made
 * while cut off from all the others (no backup was on its side).
 */
export class BackupStepInOracle extends Oracle {
  readonly name = 'backup-step-in';
  readonly class = 'liveness' as const;
  /** Judged at the end of the run only (from final facts the suite gathers), never on a record. */
  readonly reads = [] as const;

  constructor(
    private readonly params: DelayParams,
    /** Slack for network latency and import time, seconds. */
    private readonly slackS = 3n,
    /** How late a backup may stamp its block past its delay: the parent's worst arrival, whole seconds. */
    private readonly stampSlackS = 1n,
  ) {
    super();
  }

  /**
   * blocks: canonical (number, time, producers of the parent snapshot, signer) in order; silent:
   * windows [fromS, toS] where no producer could produce; alone: windows where one producer was
   * cut off from all the others; producerFaults: windows where a producer was held back (offline
   * or slow): when the span has a single producer (one validator won every slot), that producer is
   * every producer there is, and no backup can step in for it.
   */
  checkChain(
    node: string,
    atMs: number,
    blocks: ReadonlyArray<{
      number: bigint;
      time: bigint;
      producers: number;
      signer?: Address | string;
      /** The signer's succession after the sprint's in-turn producer (null: not a producer). */
      succession?: number | null;
    }>,
    silent: Array<[bigint, bigint]>,
    alone: Array<{ signer: string; from: bigint; to: bigint }> = [],
    /** Windows [fromS, toS] where a fault could delay a producer or its view of the head. */
    delayed: Array<[bigint, bigint]> = [],
    producerFaults: Array<[bigint, bigint]> = [],
  ): void {
    if (blocks.length > 1) this.saw('sidechain.backup.step-in');
    for (let i = 1; i < blocks.length; i++) {
      const b = blocks[i]!;
      const p = blocks[i - 1]!;
      const s = b.succession ?? 0;
      if (s > 0) {
        this.saw('sidechain.backup.stamp-delay');
        const own = producerDelayS(b.number, s, this.params) + this.stampSlackS;
        const excused =
          silent.some(([from, to]) => from <= b.time && to >= p.time) ||
          delayed.some(([from, to]) => from <= b.time && to >= p.time);
        if (b.time - p.time > own && !excused) {
          this.fail(
            atMs,
            node,
            `block ${b.number} by a backup (succession ${s}) is stamped ${b.time - p.time} s after its parent: it stepped in later than its delay ${own - this.stampSlackS} s`,
            { number: b.number.toString(), succession: s, gap: (b.time - p.time).toString(), bound: own.toString() },
          );
          return;
        }
      }
      this.saw('sidechain.backup.step-in');
      const worst = producerDelayS(b.number, Math.max(0, b.producers - 1), this.params) + this.slackS;
      if (b.time - p.time <= worst) continue;
      const during = ([from, to]: [bigint, bigint]) => from <= b.time && to >= p.time;
      if (silent.some(during)) continue;
      if (b.producers === 1 && producerFaults.some(during)) continue;
      if (
        b.signer !== undefined &&
        alone.some((w) => w.signer.toLowerCase() === b.signer!.toLowerCase() && w.from <= b.time && w.to >= p.time)
      )
        continue;
      this.fail(
        atMs,
        node,
        `no block between ${p.time} and ${b.time} (block ${b.number}): no backup stepped in within ${worst} s`,
        { number: b.number.toString(), gap: (b.time - p.time).toString(), bound: worst.toString() },
      );
      return;
    }
  }
}
