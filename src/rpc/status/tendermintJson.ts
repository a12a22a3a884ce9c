/**
 * Tendermint v0.32 RPC shapes for the node status port (26657): `/status` and `/net_info` results
 * and the JSON-RPC error envelope. Tendermint writes 64-bit numbers as decimal strings, hashes and
 * validator addresses as upper-case hex without 0x, and times as RFC 3339 with nanoseconds; tools
 * written against a real node (the operator guide's `jq .result.sync_info.latest_block_height`)
 * read these fields by those shapes.
 */
import { rfc3339FromUnixMs } from '../../core/time';
import { type NodeStatusPort } from '../ports';

/** URI-style requests carry no id; Tendermint answers them with id -1. */
const ID = -1;

/** JSON-RPC 2.0 error codes Tendermint uses. */
export const RpcErrorCode = {
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

/** Hex with or without 0x → Tendermint's upper-case bare hex; any other text is left as given. */
export function tendermintHex(s: string): string {
  return /^(0x)?[0-9a-fA-F]*$/i.test(s) ? s.replace(/^0x/i, '').toUpperCase() : s;
}

export function rpcResult(result: unknown) {
  return { jsonrpc: '2.0', id: ID, result };
}

export function rpcError(code: number, message: string, data = '') {
  return { jsonrpc: '2.0', id: ID, error: { code, message, data } };
}

export function statusResult(s: ReturnType<NodeStatusPort['status']>) {
  return {
    node_info: { id: s.nodeId, moniker: s.moniker, network: s.network, version: s.version },
    sync_info: {
      latest_block_hash: tendermintHex(s.latestBlockHash),
      latest_app_hash: tendermintHex(s.latestAppHash),
      latest_block_height: s.latestBlockHeight.toString(),
      latest_block_time: rfc3339FromUnixMs(s.latestBlockTimeMs),
      catching_up: s.catchingUp,
    },
    validator_info: { address: tendermintHex(s.validatorAddress), voting_power: s.votingPower.toString() },
  };
}

export function netInfoResult(n: ReturnType<NodeStatusPort['netInfo']>) {
  return {
    listening: n.listening,
    listeners: [] as string[],
    n_peers: String(n.peers.length),
    // The simulated network has no sockets: every peer is in this process, hence loopback.
    peers: n.peers.map((p) => ({
      node_info: { id: p.id, moniker: p.moniker },
      is_outbound: true,
      remote_ip: '127.0.0.1',
    })),
  };
}

/** Tendermint's `/unconfirmed_txs`: at most `limit` (1-100, default 30) txs, base64, and the totals. */
export function unconfirmedTxsResult(txs: readonly Uint8Array[], limit: number) {
  const n = Math.min(100, Math.max(1, limit || 30));
  const shown = txs.slice(0, n);
  return {
    n_txs: String(shown.length),
    total: String(txs.length),
    total_bytes: String(txs.reduce((k, t) => k + t.length, 0)),
    txs: shown.map((t) => Buffer.from(t).toString('base64')),
  };
}
