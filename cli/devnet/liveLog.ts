/**
 * How the live devnet writes its records into the home's logs (virtual time, one line each): a
 * node's observation, a client transaction's answer, and the daemon's own events.
 */
import { rfc3339FromUnixMs } from '../../src/core/time';
import { type ClientReply } from '../../src/node/ports';
import { type RunRecord } from '../../sim/core/record';
import { observationJson } from '../../sim/trace/observationJson';

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

/**
 * A record in the log of the service it belongs to: the devnet's own node's bridge records in the
 * bridge log, its service, side-tx and consensus records and the faults in the daemon log, its
 * sidechain node's records in the sidechain log. Other nodes' records are not logged.
 */
export function logRecord(
  r: RunRecord,
  nodeIndex: number,
  epochMs: number,
  log: (service: 'daemon' | 'bridge' | 'sidechain', line: string) => void,
): void {
  const kind = r.obs.kind;
  if (r.node === `svc-${nodeIndex}`) {
    if (kind.startsWith('bridge.')) log('bridge', logLine(epochMs, r));
    else if (kind.startsWith('service.') || kind.startsWith('side.') || kind.startsWith('consensus.'))
      log('daemon', logLine(epochMs, r));
  } else if (r.node === `sc-${nodeIndex}`) {
    log('sidechain', logLine(epochMs, r));
  } else if (r.node === '' && kind.startsWith('fault.')) {
    log('daemon', logLine(epochMs, r));
  }
}
