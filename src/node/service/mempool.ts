/**
 * A service node's mempool: transactions that passed CheckTx against the node's check state and
 * wait for a block. Each entry is decoded once (`{raw, hash, tx, key, gas}`, see
 * app/decodedTx.ts) and kept in arrival order, which is the order a proposer reaps them in and
 * the order they are re-checked in after a commit (sequences advance per admitted tx).
 */
import { type Hex } from '../../core/bytes';
import { assert } from '../../core/errors';
import { type DecodedTx } from '../../app/decodedTx';
import { type TxResult } from '../../app/blockResults';
import { isCheckpointTx } from '../../modules/auth/ante';

/** Transactions a mempool holds at most (Tendermint's mempool size); a full one refuses new ones. */
export const MEMPOOL_MAX_TXS = 5_000;

export interface MempoolEntry extends DecodedTx {
  /** The bridge key of what it relays (bridgeKeys.ts), so a relay already waiting is not sent again. */
  readonly key: string | null;
  /** The gas it counts against a block (auth/gas.ts). */
  readonly gas: bigint;
}

export type MempoolAdd =
  | { readonly added: true; readonly entry: MempoolEntry; readonly check: TxResult }
  | { readonly added: false; readonly reason: 'duplicate' | 'full' }
  | { readonly added: false; readonly reason: 'rejected'; readonly check: TxResult };

export interface ReapLimits {
  maxBytes: number;
  maxGas: bigint;
}

export class Mempool {
  private readonly byHash = new Map<Hex, MempoolEntry>();
  /** How many entries carry each bridge key. */
  private readonly keyCounts = new Map<string, number>();

  constructor(
    /** The gas an admitted tx counts against a block. */
    private readonly gasOf: (tx: DecodedTx) => bigint,
    readonly maxTxs: number = MEMPOOL_MAX_TXS,
  ) {}

  get size(): number {
    return this.byHash.size;
  }

  has(hash: Hex): boolean {
    return this.byHash.has(hash);
  }

  /** Whether a tx with this bridge key is waiting. */
  hasKey(key: string): boolean {
    return this.keyCounts.has(key);
  }

  /** In arrival order. */
  entries(): IterableIterator<MempoolEntry> {
    return this.byHash.values();
  }

  /**
   * Admit `tx` if it is new, there is room, and `check` (CheckTx against the check state, which it
   * advances) accepts it; `key` is its bridge key (the bridge's own for a relay it made).
   */
  add(tx: DecodedTx, check: (tx: DecodedTx) => TxResult, key: string | null): MempoolAdd {
    if (this.byHash.has(tx.hash)) return { added: false, reason: 'duplicate' };
    if (this.byHash.size >= this.maxTxs) return { added: false, reason: 'full' };
    const r = check(tx);
    if (r.code !== 0) return { added: false, reason: 'rejected', check: r };
    assert(tx.tx !== null, 'a tx that passed CheckTx decodes', { hash: tx.hash });
    const entry: MempoolEntry = { ...tx, key, gas: this.gasOf(tx) };
    this.byHash.set(tx.hash, entry);
    if (key !== null) this.keyCounts.set(key, (this.keyCounts.get(key) ?? 0) + 1);
    return { added: true, entry, check: r };
  }

  /**
   * A proposer's block: entries in arrival order while they fit the byte and gas limits (the first
   * that does not fit ends it); a checkpoint tx goes alone, first or not at all.
   */
  reap(limits: ReapLimits): MempoolEntry[] {
    const out: MempoolEntry[] = [];
    let bytes = 0;
    let gas = 0n;
    for (const e of this.byHash.values()) {
      if (isCheckpointTx(e.tx!)) {
        if (out.length === 0) {
          out.push(e);
          break;
        }
        continue;
      }
      if (bytes + e.raw.length > limits.maxBytes || gas + e.gas > limits.maxGas) break;
      out.push(e);
      bytes += e.raw.length;
      gas += e.gas;
    }
    return out;
  }

  /** Drop a tx a block carried; returns whether it was here. */
  remove(hash: Hex): boolean {
    const e = this.byHash.get(hash);
    if (e === undefined) return false;
    this.byHash.delete(hash);
    if (e.key !== null) {
      const n = this.keyCounts.get(e.key)!;
      if (n <= 1) this.keyCounts.delete(e.key);
      else this.keyCounts.set(e.key, n - 1);
    }
    return true;
  }

  /**
   * After a commit: check every waiting tx again, in arrival order, against the fresh check state
   * (`check` advances it per accepted tx); drop the ones it refuses. Returns the dropped ones.
   */
  recheck(check: (tx: DecodedTx) => TxResult): MempoolEntry[] {
    const dropped: MempoolEntry[] = [];
    for (const e of [...this.byHash.values()]) {
      if (check(e).code === 0) continue;
      this.remove(e.hash);
      dropped.push(e);
    }
    return dropped;
  }
}
