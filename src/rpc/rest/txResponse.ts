/**
 * The Cosmos TxResponse that `POST /txs` answers with, built from the app's TxResult. Ports that
 * run CheckTx or deliver a tx (the devnet runtime, the test fixtures) use it, so every
 * implementation of `ServicePort.broadcast` answers in the same shape.
 */
import { type Hex } from '../../core/bytes';
import { type TxResult } from '../../app/blockResults';
import { type BroadcastResult } from '../ports';

/** Tendermint prints tx hashes as upper-case hex without 0x. */
export function tendermintHash(hash: Hex | string): string {
  return hash.replace(/^0x/i, '').toUpperCase();
}

/**
 * `height` is null for sync (CheckTx only); block mode passes the committing block's height and
 * gets the delivered tx's events as the single message log, as the Cosmos REST server reports.
 */
export function broadcastResultOf(r: TxResult, height: bigint | null): BroadcastResult {
  const out: BroadcastResult = {
    height: (height ?? 0n).toString(),
    txhash: tendermintHash(r.hash),
    code: r.code,
    raw_log: r.log,
  };
  if (r.codespace !== '') out.codespace = r.codespace;
  if (r.gasWanted > 0n) out.gas_wanted = r.gasWanted.toString();
  if (r.gasUsed > 0n) out.gas_used = r.gasUsed.toString();
  if (height !== null && r.code === 0) {
    out.logs = [
      {
        msg_index: 0,
        success: true,
        log: '',
        events: r.events.map((e) => ({
          type: e.type,
          attributes: Object.entries(e.attributes).map(([key, value]) => ({ key, value })),
        })),
      },
    ];
  }
  return out;
}

/** What async mode answers: the tx was journaled, nothing about its outcome is known yet. */
export function asyncBroadcastResult(txHash: Hex | string): BroadcastResult {
  return { height: '0', txhash: tendermintHash(txHash), code: 0, raw_log: '' };
}
