/** Checkpoint time in whole seconds of block time (as the reference stores it), and buffer expiry. */
import { type Checkpoint } from './keeper';

export function blockSeconds(timeMs: number): bigint {
  return BigInt(Math.floor(timeMs / 1000));
}

/**
 * Whether a buffered checkpoint has expired at `timeMs` (reference §3.2, whole seconds): a new
 * MsgCheckpoint then flushes it instead of failing with ErrNoACK.
 */
export function bufferExpired(buf: Checkpoint, timeMs: number, bufferTimeMs: bigint): boolean {
  const now = blockSeconds(timeMs);
  return buf.timestamp === 0n || (now > buf.timestamp && now - buf.timestamp >= bufferTimeMs / 1000n);
}
