/**
 * How the live devnet writes its records into the home's logs (virtual time, one line each): a
 * node's observation, a client transaction's answer, and the daemon's own events.
 */
import { rfc3339FromUnixMs } from '../../core/time';
import { type ClientReply } from '../../node/ports';
import { type RunRecord } from '../../../sim/domain/observation';
import { observationJson } from '../../../sim/trace/observationJson';

/** JSON with bigints as decimal strings. */
export function jsonText(data: unknown): string {
  return JSON.stringify(data, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/** A node's record as a log line. */
export function logLine(epochMs: number, r: RunRecord): string {
  return `${rfc3339FromUnixMs(epochMs + r.t)} ${r.obs.kind} ${observationJson(r.obs)}`;
}

/** A client answer in the daemon log (as the node's broadcast endpoint would log it). */
export function replyLine(epochMs: number, t: number, r: ClientReply): string {
  const fields = {
    hash: r.hash,
    ...(r.kind === 'delivered' ? { height: r.height.toString() } : {}),
    code: r.code,
    codespace: r.codespace,
    log: r.log,
  };
  return `${rfc3339FromUnixMs(epochMs + t)} service.${r.kind === 'checked' ? 'clientTx' : 'clientTxResult'} ${JSON.stringify(fields)}`;
}

/** Let the servers answer between slices of simulation. */
export function yieldToIo(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}
