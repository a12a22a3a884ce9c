/**
 * A client that reads a sidechain node's JSON-RPC transaction reads, as a wallet or an explorer
 * would: every half minute of virtual time it asks one live sidechain node (in turn), through the
 * entry the JSON-RPC server answers with (`callRpc` over the node's view, as a devnet builds it):
 *
 *  - `eth_getTransactionByHash` and `eth_getTransactionReceipt` of a transfer on the node's
 *    canonical chain, and of a hash nobody sent (null, not an error);
 *  - for a recent block that committed state syncs: `eth_getBlockByNumber(n, true)`,
 *    `eth_getBlockReceipts(n)`, the StateReceiver's logs of that block (`eth_getLogs`), and the two
 *    reads of Bor's state-sync pseudo-transaction under the hash the block answer lists last (a
 *    client learns it there; the derived hash when the block could not be read).
 *
 * Each answer is recorded as a raw fact (`sidechain.query`) with the node's head when it answered;
 * the rpc-answers oracle judges it against its own model of the node's chain, built from the
 * node's `sidechain.imported` facts.
 *
 * It draws nothing at random: which node, which transfer and which block follow from the round
 * number and the node's chain. It changes nothing in the node (reads only).
 */
import { type Hex, toHex, utf8 } from '../../src/core/bytes';
import { keccak256Bytes } from '../../src/core/hash';
import { type Observation } from '../../src/node/observations';
import { type SidechainNode } from '../../src/node/sidechain/sidechainNode';
import { type SidechainView } from '../../src/rpc/ports';
import { callRpc } from '../../src/rpc/jsonrpc/methods';
import { encodeJson } from '../../src/rpc/jsonrpc/jsonText';
import { chainReadPort } from '../../src/sidechain/readPort';
import { STATE_RECEIVER_ADDRESS, stateSyncTxHash } from '../../src/sidechain/stateSync';

export const RPC_PROBE_EVERY_MS = 30_000;
/** How far below the head the client looks for a block with transfers. */
const TRANSFER_DEPTH = 64n;
/** How far below the head it looks for blocks that committed state syncs (a few sprints' worth of bridge traffic). */
const STATE_SYNC_DEPTH = 1024n;
/** Among the most recent blocks it found, which it reads (in turn, by round). */
const CHOICES = 4;

type Query = Extract<Observation, { kind: 'sidechain.query' }>;
type Answer = Query['answer'];

const quantity = (n: bigint): string => `0x${n.toString(16)}`;

/** What a JSON-RPC server of the node would read: its chain, its pool, its chain id (a devnet's view, without the network). */
function viewOf(node: SidechainNode): SidechainView {
  return {
    chain: chainReadPort(node.chain),
    pool: {
      pendingNonce: (address) => node.txs.pendingNonce(address),
      transaction: (hash) => node.txs.pool.get(hash),
    },
    chainId: node.chain.cfg.chainId,
    peerCount: 0,
    syncing: null,
  };
}

/** One round of reads on `node`: the records to report. */
export function rpcProbe(node: SidechainNode, round: number): Observation[] {
  const out: Observation[] = [];
  const view = viewOf(node);
  const head = node.chain.head();
  const headFact = { hash: head.block.hash, number: head.block.header.number };
  const ask = (method: string, params: readonly unknown[]): Answer => {
    const r = callRpc(view, method, params);
    // As a client reads it: the JSON text the server would send, parsed.
    const answer: Answer = r.ok
      ? { ok: true, result: JSON.parse(encodeJson(r.result)) as unknown }
      : { ok: false, code: r.error.code, message: r.error.message };
    out.push({ kind: 'sidechain.query', head: headFact, method, params, answer });
    return answer;
  };

  const top = head.block.header.number;
  const withTransfers: Hex[][] = [];
  const withStateSyncs: bigint[] = [];
  for (let n = top; n > 0n && top - n < STATE_SYNC_DEPTH; n--) {
    const b = node.chain.byNumber(n);
    if (!b) break;
    const body = b.block.body;
    if (top - n < TRANSFER_DEPTH && body.txs.length > 0 && withTransfers.length < CHOICES)
      withTransfers.push(body.txs.map((t) => t.hash));
    if (body.stateSyncs.length > 0 && withStateSyncs.length < CHOICES) withStateSyncs.push(n);
    if (withStateSyncs.length >= CHOICES && (withTransfers.length >= CHOICES || top - n >= TRANSFER_DEPTH)) break;
  }

  // (a) a transfer on the node's canonical chain.
  if (withTransfers.length > 0) {
    const txs = withTransfers[round % withTransfers.length]!;
    const h = txs[round % txs.length]!;
    ask('eth_getTransactionByHash', [h]);
    ask('eth_getTransactionReceipt', [h]);
  }
  // (b) a hash nobody sent.
  const unknown = toHex(keccak256Bytes(utf8(`rpc-probe: a transaction nobody sent, round ${round}`)));
  ask('eth_getTransactionByHash', [unknown]);
  ask('eth_getTransactionReceipt', [unknown]);
  // (c) a block with state-sync records, its receipts and logs, and its state-sync pseudo-transaction.
  if (withStateSyncs.length > 0) {
    const n = withStateSyncs[round % withStateSyncs.length]!;
    const block = ask('eth_getBlockByNumber', [quantity(n), true]);
    ask('eth_getBlockReceipts', [quantity(n)]);
    ask('eth_getLogs', [{ fromBlock: quantity(n), toBlock: quantity(n), address: STATE_RECEIVER_ADDRESS }]);
    const pseudo = lastTxHash(block) ?? stateSyncTxHash(n, node.chain.byNumber(n)!.block.hash);
    ask('eth_getTransactionByHash', [pseudo]);
    ask('eth_getTransactionReceipt', [pseudo]);
  }
  return out;
}

/** The hash of the last transaction a full block answer lists, if it lists any. */
function lastTxHash(a: Answer): Hex | null {
  if (!a.ok || typeof a.result !== 'object' || a.result === null) return null;
  const txs = (a.result as { transactions?: unknown }).transactions;
  if (!Array.isArray(txs) || txs.length === 0) return null;
  const last = txs[txs.length - 1] as { hash?: unknown } | null;
  return typeof last?.hash === 'string' ? (last.hash as Hex) : null;
}
