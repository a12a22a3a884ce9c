/**
 * The body of `POST /txs` (heimdall.md §6.5): `{"tx":{"msg":…,"signature":"0x…","memo":""},
 * "mode":"sync|async|block"}`, mode defaulting to sync as in the Cosmos REST server.
 *
 * The tx is decoded with the chain's own decoder, so a body the chain could never accept is a 400
 * naming the bad field instead of a CheckTx failure, and re-encoded to the canonical wire bytes: the
 * same tx always has the same hash, whatever key order or hex case the client used.
 */
import { describe } from '../../core/bytes';
import { decodeTx, encodeTx } from '../../modules/auth/stdTx';
import { asObject } from '../../modules/framework/decode';
import { MSG_REGISTRY } from '../../app/registry';
import { type BroadcastMode } from '../ports';
import { RestError, decodeOrThrow } from './restError';

const MODES: readonly BroadcastMode[] = ['sync', 'async', 'block'];

export interface BroadcastRequest {
  txBytes: Uint8Array;
  mode: BroadcastMode;
}

export function parseBroadcastRequest(body: unknown): BroadcastRequest {
  if (body === undefined) throw new RestError(400, 'failed to decode JSON payload: empty body');
  return decodeOrThrow(() => {
    const o = asObject(body, 'body');
    const mode = o.mode === undefined ? 'sync' : o.mode;
    if (!MODES.includes(mode as BroadcastMode)) {
      throw new RestError(
        400,
        `failed to decode JSON payload: mode: expected "sync", "async" or "block", got ${describe(mode)}`,
      );
    }
    // The prepare endpoints answer `{"type":"auth/StdTx","value":{…}}`; a client that signs that
    // answer and posts it whole means the inner tx, so the amino wrapper is unwrapped.
    let tx = o.tx;
    if (
      tx !== null &&
      typeof tx === 'object' &&
      !Array.isArray(tx) &&
      (tx as Record<string, unknown>).type === 'auth/StdTx' &&
      'value' in tx
    ) {
      tx = (tx as Record<string, unknown>).value;
    }
    if (tx === undefined) throw new RestError(400, 'failed to decode JSON payload: tx: is required');
    return { txBytes: encodeTx(decodeTx(tx, MSG_REGISTRY)), mode: mode as BroadcastMode };
  });
}
