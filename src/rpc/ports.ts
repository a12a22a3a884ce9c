/**
 * What the servers of a live devnet (REST on 1317, node status RPC on 26657, sidechain JSON-RPC on
 * 8545, the operator console socket) need from the running network. The servers are thin HTTP /
 * socket adapters over these ports; the devnet runtime (src/devnet) implements them over the
 * simulated network, and tests implement them over a single app or chain.
 *
 * Reads answer from committed state between simulation steps. Writes (transactions, operator
 * commands) are journaled and injected into the simulation by the runtime, so every step stays
 * deterministic; their promises resolve when the simulation has produced the answer.
 */
import { type QueryAnswer } from '../app/queryRouter';
import { type SidechainReadPort } from '../sidechain/readPort';

export type BroadcastMode = 'sync' | 'async' | 'block';

/** The Cosmos SDK TxResponse shape that Heimdall's `POST /txs` answers with (fields omitted when empty). */
export interface BroadcastResult {
  /** "0" for sync and async; the block height for block mode. */
  height: string;
  /** Upper-case hex, no 0x (as Tendermint prints tx hashes). */
  txhash: string;
  /** 0 on success; the ABCI code otherwise. */
  code: number;
  codespace?: string;
  /** The ABCI log: `{"codespace":…,"code":…,"message":…}` on failure. */
  raw_log: string;
  gas_wanted?: string;
  gas_used?: string;
  /** Events of a delivered tx (block mode). */
  logs?: unknown[];
}

export interface ServicePort {
  readonly chainId: string;
  /** Answer a GET path (with its query string) from the node's committed state (the REST server maps it to HTTP). */
  query(pathWithQuery: string): QueryAnswer;
  /**
   * Broadcast a signed tx (wire bytes). async resolves once journaled; sync after the node's CheckTx
   * ran in the simulation; block after the tx was committed (or failed CheckTx), or rejects with
   * a timeout error after `blockTimeoutMs` of wall time.
   */
  broadcast(tx: Uint8Array, mode: BroadcastMode): Promise<BroadcastResult>;
}

/**
 * What `ServicePort.broadcast` rejects with when a block-mode broadcast times out, so the REST server
 * can answer 504 (the tx may still commit later) rather than a generic 500.
 */
export class BroadcastTimeoutError extends Error {
  constructor(message = 'timed out waiting for tx to be included in a block') {
    super(message);
    this.name = 'BroadcastTimeoutError';
  }
}

export interface PeerInfo {
  id: string;
  moniker: string;
}

/** What `/status` and `/net_info` on the node status port report. */
export interface NodeStatusPort {
  status(): {
    nodeId: string;
    moniker: string;
    network: string;
    version: string;
    latestBlockHeight: bigint;
    latestBlockHash: string;
    latestAppHash: string;
    /** Unix milliseconds of the latest block (virtual time). */
    latestBlockTimeMs: number;
    catchingUp: boolean;
    validatorAddress: string;
    votingPower: bigint;
  };
  netInfo(): { listening: boolean; peers: PeerInfo[] };
}

export type OperatorResult = { ok: true } | { ok: false; error: string };

/** What the sidechain JSON-RPC and the console read of one sidechain node at one moment. */
export interface SidechainView {
  chain: SidechainReadPort;
  chainId: bigint;
  peerCount: number;
  syncing: { startingBlock: bigint; currentBlock: bigint; highestBlock: bigint } | null;
  /** The node's public key, 65-byte uncompressed `0x04…` hex, for `admin.nodeInfo` (zeros if absent). */
  nodeKey?: string;
}

export interface SidechainPort {
  /** The sidechain node's current view (read-only). */
  view(): SidechainView;
  /** `debug.setHead(n)`: rewind the node's chain to block n (journaled operator command). */
  setHead(n: bigint): Promise<OperatorResult>;
}
