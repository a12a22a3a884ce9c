/**
 * The sidechain node's JSON-RPC methods (sidechain.md §4, §5; service-spec "Sidechain JSON-RPC";
 * reference README items 1 and 31) as pure functions over a `SidechainView`: `callRpc(view,
 * method, params)` answers one call with a result or a geth error object. No transport here: the
 * envelope (jsonRpcEnvelope.ts) and the HTTP and WebSocket servers carry it.
 *
 * Arguments are decoded as geth decodes them (goArguments.ts). An unknown method is `-32601 the
 * method <name> does not exist/is not available` (ethers matches that wording); a handler error
 * is `-32000`. Nothing here throws: a failure that should be impossible becomes `-32603 method
 * handler crashed`, as a Go panic does in geth.
 *
 * Transactions, receipts and logs (Bor's semantics for the state-sync transaction, §2.8):
 * - `eth_getTransactionByHash`, `eth_getTransactionReceipt`: canonical transactions only (null
 *   otherwise), the state-sync one included under its derived hash;
 * - `eth_getBlockTransactionCountBy*`, `eth_getTransactionByBlock*AndIndex`: the state-sync
 *   transaction counts and sits last, as Bor's `getAllBlockTransactions` places it;
 * - `eth_getBlockReceipts` / `eth_getTransactionReceiptsByBlock`: every receipt of the block, the
 *   state-sync receipt last; `eth_getBorBlockReceipt`: that receipt alone;
 * - `eth_getLogs`: logQuery.ts.
 */
import { type Hex } from '../../core/bytes';
import { type SidechainView } from '../ports';
import { blockJson } from './blockJson';
import { authorOf, mustResolveBlock, parentSnapshot, resolveBlock, UNKNOWN_BLOCK } from './blockResolution';
import { proposerSequenceJson, signersJson, snapshotJson, validatorJson } from './borJson';
import { type FilterCriteria, parseFilterCriteria } from './filterCriteria';
import {
  type ArgSpec,
  type BlockNumberArg,
  type BlockRef,
  optional,
  parseArgs,
  parseBlockNumber,
  parseBlockNumberOrHash,
  parseBool,
  parseHash,
  parseHexUint,
  parseUint64Arg,
  required,
} from './goArguments';
import { queryLogs } from './logQuery';
import { toQuantity } from './quantity';
import { logJson, receiptJson } from './receiptJson';
import { JSONRPC_INTERNAL_ERROR, type RpcErrorObject, RpcFailure, handlerError, methodNotFound } from './rpcErrors';
import { syncingJson } from './syncingJson';
import { transactionJson } from './transactionJson';
import { type StoredBlock } from '../../sidechain/readPort';
import { ACCOUNT_METHODS } from './accountMethods';
import { TXPOOL_METHODS } from './txpoolMethods';
import { signedTxJson } from './transactionJson';

export type RpcResult = { ok: true; result: unknown } | { ok: false; error: RpcErrorObject };

interface Method {
  args: ReadonlyArray<ArgSpec<unknown>>;
  run(view: SidechainView, args: unknown[]): unknown;
}

const blockNumberArg = parseBlockNumber;
const hashArg = parseHash;

function rootHash(view: SidechainView, [start, end]: unknown[]): string {
  const r = view.chain.rootHash(start as bigint, end as bigint);
  if (!r.ok) throw handlerError(r.error);
  return r.root;
}

function blockByNumber(view: SidechainView, [ref, fullTx]: unknown[]): unknown {
  const r = ref as BlockNumberArg;
  const b = resolveBlock(view.chain, r);
  if (!b) return null;
  return blockJson(b, view.chain.activity(b), fullTx as boolean, 'tag' in r && r.tag === 'pending');
}

function txCount(view: SidechainView, b: StoredBlock | undefined): string | null {
  return b ? toQuantity(view.chain.activity(b).txs.length) : null;
}

/** `newRPCTransactionFromBlockIndex`: the index-th transaction, the state-sync one last; null past the end. */
function txAtIndex(view: SidechainView, b: StoredBlock | undefined, index: bigint): unknown {
  const txs = b ? view.chain.activity(b).txs : [];
  const entry = index < BigInt(txs.length) ? txs[Number(index)] : undefined;
  if (!b || !entry) return null;
  return transactionJson(entry, { blockHash: b.block.hash, blockNumber: b.block.header.number, ...baseFeeOf(b) });
}

const baseFeeOf = (b: StoredBlock): { baseFee?: bigint } =>
  b.block.header.baseFee === undefined ? {} : { baseFee: b.block.header.baseFee };

/** geth: a canonical transaction with its block, else a pending one of the pool (no block), else null. */
function transactionByHash(view: SidechainView, hash: Hex): unknown {
  const at = view.chain.transaction(hash);
  if (at)
    return transactionJson(at.entry, {
      blockHash: at.block.block.hash,
      blockNumber: at.block.block.header.number,
      ...baseFeeOf(at.block),
    });
  const pending = view.pool?.transaction(hash);
  return pending ? signedTxJson(pending, { blockHash: null, blockNumber: null, transactionIndex: null }) : null;
}

/** geth's `eth_getBlockReceipts`: null for an unknown block. */
function blockReceipts(view: SidechainView, [ref]: unknown[]): unknown {
  const b = resolveBlock(view.chain, ref as BlockRef);
  return b ? view.chain.activity(b).receipts.map(receiptJson) : null;
}

/** Bor's `eth_getTransactionReceiptsByBlock`: an unknown block is an error. */
function receiptsByBlock(view: SidechainView, [ref]: unknown[]): unknown {
  const b = resolveBlock(view.chain, ref as BlockRef);
  if (!b) throw handlerError('block not found');
  return view.chain.activity(b).receipts.map(receiptJson);
}

const METHODS: ReadonlyMap<string, Method> = new Map<string, Method>([
  ['eth_blockNumber', { args: [], run: (v) => toQuantity(v.chain.head().block.header.number) }],
  ['eth_chainId', { args: [], run: (v) => toQuantity(v.chainId) }],
  ['net_version', { args: [], run: (v) => BigInt(v.chainId).toString(10) }],
  ['net_peerCount', { args: [], run: (v) => toQuantity(BigInt(v.peerCount)) }],
  ['net_listening', { args: [], run: () => true }],
  ['eth_syncing', { args: [], run: (v) => (v.syncing ? syncingJson(v.syncing) : false) }],
  ['eth_getBlockByNumber', { args: [required(blockNumberArg), required(parseBool)], run: blockByNumber }],
  [
    'eth_getBlockByHash',
    {
      args: [required(hashArg), required(parseBool)],
      run: (v, [hash, fullTx]) => {
        const b = v.chain.byHash(hash as Hex);
        return b ? blockJson(b, v.chain.activity(b), fullTx as boolean) : null;
      },
    },
  ],
  [
    'eth_getBlockTransactionCountByNumber',
    { args: [required(blockNumberArg)], run: (v, [ref]) => txCount(v, resolveBlock(v.chain, ref as BlockRef)) },
  ],
  [
    'eth_getBlockTransactionCountByHash',
    { args: [required(hashArg)], run: (v, [hash]) => txCount(v, v.chain.byHash(hash as Hex)) },
  ],
  [
    'eth_getTransactionByBlockNumberAndIndex',
    {
      args: [required(blockNumberArg), required(parseHexUint)],
      run: (v, [ref, index]) => txAtIndex(v, resolveBlock(v.chain, ref as BlockRef), index as bigint),
    },
  ],
  [
    'eth_getTransactionByBlockHashAndIndex',
    {
      args: [required(hashArg), required(parseHexUint)],
      run: (v, [hash, index]) => txAtIndex(v, v.chain.byHash(hash as Hex), index as bigint),
    },
  ],
  [
    'eth_getTransactionByHash',
    {
      args: [required(hashArg)],
      run: (v, [hash]) => transactionByHash(v, hash as Hex),
    },
  ],
  [
    'eth_getTransactionReceipt',
    {
      args: [required(hashArg)],
      run: (v, [hash]) => {
        const r = v.chain.receipt(hash as Hex);
        return r ? receiptJson(r) : null;
      },
    },
  ],
  ['eth_getBlockReceipts', { args: [required(parseBlockNumberOrHash)], run: blockReceipts }],
  ['eth_getTransactionReceiptsByBlock', { args: [required(parseBlockNumberOrHash)], run: receiptsByBlock }],
  [
    'eth_getBorBlockReceipt',
    {
      args: [required(hashArg)],
      run: (v, [hash]) => {
        const b = v.chain.byHash(hash as Hex);
        const r = b ? v.chain.activity(b).receipts.find((x) => x.kind === 'stateSync') : undefined;
        if (!r) throw handlerError('not found');
        return receiptJson(r);
      },
    },
  ],
  [
    'eth_getLogs',
    {
      args: [required(parseFilterCriteria)],
      run: (v, [criteria]) => queryLogs(v.chain, criteria as FilterCriteria).map((l) => logJson(l)),
    },
  ],
  [
    'eth_getTdByNumber',
    {
      args: [required(blockNumberArg)],
      run: (v, [ref]) => {
        const b = resolveBlock(v.chain, ref as BlockNumberArg);
        return b ? { blockNumber: toQuantity(b.block.header.number), totalDifficulty: toQuantity(b.td) } : null;
      },
    },
  ],
  [
    'eth_getTdByHash',
    {
      args: [required(hashArg)],
      run: (v, [hash]) => {
        const b = v.chain.byHash(hash as Hex);
        return b ? { blockHash: b.block.hash.toLowerCase(), totalDifficulty: toQuantity(b.td) } : null;
      },
    },
  ],
  [
    'sidechain_getSigners',
    {
      args: [optional(blockNumberArg)],
      run: (v, [ref]) => signersJson(mustResolveBlock(v.chain, ref as BlockRef | undefined).snapshot),
    },
  ],
  [
    'sidechain_getSignersAtHash',
    {
      args: [required(hashArg)],
      run: (v, [hash]) => signersJson(mustResolveBlock(v.chain, { hash: hash as Hex }).snapshot),
    },
  ],
  [
    'sidechain_getSnapshot',
    {
      args: [optional(blockNumberArg)],
      run: (v, [ref]) => snapshotJson(mustResolveBlock(v.chain, ref as BlockRef | undefined).snapshot),
    },
  ],
  [
    'sidechain_getSnapshotAtHash',
    {
      args: [required(hashArg)],
      run: (v, [hash]) => snapshotJson(mustResolveBlock(v.chain, { hash: hash as Hex }).snapshot),
    },
  ],
  [
    'sidechain_getAuthor',
    {
      args: [optional(parseBlockNumberOrHash)],
      run: (v, [ref]) => authorOf(mustResolveBlock(v.chain, ref as BlockRef | undefined)),
    },
  ],
  [
    'sidechain_getCurrentProposer',
    { args: [], run: (v) => v.chain.head().snapshot.validatorSet.proposer.address.toLowerCase() },
  ],
  [
    'sidechain_getCurrentValidators',
    { args: [], run: (v) => v.chain.head().snapshot.validatorSet.validators.map(validatorJson) },
  ],
  [
    'sidechain_getSnapshotProposer',
    {
      args: [optional(parseBlockNumberOrHash)],
      run: (v, [ref]) => {
        const snap = parentSnapshot(v.chain, mustResolveBlock(v.chain, ref as BlockRef | undefined));
        if (!snap) throw handlerError(UNKNOWN_BLOCK);
        return snap.validatorSet.proposer.address.toLowerCase();
      },
    },
  ],
  [
    'sidechain_getSnapshotProposerSequence',
    {
      args: [optional(parseBlockNumberOrHash)],
      run: (v, [ref]) => {
        const b = mustResolveBlock(v.chain, ref as BlockRef | undefined);
        const snap = parentSnapshot(v.chain, b);
        if (!snap) throw handlerError(UNKNOWN_BLOCK);
        return proposerSequenceJson(snap, authorOf(b));
      },
    },
  ],
  ['sidechain_getRootHash', { args: [required(parseUint64Arg), required(parseUint64Arg)], run: rootHash }],
  ['eth_getRootHash', { args: [required(parseUint64Arg), required(parseUint64Arg)], run: rootHash }],
  ...ACCOUNT_METHODS,
  ...TXPOOL_METHODS,
]);

/** The methods `callRpc` answers, sorted. */
export const RPC_METHODS: readonly string[] = [...METHODS.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** Answer one JSON-RPC call. Never throws. */
export function callRpc(view: SidechainView, method: string, params: unknown): RpcResult {
  try {
    const m = typeof method === 'string' ? METHODS.get(method) : undefined;
    if (!m) return { ok: false, error: methodNotFound(String(method)) };
    const args = parseArgs(params, m.args);
    return { ok: true, result: m.run(view, args) };
  } catch (e) {
    if (e instanceof RpcFailure) return { ok: false, error: { code: e.code, message: e.message } };
    return { ok: false, error: { code: JSONRPC_INTERNAL_ERROR, message: 'method handler crashed' } };
  }
}
