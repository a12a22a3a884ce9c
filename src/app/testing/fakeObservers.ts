/**
 * In-memory observers for tests and model runs: a scripted parent chain (events, block hashes,
 * header blocks) and a scripted sidechain (head, headers for root hashes).
 */
import { type Hex, toHex } from '../../core/bytes';
import { pad32 } from '../../core/amount';
import { keccak256Bytes } from '../../core/hash';
import { checkpointRootHashBytes, type SidechainHeaderFields } from '../../core/hashRules';
import { type HeaderBlockRecord, type Observers, type ParentEvent } from '../../modules/framework/observers';

export const EMPTY_ROOT: Hex = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';

export class FakeObservers implements Observers {
  readonly events = new Map<string, { event: ParentEvent; confirmations: bigint }>();
  readonly headerBlocks = new Map<bigint, HeaderBlockRecord>();
  sidechainHead: bigint | null = 0n;
  /** Roots of ranges on which the scripted sidechain is on another fork, by `start/end`. */
  readonly sidechainForks = new Map<string, Hex>();
  parentHead = 1_000n;

  readonly parent = {
    event: (txHash: Hex, logIndex: bigint, confirmations: bigint): ParentEvent | null => {
      const e = this.events.get(`${txHash}/${logIndex}`);
      return e && e.confirmations >= confirmations ? e.event : null;
    },
    blockHash: (n: bigint): Hex | null => (n <= this.parentHead ? toHex(keccak256Bytes(pad32(n))) : null),
    headerBlock: (n: bigint): HeaderBlockRecord | null => this.headerBlocks.get(n) ?? null,
  };

  readonly sidechain = {
    headNumber: (): bigint | null => this.sidechainHead,
    rootHash: (start: bigint, end: bigint, confirmations: bigint): Hex | null => {
      if (this.sidechainHead === null || end + confirmations > this.sidechainHead || start > end) return null;
      return this.sidechainForks.get(`${start}/${end}`) ?? sidechainRoot(start, end);
    },
  };

  addEvent(event: ParentEvent, confirmations = 100n): ParentEvent {
    this.events.set(`${event.txHash}/${event.logIndex}`, { event, confirmations });
    return event;
  }
}

/** Synthetic sidechain headers: number k, time 1000 + 2k, empty tx and receipt roots. */
export function syntheticHeader(k: bigint): SidechainHeaderFields {
  return { number: k, time: 1000n + 2n * k, txHash: EMPTY_ROOT, receiptHash: EMPTY_ROOT };
}

export function sidechainRoot(start: bigint, end: bigint): Hex {
  const headers: SidechainHeaderFields[] = [];
  for (let k = start; k <= end; k++) headers.push(syntheticHeader(k));
  return toHex(checkpointRootHashBytes(headers));
}

/** A deterministic parent-chain tx hash for tests: a pure function of the label. */
export function fakeTxHash(label: string): Hex {
  return toHex(keccak256Bytes(new TextEncoder().encode(`fake-parent-tx/${label}`)));
}
