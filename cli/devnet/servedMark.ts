/**
 * How far the state clients have read goes: `data/served.json` holds the highest window barrier
 * (and its virtual time, and every node's head there) at which any read was answered. It is
 * written (atomically, before the answer goes out) whenever a read is served at a later barrier
 * than the one on file. A restart replays the journal at least to that barrier, and until the
 * replay passes it, reads wait (servers' catch-up gate): so no client ever reads a block number
 * lower than one it already read, except by an explicit rewind (a revert, debug.setHead).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

export interface ServedMark {
  /** The barrier of the latest state served. */
  b: number;
  /** Its virtual time, ms. */
  t: number;
  /** Sidechain head number and service height per node id there (for eth_syncing's highestBlock). */
  heads: Record<string, string>;
}

export const NO_MARK: ServedMark = { b: 0, t: 0, heads: {} };

export function readServedMark(file: string): ServedMark {
  if (!existsSync(file)) return NO_MARK;
  try {
    const o = JSON.parse(readFileSync(file, 'utf8')) as Partial<ServedMark>;
    if (!Number.isSafeInteger(o.b) || !Number.isSafeInteger(o.t)) return NO_MARK;
    return { b: o.b!, t: o.t!, heads: typeof o.heads === 'object' && o.heads !== null ? o.heads : {} };
  } catch {
    // Written by rename, so never torn; an edited file only loses its mark.
    return NO_MARK;
  }
}

export function writeServedMark(file: string, m: ServedMark): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(m)}\n`);
  renameSync(tmp, file);
}
