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
import { type Address } from '../core/address';
import { type Hex } from '../core/bytes';
import { type SidechainReadPort } from '../sidechain/readPort';
import { type SignedTx } from '../sidechain/transaction';
import { type PoolContent } from '../sidechain/txPool';

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

/**
 * A devnet that restarts replays its journal, and until the replay passes the state clients have
 * already read, a read would show an older chain. Servers hold such reads at this gate (status
 * and sync-status reads excepted: they answer with the catching-up signal instead).
 */
export interface CatchUpGate {
  /** True while reads would show a state older than one already served. */
  catchingUp(): boolean;
  /** Resolves once reads may go ahead; rejects (with a message saying how far the replay is) after a bounded wait. */
  caughtUp(): Promise<void>;
}

/** What `GET /txs/{hash}` finds: a tx the node committed or refused at CheckTx, one still pending, or none. */
export type TxLookup =
  | { status: 'committed' | 'refused'; result: BroadcastResult }
  | { status: 'pending'; message: string }
  | { status: 'unknown'; message?: string };

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
  /** `GET /txs/{hash}` (hash: 0x hex of the tx's hash); without it the path goes to `query`. */
  lookupTx?(hash: string): TxLookup;
  gate?: CatchUpGate;
}

/**
 * What `ServicePort.broadcast` rejects with when a tx was journaled (so it will be applied, also
 * after a restart) but its outcome is not known yet: the devnet stopped before it committed. The
 * REST server answers 503: the client must not send it again, but look it up (`GET /txs/{hash}`).
 */
export class TxFateUnknownError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TxFateUnknownError';
  }
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
  /** The transactions the node received and has not committed, in order (`/unconfirmed_txs`), if it tells. */
  unconfirmedTxs?(): Uint8Array[];
}

export type OperatorResult = { ok: true } | { ok: false; error: string };

/** What a sidechain node's transaction pool shows (pending transactions, not yet in its chain). */
export interface SidechainPoolView {
  /** The nonce the sender's next transaction should carry: its account's, past its pending ones. */
  pendingNonce(address: Address): bigint;
  transaction(hash: Hex): SignedTx | undefined;
  /** The pending and queued transactions (`txpool_*`), when the node tells. */
  content?(): PoolContent;
}

/** What became of a raw transaction a client sent: its hash once admitted, or geth's error text. */
export type SubmitResult = { ok: true; hash: Hex } | { ok: false; error: string };

/** What the sidechain JSON-RPC and the console read of one sidechain node at one moment. */
export interface SidechainView {
  chain: SidechainReadPort;
  /** The node's pending transactions, when it keeps a pool (a devnet's nodes do). */
  pool?: SidechainPoolView;
  /**
   * Send a signed transaction (0x hex of its bytes) to the node: `eth_sendRawTransaction`. Absent
   * where nothing can be sent (the method is then unavailable).
   */
  submit?(raw: Hex): Promise<SubmitResult>;
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
  gate?: CatchUpGate;
}

/** A server's ports per node, for the devnet's `/node/N` path prefix (N from 1). */
export interface NodePorts<P> {
  /** Node n's port, or null when there is no node n. */
  node(n: number): P | null;
  /** How many nodes there are (for the error that names the valid range). */
  readonly count: number;
}
