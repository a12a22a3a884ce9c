/**
 * Checkpoint timeouts: a no-ack only after CheckpointBufferTime since the last checkpoint; the
 * proposer rotates by exactly one on each ack and no-ack; acked checkpoints are numbered and
 * contiguous; each acked root equals the sidechain's root of its range.
 */
import { Oracle, big, str, type Observation } from './oracle';

export class CheckpointOracle extends Oracle {
  readonly name = 'checkpoint-timeouts';
  readonly class = 'safety' as const;
  private readonly acked = new Map<string, { number: bigint; start: bigint; end: bigint; root: string }>();
  private readonly lastAcked = new Map<string, { number: bigint; end: bigint }>();

  override observe(o: Observation): void {
    switch (o.kind) {
      case 'checkpoint.noack': {
        const now = big(o.data.blockTimeMs);
        const last = big(o.data.lastCheckpointS) * 1000n;
        const buffer = big(o.data.bufferMs);
        if (now - last < buffer)
          this.fail(
            o.t,
            o.node,
            `no-ack at ${now} ms, only ${now - last} ms after the last checkpoint (buffer ${buffer} ms)`,
            { ...o.data },
          );
        break;
      }
      case 'checkpoint.rotation':
        if (str(o.data.actual) !== str(o.data.expected))
          this.fail(
            o.t,
            o.node,
            `after ${o.data.event} the proposer is ${o.data.actual}, not ${o.data.expected} (one rotation)`,
            { ...o.data },
          );
        break;
      case 'checkpoint.acked': {
        const number = big(o.data.number);
        const start = big(o.data.start);
        const end = big(o.data.end);
        const prev = this.lastAcked.get(o.node);
        const expectedStart = prev ? prev.end + 1n : 0n;
        const expectedNumber = prev ? prev.number + 1n : 1n;
        if (number !== expectedNumber || start !== expectedStart) {
          this.fail(
            o.t,
            o.node,
            `checkpoint ${number} (${start}..${end}) does not follow ${prev ? `${prev.number} ending at ${prev.end}` : 'genesis'}`,
            { ...o.data },
          );
        }
        this.lastAcked.set(o.node, { number, end });
        this.acked.set(`${start}-${end}`, { number, start, end, root: str(o.data.root) });
        break;
      }
    }
  }

  /** The ranges of acked checkpoints (the runner asks the sidechain for their roots). */
  ackedRanges(): Array<{ start: bigint; end: bigint }> {
    return [...this.acked.values()].map((c) => ({ start: c.start, end: c.end }));
  }

  /** At the end: every acked root must equal the root of that range on the final sidechain. */
  checkRoots(atMs: number, node: string, rootOf: (start: bigint, end: bigint) => string | null): void {
    for (const c of this.acked.values()) {
      const root = rootOf(c.start, c.end);
      if (root !== null && root !== c.root) {
        this.fail(
          atMs,
          node,
          `checkpoint ${c.number} acked root ${c.root} but the sidechain's root of ${c.start}..${c.end} is ${root}`,
          { number: c.number.toString(), acked: c.root, sidechain: root },
        );
        return;
      }
    }
  }
}
