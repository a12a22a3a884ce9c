/**
 * When each checkpoint was first buffered and first acked, and at which service heights a no-ack
 * was applied, as the main domain sees the service nodes commit (counted once across nodes): the
 * checkpoint latency a report and the metrics read.
 */
import { type AppliedBlock } from '../../src/app/sharedExecution';
import { type KVReader } from '../../src/store/kvStore';
import { getBuffer, getLastCheckpoint } from '../../src/modules/checkpoint/keeper';

export class CheckpointTimes {
  /** By start block, in the order first buffered. */
  private readonly times = new Map<string, { bufferedMs?: number; ackedMs?: number }>();
  private readonly noAckHeights = new Set<string>();

  /** A node committed the block at `height`: its side-tx results and delivery results, its state after. */
  onCommit(
    height: bigint,
    end: AppliedBlock['end'],
    results: AppliedBlock['results'],
    store: KVReader,
    nowMs: number,
  ): void {
    for (const r of end.sideTxResults) {
      if (r.code !== 0) continue;
      if (r.msgType !== 'checkpoint/MsgCheckpoint' && r.msgType !== 'checkpoint/MsgCheckpointACK') continue;
      const buffered = r.msgType === 'checkpoint/MsgCheckpoint';
      const last = buffered ? getBuffer(store) : getLastCheckpoint(store)?.checkpoint;
      if (!last) continue;
      const key = last.startBlock.toString();
      const e = this.times.get(key) ?? {};
      if (buffered) e.bufferedMs ??= nowMs;
      else e.ackedMs ??= nowMs;
      this.times.set(key, e);
    }
    if (results.some((r) => r.code === 0 && r.events.some((e) => e.type === 'checkpoint-noack')))
      this.noAckHeights.add(height.toString());
  }

  /** How many service heights carried an accepted no-ack. */
  get noAcks(): number {
    return this.noAckHeights.size;
  }

  entries(): Array<{ startBlock: string; bufferedMs?: number; ackedMs?: number }> {
    return [...this.times].map(([startBlock, t]) => ({ startBlock, ...t }));
  }
}
