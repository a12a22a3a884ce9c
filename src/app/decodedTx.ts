/**
 * A transaction decoded once. Every node of a process meets the same transaction several times
 * (CheckTx when it arrives, the proposer's block building, DeliverTx, the side votes on its block,
 * the facts a node reports), and decoding (UTF-8, JSON, the message's fields, the hash) is a pure
 * function of its bytes: it is done once per process and shared, read-only.
 */
import { type Hex, fromHex, toHex } from '../core/bytes';
import { InputError } from '../core/errors';
import { boundedMemo } from '../core/memo';
import { type DeepReadonly } from '../core/readonly';
import { decodeTx, type StdTx, txHash } from '../modules/auth/stdTx';
import { MSG_REGISTRY } from './registry';

export interface DecodedTx {
  /** The wire bytes, as hex (as it travels in blocks and gossip) and as bytes. */
  readonly hex: Hex;
  readonly raw: Uint8Array;
  /** Tendermint's tx hash (sha256 of the bytes). */
  readonly hash: Hex;
  /** The parsed tx, or null when the bytes do not decode (then `error` names the bad field). */
  readonly tx: DeepReadonly<StdTx> | null;
  readonly error: string | null;
}

/** Enough for every tx a run has in flight (mempools, the blocks being built and voted on). */
const decoded = boundedMemo<string, DecodedTx>('app.decodedTxs', 8192);

function decode(hex: Hex, raw: Uint8Array): DecodedTx {
  let tx: StdTx | null = null;
  let error: string | null = null;
  try {
    tx = decodeTx(raw, MSG_REGISTRY);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    error = e.message;
  }
  return { hex, raw, hash: txHash(raw), tx, error };
}

/** A tx from its hex (a block's, a gossiped one's); throws an InputError when it is not hex. */
export function decodeTxHex(hex: Hex): DecodedTx {
  const hit = decoded.get(hex);
  if (hit !== undefined) return hit;
  const d = decode(hex, fromHex(hex, 'tx'));
  decoded.set(hex, d);
  return d;
}

/** A tx from its bytes. */
export function decodeTxBytes(raw: Uint8Array): DecodedTx {
  const hex = toHex(raw);
  return decoded.getOrCompute(hex, () => decode(hex, raw));
}
