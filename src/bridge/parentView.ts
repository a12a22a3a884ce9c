/**
 * A service node's view of the parent chain, built from RPC answers: blocks with their receipts,
 * the head, and the root chain's header blocks. It answers the side handlers (confirmed events,
 * block hashes, header blocks) and gives the bridge the final logs to relay.
 */
import { weakMemo } from '../core/memo';
import { minBig } from '../core/amount';
import { isPlanted } from '../core/plants';
import { type Hex } from '../core/bytes';
import { type ParentBlock, type ParentReceipt } from '../parent/parentChain';
import { type RootChainHeaderBlock } from '../parent/contracts/rootChain';
import { type DecodedParentLog, decodeLog } from '../parent/abi';
import { type ParentChainObserver, type ParentEvent } from '../modules/framework/observers';

export interface ParentSyncResult {
  blocks: ParentBlock[];
  head: bigint;
  headerBlocks: RootChainHeaderBlock[];
}

export class ParentView implements ParentChainObserver {
  private readonly blocks = new Map<bigint, ParentBlock>();
  private readonly receipts = new Map<Hex, ParentReceipt>();
  private readonly headers = new Map<bigint, RootChainHeaderBlock>();
  private headNumber: bigint | null = null;
  private contiguous = -1n;

  update(r: ParentSyncResult): void {
    for (const b of r.blocks) {
      if (this.blocks.has(b.number)) continue;
      this.blocks.set(b.number, b);
      for (const rc of b.receipts) this.receipts.set(rc.txHash, rc);
    }
    while (this.blocks.has(this.contiguous + 1n)) this.contiguous++;
    for (const h of r.headerBlocks) this.headers.set(h.number, h);
    if (this.headNumber === null || r.head > this.headNumber) this.headNumber = r.head;
  }

  /** The next block number to ask for. */
  nextFrom(): bigint {
    return this.contiguous + 1n;
  }

  /** The highest header-block number known (ask for newer ones). */
  lastHeaderBlock(): bigint {
    let max = 0n;
    for (const n of this.headers.keys()) if (n > max) max = n;
    return max;
  }

  head(): bigint | null {
    return this.headNumber;
  }

  /** The highest block with at least `confirmations` blocks on top that we hold contiguously. */
  finalNumber(confirmations: bigint): bigint {
    if (this.headNumber === null) return -1n;
    const f = this.headNumber - confirmations + (isPlanted('relay-confirmations') ? 1n : 0n);
    return minBig(f, this.contiguous);
  }

  event(txHash: Hex, logIndex: bigint, confirmations: bigint): ParentEvent | null {
    const rc = this.receipts.get(txHash);
    if (rc?.status !== 1 || this.headNumber === null || this.headNumber - rc.blockNumber < confirmations) return null;
    const log = rc.logs.find((l) => l.logIndex === logIndex);
    if (!log) return null;
    const d = decodeOnce(log);
    if (d === null || d.name === 'NewHeaderBlock') return null;
    return d as ParentEvent;
  }

  /** The block holding the receipt of `txHash`, if this view holds it (a raw read, no confirmation rule). */
  eventBlock(txHash: Hex): bigint | null {
    return this.receipts.get(txHash)?.blockNumber ?? null;
  }

  blockHash(n: bigint): Hex | null {
    return this.blocks.get(n)?.hash ?? null;
  }

  headerBlock(n: bigint): RootChainHeaderBlock | null {
    return this.headers.get(n) ?? null;
  }

  /** Decoded logs of the blocks from..to (inclusive) that we hold, in block and log order. */
  logs(from: bigint, to: bigint): DecodedParentLog[] {
    const out: DecodedParentLog[] = [];
    for (let n = from; n <= to; n++) {
      const b = this.blocks.get(n);
      if (!b) break;
      for (const rc of b.receipts) {
        if (rc.status !== 1) continue;
        for (const l of rc.logs) {
          const d = decodeOnce(l);
          if (d) out.push(d);
        }
      }
    }
    return out;
  }
}

/**
 * Parent-chain logs reach every node as the same immutable objects (the node's RPC answers): each
 * is decoded once per process, not once per node per scan (decoding re-encodes to check it).
 */
const decoded = weakMemo<object, DecodedParentLog | null>('parentView.decodedLogs');

function decodeOnce(log: Parameters<typeof decodeLog>[0]): DecodedParentLog | null {
  if (typeof log !== 'object' || log === null) return decodeLog(log);
  return decoded.getOrCompute(log, () => decodeLog(log));
}
