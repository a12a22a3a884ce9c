/**
 * What a block's transactions did: its transactions in order, their receipts and their logs, from
 * the block and what executing it gave (the stored block's outcomes; sidechain.md §2.7-§2.8).
 *
 * - A user transfer is a signed value transfer: status 1, 21,000 gas, its effective gas price, and
 *   Bor's `LogTransfer` log from the MATIC token contract when it moved value (transfers.ts).
 * - A block that committed state syncs (a sprint start) also carries Bor's state-sync
 *   "transaction" and its receipt: hash keccak256("matic-bor-receipt-" ‖ u64be(number) ‖ blockHash),
 *   placed last (index = number of user transactions), from and to the zero address, no gas,
 *   status 1, its logs numbered after the user transactions' logs (Bor `DeriveFieldsForBorReceipt`).
 *
 * The reference's StateReceiver emits `StateCommitted(stateId, success)` only when the record's
 * receiver has code, so a sprint whose records all target plain accounts has no receipt. A
 * simulated chain has no code: every receiver is taken to be a contract whose `onStateReceive`
 * succeeds, so each committed record emits one `StateCommitted(id, true)` log, and a block has the
 * state-sync receipt exactly when it committed state syncs.
 */
import { weakMemo } from '../core/memo';
import { type Address, ZERO_ADDRESS } from '../core/address';
import { type Hex } from '../core/bytes';
import { type StoredBlock } from './chain';
import { type SidechainBlock } from './block';
import { type SignedTx } from './transaction';
import { stateCommittedLog, stateSyncTxHash } from './stateSync';
import { type StateSyncRecord } from './systemState';

/** A log as a receipt holds it, placed in its block. */
export interface SidechainLog {
  readonly address: Address;
  readonly topics: readonly Hex[];
  readonly data: Hex;
  readonly blockNumber: bigint;
  readonly blockHash: Hex;
  readonly txHash: Hex;
  readonly txIndex: number;
  /** Position among all the logs of the block. */
  readonly logIndex: number;
}

/** One transaction of a block, in block order. */
export type SidechainTxEntry =
  | { readonly kind: 'transfer'; readonly hash: Hex; readonly index: number; readonly tx: SignedTx }
  | {
      readonly kind: 'stateSync';
      readonly hash: Hex;
      readonly index: number;
      readonly records: readonly StateSyncRecord[];
    };

export interface SidechainReceipt {
  readonly kind: SidechainTxEntry['kind'];
  readonly txHash: Hex;
  readonly txIndex: number;
  readonly blockHash: Hex;
  readonly blockNumber: bigint;
  readonly from: Address;
  readonly to: Address;
  readonly gasUsed: bigint;
  readonly cumulativeGasUsed: bigint;
  /** The transaction's type (0 legacy, 2 EIP-1559; the state-sync one is 0). */
  readonly type: number;
  /** What each gas unit cost the sender (0 for the state-sync transaction). */
  readonly effectiveGasPrice: bigint;
  readonly status: 1;
  readonly logs: readonly SidechainLog[];
}

export interface BlockActivity {
  readonly txs: readonly SidechainTxEntry[];
  readonly receipts: readonly SidechainReceipt[];
  /** Every log of the block, in log-index order. */
  readonly logs: readonly SidechainLog[];
}

/**
 * Blocks are immutable values shared by every node that imports them, and so are the outcomes of
 * running one (blockRun.ts shares a run per block and parent state): the activity is derived once
 * per block object and outcomes object. It was keyed by each node's StoredBlock, which made 105
 * nodes derive and keep 105 copies of every block's receipts and logs.
 */
const cache = weakMemo<SidechainBlock, { outcomes: StoredBlock['outcomes']; activity: BlockActivity }>(
  'sidechain.blockActivity',
);

export function blockActivity(stored: StoredBlock): BlockActivity {
  const hit = cache.get(stored.block);
  if (hit !== undefined && hit.outcomes === stored.outcomes) return hit.activity;
  const activity = derive(stored);
  // Another outcomes object for the same block (a node that ran it on another parent state) is
  // derived anew; the first stays cached.
  if (hit === undefined) cache.set(stored.block, { outcomes: stored.outcomes, activity });
  return activity;
}

function derive(stored: StoredBlock): BlockActivity {
  const { header, hash: blockHash, body } = stored.block;
  const blockNumber = header.number;
  const txs: SidechainTxEntry[] = [];
  const receipts: SidechainReceipt[] = [];
  const logs: SidechainLog[] = [];
  let cumulativeGasUsed = 0n;
  body.txs.forEach((tx, index) => {
    const outcome = stored.outcomes[index]!;
    txs.push({ kind: 'transfer', hash: tx.hash, index, tx });
    cumulativeGasUsed += outcome.gasUsed;
    const txLogs: SidechainLog[] = [];
    for (const l of outcome.logs) {
      const log: SidechainLog = {
        ...l,
        blockNumber,
        blockHash,
        txHash: tx.hash,
        txIndex: index,
        logIndex: logs.length,
      };
      logs.push(log);
      txLogs.push(log);
    }
    receipts.push({
      kind: 'transfer',
      txHash: tx.hash,
      txIndex: index,
      blockHash,
      blockNumber,
      from: tx.from,
      to: tx.to,
      gasUsed: outcome.gasUsed,
      cumulativeGasUsed,
      type: tx.type,
      effectiveGasPrice: outcome.effectiveGasPrice,
      status: 1,
      logs: txLogs,
    });
  });
  if (body.stateSyncs.length > 0) {
    const index = body.txs.length;
    const hash = stateSyncTxHash(blockNumber, blockHash);
    txs.push({ kind: 'stateSync', hash, index, records: body.stateSyncs });
    const stateLogs = body.stateSyncs.map(
      (r, i): SidechainLog => ({
        ...stateCommittedLog(r.id, true),
        blockNumber,
        blockHash,
        txHash: hash,
        txIndex: index,
        logIndex: logs.length + i,
      }),
    );
    logs.push(...stateLogs);
    // Bor stores the receipt as {status, logs}: no gas, and a system call has no sender.
    receipts.push({
      kind: 'stateSync',
      txHash: hash,
      txIndex: index,
      blockHash,
      blockNumber,
      from: ZERO_ADDRESS,
      to: ZERO_ADDRESS,
      gasUsed: 0n,
      cumulativeGasUsed: 0n,
      type: 0,
      effectiveGasPrice: 0n,
      status: 1,
      logs: stateLogs,
    });
  }
  return { txs, receipts, logs };
}
