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
 * last backup's delay means no backup stepped in while the primary was silent.
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
    if (e.succession === null) {
      this.fail(r.t, r.node, `block ${f.number} is sealed by ${f.signer}, not a producer of its parent's snapshot`, at);
      return;
    }
    const difficulty = BigInt(e.producers - e.succession);
    if (f.difficulty !== difficulty) {
      this.fail(
        r.t,
        r.node,
        `block ${f.number} by ${f.signer} (succession ${e.succession} after ${e.proposer}) has difficulty ${f.difficulty}, not N - succession = ${difficulty}`,
        { ...at, difficulty: f.difficulty, expected: difficulty },
      );
      return;
    }
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

  constructor(
    private readonly params: DelayParams,
    /** Slack for network latency and import time, seconds. */
    private readonly slackS = 3n,
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
    blocks: ReadonlyArray<{ number: bigint; time: bigint; producers: number; signer?: Address | string }>,
    silent: Array<[bigint, bigint]>,
    alone: Array<{ signer: string; from: bigint; to: bigint }> = [],
    producerFaults: Array<[bigint, bigint]> = [],
  ): void {
    for (let i = 1; i < blocks.length; i++) {
      const b = blocks[i]!;
      const p = blocks[i - 1]!;
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
