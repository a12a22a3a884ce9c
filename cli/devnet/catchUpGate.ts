/**
 * The live devnet's honesty about what clients already read (servedMark.ts holds the file): every
 * read notes the latest state it shows (written before the answer), and while a restart replays
 * its journal, reads wait at this gate until the replay has passed that state (at most
 * `catchUpWaitMs`; then they are answered with an error saying how far the replay is).
 */
import { type CatchUpGate } from '../../src/rpc/ports';
import { paths } from './home';
import { type LiveNodes, type LiveSetting, type LiveState } from './liveTypes';
import { NO_MARK, type ServedMark, readServedMark, writeServedMark } from './servedMark';

export class ServedGate implements CatchUpGate {
  mark: ServedMark = NO_MARK;
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly net: LiveNodes & LiveState & LiveSetting,
    private readonly waitMs: number,
  ) {}

  /** The mark a restart must reach, from the home (none for a read-only replay). */
  load(readOnly: boolean): void {
    this.mark = readOnly ? NO_MARK : readServedMark(paths(this.net.config.home).served);
  }

  /** A read is being answered: if it shows a later state than any before, remember it first. */
  noteServed(readOnly: boolean): void {
    const run = this.net.run;
    const b = run.barriers();
    if (b <= this.mark.b || readOnly) return;
    const heads: Record<string, string> = {};
    for (let i = 1; i <= this.net.nodeCount; i++) {
      heads[`sc-${i}`] = this.net.sidechainNode(i).chain.head().block.header.number.toString();
      heads[`svc-${i}`] = this.net.serviceNode(i).height.toString();
    }
    this.mark = { b, t: run.ranToMs(), heads };
    writeServedMark(paths(this.net.config.home).served, this.mark);
  }

  /** A revert goes back: reading a lower block after it is what was asked for. */
  resetTo(barrier: number, timeMs: number): void {
    this.mark = { b: barrier, t: timeMs, heads: {} };
    writeServedMark(paths(this.net.config.home).served, this.mark);
  }

  /** The head a client may already have seen of node `id` (for eth_syncing's highestBlock). */
  servedHead(id: string): bigint {
    const h = this.mark.heads[id];
    return h === undefined ? 0n : BigInt(h);
  }

  catchingUp(): boolean {
    return this.net.replaying && this.net.run.barriers() < this.mark.b;
  }

  caughtUp(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (!this.catchingUp()) return resolve();
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(
          new Error(
            `the node is catching up: replaying its journal (${(this.net.run.ranToMs() / 1000).toFixed(0)} of ${(this.mark.t / 1000).toFixed(0)} s simulated); retry shortly (eth_syncing and /status say how far it is)`,
          ),
        );
      }, this.waitMs);
      const check = () => {
        if (this.catchingUp() && !this.net.isStopped) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
    });
  }

  /** Let waiting reads through that may go now. */
  release(): void {
    for (const check of [...this.waiters]) check();
  }
}
