/**
 * Wiggle-time backups: no sidechain block is imported with a timestamp earlier than
 * parent.time + delay(succession), its difficulty is N - succession, and when the primary is silent
 * a backup steps in: no gap on the final canonical chain is longer than the last backup's delay
 * (outside windows where faults silenced every producer).
 */
import { calcProducerDelay } from '../../src/sidechain/config';
import { Oracle, big, type Observation } from './oracle';

export interface DelayParams {
  period: number;
  producerDelay: number;
  sprint: number;
  wiggle: number;
}

export class WiggleOracle extends Oracle {
  readonly name = 'wiggle-backups';
  readonly class = 'safety' as const;

  constructor(private readonly params: DelayParams) {
    super();
  }

  override observe(o: Observation): void {
    if (o.kind !== 'sidechain.imported') return;
    const number = big(o.data.number);
    const succession = Number(o.data.succession);
    const n = Number(o.data.producers);
    const delay = BigInt(calcProducerDelay(number, succession, this.params));
    const time = big(o.data.time);
    const parentTime = big(o.data.parentTime);
    if (time < parentTime + delay) {
      this.fail(
        o.t,
        o.node,
        `block ${number} at ${time} is earlier than parent.time ${parentTime} + delay(${succession}) = ${delay}`,
        { number: number.toString(), succession, time: time.toString(), parentTime: parentTime.toString() },
      );
    } else if (big(o.data.difficulty) !== BigInt(n - succession)) {
      this.fail(
        o.t,
        o.node,
        `block ${number} has difficulty ${o.data.difficulty}, expected N - succession = ${n - succession}`,
        { number: number.toString(), succession, n },
      );
    }
  }
}

/** The liveness half: on the final canonical chain, every gap is bounded by the last backup's delay. */
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
   * blocks: canonical (number, time, producers, signer) in order; silent: windows [fromS, toS] where
   * no producer could produce; alone: windows where one producer was cut off from all the others. A
   * block its producer made alone had no backup on its side: the gap before it is not a backup's to fill.
   */
  checkChain(
    node: string,
    atMs: number,
    blocks: Array<{ number: bigint; time: bigint; producers: number; signer?: string }>,
    silent: Array<[bigint, bigint]>,
    alone: Array<{ signer: string; from: bigint; to: bigint }> = [],
  ): void {
    for (let i = 1; i < blocks.length; i++) {
      const b = blocks[i]!;
      const p = blocks[i - 1]!;
      const worst = BigInt(calcProducerDelay(b.number, Math.max(0, p.producers - 1), this.params)) + this.slackS;
      if (b.time - p.time <= worst) continue;
      if (silent.some(([from, to]) => from <= b.time && to >= p.time)) continue;
      if (b.signer !== undefined && alone.some((w) => w.signer === b.signer && w.from <= b.time && w.to >= p.time))
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
