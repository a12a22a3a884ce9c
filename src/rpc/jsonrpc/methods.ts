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
 */
import { type Hex } from '../../core/bytes';
import { type SidechainView } from '../ports';
import { blockJson } from './blockJson';
import { authorOf, mustResolveBlock, parentSnapshot, resolveBlock, UNKNOWN_BLOCK } from './blockResolution';
import { proposerSequenceJson, signersJson, snapshotJson, validatorJson } from './borJson';
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
  parseUint64Arg,
  required,
} from './goArguments';
import { toQuantity } from './quantity';
import { JSONRPC_INTERNAL_ERROR, type RpcErrorObject, RpcFailure, handlerError, methodNotFound } from './rpcErrors';
import { syncingJson } from './syncingJson';

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
