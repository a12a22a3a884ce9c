/**
 * The sidechain node's JSON-RPC methods as pure functions over its view (sidechain.md §4, §5;
 * service-spec "Sidechain JSON-RPC"; reference README items 1 and 31). No HTTP here: a server maps a
 * JSON-RPC request onto `callRpc(view, method, params)` and its `RpcResult` onto `result` / `error`.
 *
 * Parameters are parsed the way geth's `rpc` package parses them (positional, strict Go JSON):
 * - params omitted or null = []; anything but an array is `-32602 non-array args`;
 * - an extra argument is `too many arguments, want at most <n>`, a missing required one is
 *   `missing value for required argument <i>`, a bad one is `invalid argument <i>: <Go's error>`;
 *   optional (Go pointer) arguments may be omitted or null;
 * - block numbers are `rpc.BlockNumber`: a tag or a strict hex quantity (`hexutil.DecodeUint64`:
 *   `0x` + hex without leading zeros, at most 64 bits, and Go's int64 bound on top); a JSON number is
 *   refused as geth refuses it (`hex string without 0x prefix`);
 * - `sidechain_getRootHash` takes Go `uint64`s, i.e. JSON numbers; hex strings are accepted too
 *   (README item 31 allows it) and parsed as strictly as block numbers.
 * An unknown method is `-32601 the method <name> does not exist/is not available` (ethers matches
 * that wording); a handler error is `-32000`. Nothing here throws: a failure that should be
 * impossible becomes `-32603 method handler crashed`, as a Go panic does in geth.
 *
 * The console expressions of the spec's operator console are answered by `evalConsole`.
 */
import { JsonNumber } from '../core/jsonNumber';
import { type Address, ZERO_ADDRESS } from '../core/address';
import { type Hex, fromHex, toHex, toBareHex, utf8 } from '../core/bytes';
import { canonicalJson } from '../core/canonicalJson';
import { keccak256Bytes } from '../core/hash';
import { type SetValidator } from '../core/validatorSet';
import { type SidechainChain, type StoredBlock } from './chain';
import { type SidechainTx } from './block';
import { type SidechainHeader } from './header';
import { type Snapshot, snapshotSuccession } from './snapshot';
import { stateSyncTxHash } from './stateSync';
import { rootHashOf } from './rootHash';

// --- the view and the result --------------------------------------------------------------------

export interface RpcView {
  chain: SidechainChain;
  chainId: bigint;
  peerCount: number;
  syncing: { startingBlock: bigint; currentBlock: bigint; highestBlock: bigint } | null;
  /** The node's public key, 65-byte uncompressed `0x04…` hex, for `admin.nodeInfo` (zeros if absent). */
  nodeKey?: string;
}

export type RpcResult = { ok: true; result: unknown } | { ok: false; error: { code: number; message: string } };

/** geth's codes (sidechain.md §4.4). */
export const RPC_METHOD_NOT_FOUND = -32601;
export const RPC_INVALID_PARAMS = -32602;
export const RPC_INTERNAL_ERROR = -32603;
export const RPC_HANDLER_ERROR = -32000;

/** A handler's error; `callRpc` turns it into the error result. */
class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const handlerError = (message: string): RpcFailure => new RpcFailure(RPC_HANDLER_ERROR, message);

// --- encoding -----------------------------------------------------------------------------------

/** QUANTITY: `0x` + minimal hex, `0x0` for zero. */
export function toQuantity(n: bigint | number): string {
  return `0x${BigInt(n).toString(16)}`;
}

const lower = (h: string): string => h.toLowerCase();

/** Hash of a user transfer: keccak256 of the canonical JSON of {from, to, value, nonce}. */
export function sidechainTxHash(tx: SidechainTx): Hex {
  return toHex(keccak256Bytes(utf8(canonicalJson({ from: tx.from, to: tx.to, value: tx.value, nonce: tx.nonce }))));
}

/** Gas each user transfer uses (the producer charges 21,000 per transfer in gasUsed). */
const TRANSFER_GAS = 21_000n;

// --- parameter parsing (geth rpc + Go encoding/json) ----------------------------------------------

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };
const good = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = (message: string): Parsed<never> => ({ ok: false, message });

/** The JSON kind Go names in `json: cannot unmarshal <kind> into Go value of type …`. */
function jsonKind(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (v instanceof JsonNumber) return 'number';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}

const HEXUTIL = {
  empty: 'empty hex string',
  syntax: 'invalid hex string',
  missingPrefix: 'hex string without 0x prefix',
  oddLength: 'hex string of odd length',
  emptyNumber: 'hex string "0x"',
  leadingZero: 'hex number with leading zero digits',
  uint64Range: 'hex number > 64 bits',
} as const;

const UINT64_MAX = (1n << 64n) - 1n;
const INT64_MAX = (1n << 63n) - 1n;

function has0xPrefix(s: string): boolean {
  return s.length >= 2 && s[0] === '0' && (s[1] === 'x' || s[1] === 'X');
}

function nibble(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** `hexutil.DecodeUint64`: checkNumber, then strconv.ParseUint(raw, 16, 64) scanning left to right. */
export function decodeUint64Hex(input: string): Parsed<bigint> {
  if (input.length === 0) return bad(HEXUTIL.empty);
  if (!has0xPrefix(input)) return bad(HEXUTIL.missingPrefix);
  const raw = input.slice(2);
  if (raw.length === 0) return bad(HEXUTIL.emptyNumber);
  if (raw.length > 1 && raw[0] === '0') return bad(HEXUTIL.leadingZero);
  let n = 0n;
  for (let i = 0; i < raw.length; i++) {
    const d = nibble(raw.charCodeAt(i));
    if (d < 0) return bad(HEXUTIL.syntax);
    n = (n << 4n) | BigInt(d);
    if (n > UINT64_MAX) return bad(HEXUTIL.uint64Range);
  }
  return good(n);
}

type BlockTag = 'latest' | 'earliest' | 'pending' | 'finalized' | 'safe';
const TAGS: ReadonlySet<string> = new Set<BlockTag>(['latest', 'earliest', 'pending', 'finalized', 'safe']);

type BlockNumberArg = { tag: BlockTag } | { number: bigint };
type BlockRef = BlockNumberArg | { hash: Hex } | { none: true };

/**
 * `rpc.BlockNumber.UnmarshalJSON`: strip the quotes of a string, match a tag, else DecodeUint64 on
 * the raw text (so every non-string fails with "hex string without 0x prefix").
 */
function parseBlockNumber(v: unknown): Parsed<BlockNumberArg> {
  if (typeof v !== 'string') return bad(HEXUTIL.missingPrefix);
  if (TAGS.has(v)) return good({ tag: v as BlockTag });
  const n = decodeUint64Hex(v);
  if (!n.ok) return n;
  if (n.value > INT64_MAX) return bad('block number larger than int64');
  return good({ number: n.value });
}

/** `hexutil.UnmarshalFixedJSON` into a common.Hash. */
function parseHash(v: unknown): Parsed<Hex> {
  const typeError = (what: string) => bad(`json: cannot unmarshal ${what} into Go value of type common.Hash`);
  if (typeof v !== 'string') return typeError('non-string');
  let raw = v;
  if (raw.length > 0) {
    if (has0xPrefix(raw)) raw = raw.slice(2);
    else return typeError(HEXUTIL.missingPrefix);
    if (raw.length % 2 !== 0) return typeError(HEXUTIL.oddLength);
  }
  if (raw.length !== 64) return bad(`hex string has length ${raw.length}, want 64 for common.Hash`);
  for (let i = 0; i < raw.length; i++) if (nibble(raw.charCodeAt(i)) < 0) return typeError(HEXUTIL.syntax);
  return good(`0x${raw.toLowerCase()}` as Hex);
}

/**
 * `rpc.BlockNumberOrHash.UnmarshalJSON`: an object {blockNumber | blockHash, requireCanonical}, or
 * a string that is a tag, a 66-character hash or a hex block number.
 */
function parseBlockNumberOrHash(v: unknown): Parsed<BlockRef> {
  if (typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonNumber)) {
    const o = v as Record<string, unknown>;
    const notString = bad('json: cannot unmarshal object into Go value of type string');
    const bn = Object.hasOwn(o, 'blockNumber') && o.blockNumber !== null ? parseBlockNumber(o.blockNumber) : null;
    const bh = Object.hasOwn(o, 'blockHash') && o.blockHash !== null ? parseHash(o.blockHash) : null;
    const rc = Object.hasOwn(o, 'requireCanonical') ? o.requireCanonical : undefined;
    if ((bn && !bn.ok) || (bh && !bh.ok) || (rc !== undefined && rc !== null && typeof rc !== 'boolean'))
      return notString;
    if (bn && bh) return bad('cannot specify both BlockHash and BlockNumber, choose one or the other');
    if (bn?.ok) return good(bn.value);
    if (bh?.ok) return good({ hash: bh.value });
    return good({ none: true });
  }
  if (typeof v !== 'string') return bad(`json: cannot unmarshal ${jsonKind(v)} into Go value of type string`);
  if (TAGS.has(v)) return good({ tag: v as BlockTag });
  if (v.length === 66) {
    // common.Hash.UnmarshalText: the same checks without the JSON type wrapper.
    const h = parseHash(v);
    return h.ok
      ? good({ hash: h.value })
      : bad(h.message.replace(/^json: cannot unmarshal (.*) into Go value of type common\.Hash$/, '$1'));
  }
  const n = decodeUint64Hex(v);
  if (!n.ok) return n;
  if (n.value > INT64_MAX) return bad('blocknumber too high');
  return good({ number: n.value });
}

/** Go `bool`: null leaves it false. */
function parseBool(v: unknown): Parsed<boolean> {
  if (v === null || v === undefined) return good(false);
  if (typeof v === 'boolean') return good(v);
  return bad(`json: cannot unmarshal ${jsonKind(v)} into Go value of type bool`);
}

/** Go `uint64` from a JSON number (null leaves it 0); a hex string is accepted as a quantity too. */
function parseUint64Arg(v: unknown): Parsed<bigint> {
  if (v === null || v === undefined) return good(0n);
  if (typeof v === 'string') return decodeUint64Hex(v);
  if (typeof v === 'bigint')
    return v >= 0n && v <= UINT64_MAX
      ? good(v)
      : bad(`json: cannot unmarshal number ${v} into Go value of type uint64`);
  // `1.0`, `1e0`, `-0`: whole values, but not integer text (strconv.ParseUint refuses them).
  if (v instanceof JsonNumber) return bad(`json: cannot unmarshal number ${v.text} into Go value of type uint64`);
  if (typeof v === 'number') {
    if (Number.isInteger(v) && v >= 0 && BigInt(v) <= UINT64_MAX) return good(BigInt(v));
    return bad(`json: cannot unmarshal number ${String(v)} into Go value of type uint64`);
  }
  return bad(`json: cannot unmarshal ${jsonKind(v)} into Go value of type uint64`);
}

interface ArgSpec<T> {
  /** A Go pointer argument: may be omitted or null (→ undefined). */
  optional: boolean;
  parse(v: unknown): Parsed<T>;
}

const required = <T>(parse: (v: unknown) => Parsed<T>): ArgSpec<T> => ({ optional: false, parse });
const optional = <T>(parse: (v: unknown) => Parsed<T>): ArgSpec<T> => ({ optional: true, parse });

/** geth `parsePositionalArguments`. */
function parseArgs(params: unknown, specs: ReadonlyArray<ArgSpec<unknown>>): unknown[] {
  let raw: readonly unknown[];
  if (params === undefined || params === null) raw = [];
  else if (Array.isArray(params)) raw = params;
  else throw new RpcFailure(RPC_INVALID_PARAMS, 'non-array args');
  const out: unknown[] = [];
  for (let i = 0; i < raw.length; i++) {
    const spec = specs[i];
    if (spec === undefined)
      throw new RpcFailure(RPC_INVALID_PARAMS, `too many arguments, want at most ${specs.length}`);
    const v = raw[i];
    if (spec.optional && (v === null || v === undefined)) {
      out.push(undefined);
      continue;
    }
    const p = spec.parse(v);
    if (!p.ok) throw new RpcFailure(RPC_INVALID_PARAMS, `invalid argument ${i}: ${p.message}`);
    out.push(p.value);
  }
  for (let i = raw.length; i < specs.length; i++) {
    if (!specs[i]!.optional) throw new RpcFailure(RPC_INVALID_PARAMS, `missing value for required argument ${i}`);
    out.push(undefined);
  }
  return out;
}

// --- block resolution -----------------------------------------------------------------------------

function finalizedBlock(chain: SidechainChain): StoredBlock {
  const floor = chain.finalityFloor();
  const b = floor ? chain.get(floor.hash) : undefined;
  if (!b) throw handlerError('finalized block not found');
  return b;
}

/**
 * The block a reference names, or undefined if the node does not have it. `pending` is the head
 * (a simulated node has no pending block of its own); `finalized` and `safe` are the finality floor
 * (the last acked checkpoint's end block), an error when there is none.
 */
function resolve(chain: SidechainChain, ref: BlockRef | undefined): StoredBlock | undefined {
  if (ref === undefined) return chain.head();
  if ('none' in ref) return undefined;
  if ('hash' in ref) return chain.get(ref.hash);
  if ('number' in ref) return chain.byNumber(ref.number);
  switch (ref.tag) {
    case 'latest':
    case 'pending':
      return chain.head();
    case 'earliest':
      return chain.byNumber(0n);
    case 'finalized':
    case 'safe':
      return finalizedBlock(chain);
  }
}

const UNKNOWN_BLOCK = 'unknown block';

function mustResolve(chain: SidechainChain, ref: BlockRef | undefined): StoredBlock {
  const b = resolve(chain, ref);
  if (!b) throw handlerError(UNKNOWN_BLOCK);
  return b;
}

/** The snapshot a block's checks used (after its parent); undefined for genesis. */
function parentSnapshot(chain: SidechainChain, b: StoredBlock): Snapshot | undefined {
  if (b.block.header.number === 0n) return undefined;
  return chain.get(b.block.header.parentHash)?.snapshot;
}

/** Bor `Author`: the seal's signer. Genesis has an all-zero seal, from which nothing recovers. */
function authorOf(b: StoredBlock): Address {
  if (b.block.header.number === 0n) throw handlerError('recovery failed');
  return lower(b.block.signer) as Address;
}

// --- block objects ----------------------------------------------------------------------------------

/** RLP length of a byte string whose first byte is `first` (if any). */
function rlpStringLength(length: number, first: number | undefined): number {
  if (length === 1 && first !== undefined && first < 0x80) return 1;
  return rlpPrefixLength(length) + length;
}

function rlpPrefixLength(payload: number): number {
  if (payload <= 55) return 1;
  let lenOfLen = 0;
  for (let n = payload; n > 0; n = Math.floor(n / 256)) lenOfLen++;
  return 1 + lenOfLen;
}

const rlpListLength = (payload: number): number => rlpPrefixLength(payload) + payload;

function rlpQuantityLength(v: bigint): number {
  if (v === 0n) return 1;
  if (v < 0x80n) return 1;
  let bytes = 0;
  for (let n = v; n > 0n; n >>= 8n) bytes++;
  return rlpStringLength(bytes, undefined);
}

function rlpHexLength(h: string): number {
  const length = (h.length - 2) / 2;
  return rlpStringLength(length, length > 0 ? parseInt(h.slice(2, 4), 16) : undefined);
}

/**
 * geth's `size`: the RLP length of [header, txs, uncles]. A transfer counts as the unsigned legacy
 * transaction it stands for (nonce, gasPrice 0, gas 21000, to, value, no data, v = r = s = 0); the
 * state-sync pseudo-transaction is not in the body, as in Bor.
 */
function blockSize(header: SidechainHeader, txs: readonly SidechainTx[]): number {
  const q = rlpQuantityLength;
  let headerPayload =
    rlpHexLength(header.parentHash) +
    rlpHexLength(header.uncleHash) +
    rlpHexLength(header.coinbase) +
    rlpHexLength(header.stateRoot) +
    rlpHexLength(header.txHash) +
    rlpHexLength(header.receiptHash) +
    rlpHexLength(header.bloom) +
    q(header.difficulty) +
    q(header.number) +
    q(header.gasLimit) +
    q(header.gasUsed) +
    q(header.time) +
    rlpHexLength(header.extraData) +
    rlpHexLength(header.mixDigest) +
    rlpHexLength(header.nonce);
  if (header.baseFee !== undefined) headerPayload += q(header.baseFee);
  let txsPayload = 0;
  for (const tx of txs) {
    txsPayload += rlpListLength(
      q(tx.nonce) +
        q(0n) +
        q(TRANSFER_GAS) +
        rlpStringLength(20, undefined) +
        q(tx.value) +
        rlpStringLength(0, undefined) +
        3 * q(0n),
    );
  }
  return rlpListLength(rlpListLength(headerPayload) + rlpListLength(txsPayload) + rlpListLength(0));
}

const ZERO_ADDR = ZERO_ADDRESS as string;

/** The fields of an unsigned legacy transaction, as geth's `newRPCTransaction` writes them. */
function txObject(
  fields: { hash: string; from: string; to: string; value: bigint; nonce: bigint; gas: bigint },
  blockHash: string | null,
  blockNumber: bigint,
  index: number,
): Record<string, unknown> {
  return {
    blockHash,
    blockNumber: toQuantity(blockNumber),
    from: lower(fields.from),
    gas: toQuantity(fields.gas),
    gasPrice: '0x0',
    hash: fields.hash,
    input: '0x',
    nonce: toQuantity(fields.nonce),
    to: lower(fields.to),
    transactionIndex: toQuantity(index),
    value: toQuantity(fields.value),
    type: '0x0',
    v: '0x0',
    r: '0x0',
    s: '0x0',
  };
}

/**
 * geth's `RPCMarshalBlock` for a Bor block (§4.3) without `totalDifficulty` (Bor v2.x), with the
 * state-sync pseudo-transaction appended when the block committed state syncs (§2.8). `pending`
 * blanks hash, nonce and miner as geth does; it has no pseudo-transaction (its hash derives from
 * the block hash).
 */
export function formatBlock(stored: StoredBlock, fullTx: boolean, pending = false): Record<string, unknown> {
  const { header, hash, body } = stored.block;
  const n = header.number;
  const blockHash = pending ? null : lower(hash);
  const txs: unknown[] = body.txs.map((tx, i) => {
    const txHash = sidechainTxHash(tx);
    return fullTx
      ? txObject(
          { hash: txHash, from: tx.from, to: tx.to, value: tx.value, nonce: tx.nonce, gas: TRANSFER_GAS },
          blockHash,
          n,
          i,
        )
      : txHash;
  });
  if (!pending && body.stateSyncs.length > 0) {
    const h = stateSyncTxHash(n, hash);
    txs.push(
      fullTx
        ? txObject(
            { hash: h, from: ZERO_ADDR, to: ZERO_ADDR, value: 0n, nonce: 0n, gas: 0n },
            blockHash,
            n,
            body.txs.length,
          )
        : h,
    );
  }
  const out: Record<string, unknown> = {
    number: toQuantity(n),
    hash: blockHash,
    parentHash: lower(header.parentHash),
    nonce: pending ? null : lower(header.nonce),
    mixHash: lower(header.mixDigest),
    sha3Uncles: lower(header.uncleHash),
    logsBloom: lower(header.bloom),
    stateRoot: lower(header.stateRoot),
    miner: pending ? null : lower(header.coinbase),
    difficulty: toQuantity(header.difficulty),
    extraData: lower(header.extraData),
    gasLimit: toQuantity(header.gasLimit),
    gasUsed: toQuantity(header.gasUsed),
    timestamp: toQuantity(header.time),
    transactionsRoot: lower(header.txHash),
    receiptsRoot: lower(header.receiptHash),
  };
  if (header.baseFee !== undefined) out.baseFeePerGas = toQuantity(header.baseFee);
  out.size = toQuantity(blockSize(header, body.txs));
  out.transactions = txs;
  out.uncles = [];
  return out;
}

// --- bor-style results ------------------------------------------------------------------------------

/** Bor's `Validator` JSON: {ID, signer, power, accum}, numbers not hex. */
function validatorJson(v: SetValidator): { ID: number; signer: string; power: number; accum: number } {
  return {
    ID: Number(v.id ?? 0n),
    signer: lower(v.address),
    power: Number(v.power),
    accum: Number(v.proposerPriority),
  };
}

function snapshotJson(s: Snapshot): Record<string, unknown> {
  const recents: Record<string, string> = {};
  const entries = [...s.recents.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (const [k, a] of entries) recents[k.toString()] = lower(a);
  return {
    number: Number(s.number),
    hash: lower(s.hash),
    validatorSet: {
      validators: s.validatorSet.validators.map(validatorJson),
      proposer: validatorJson(s.validatorSet.proposer),
    },
    recents,
  };
}

const signersOf = (s: Snapshot): string[] => s.validatorSet.validators.map((v) => lower(v.address));

/** Bor `GetSnapshotProposerSequence`: difficulty per producer in the parent snapshot, and the author's. */
function proposerSequence(chain: SidechainChain, b: StoredBlock): Record<string, unknown> {
  const snap = parentSnapshot(chain, b);
  if (!snap) throw handlerError(UNKNOWN_BLOCK);
  const size = snap.validatorSet.size;
  const signers = signersOf(snap).map((a) => ({ Signer: a, Difficulty: size - snapshotSuccession(snap, a) }));
  signers.sort((x, y) => y.Difficulty - x.Difficulty);
  const author = authorOf(b);
  return { Signers: signers, Diff: signers.find((s) => s.Signer === author)?.Difficulty ?? 0, Author: author };
}

function syncingResult(s: NonNullable<RpcView['syncing']>): Record<string, string> {
  return {
    startingBlock: toQuantity(s.startingBlock),
    currentBlock: toQuantity(s.currentBlock),
    highestBlock: toQuantity(s.highestBlock),
    syncedAccounts: '0x0',
    syncedAccountBytes: '0x0',
    syncedBytecodes: '0x0',
    syncedBytecodeBytes: '0x0',
    syncedStorage: '0x0',
    syncedStorageBytes: '0x0',
    healedTrienodes: '0x0',
    healedTrienodeBytes: '0x0',
    healedBytecodes: '0x0',
    healedBytecodeBytes: '0x0',
    healingTrienodes: '0x0',
    healingBytecode: '0x0',
    txIndexFinishedBlocks: '0x0',
    txIndexRemainingBlocks: '0x0',
  };
}

// --- the method table -------------------------------------------------------------------------------

interface Method {
  args: ReadonlyArray<ArgSpec<unknown>>;
  run(view: RpcView, args: unknown[]): unknown;
}

const blockNumberArg = parseBlockNumber as (v: unknown) => Parsed<unknown>;
const hashArg = parseHash as (v: unknown) => Parsed<unknown>;
const blockNrOrHashArg = parseBlockNumberOrHash as (v: unknown) => Parsed<unknown>;
const boolArg = parseBool as (v: unknown) => Parsed<unknown>;
const uint64Arg = parseUint64Arg as (v: unknown) => Parsed<unknown>;

function rootHash(view: RpcView, [start, end]: unknown[]): string {
  const chain = view.chain;
  const r = rootHashOf(
    { headNumber: () => chain.head().block.header.number, headerByNumber: (n) => chain.byNumber(n)?.block.header },
    start as bigint,
    end as bigint,
  );
  if (!r.ok) throw handlerError(r.error.message);
  return r.value;
}

function blockByNumber(view: RpcView, [ref, fullTx]: unknown[]): unknown {
  const r = ref as BlockNumberArg;
  const b = resolve(view.chain, r);
  if (!b) return null;
  return formatBlock(b, fullTx as boolean, 'tag' in r && r.tag === 'pending');
}

const METHODS: ReadonlyMap<string, Method> = new Map<string, Method>([
  ['eth_blockNumber', { args: [], run: (v) => toQuantity(v.chain.head().block.header.number) }],
  ['eth_chainId', { args: [], run: (v) => toQuantity(v.chainId) }],
  ['net_version', { args: [], run: (v) => BigInt(v.chainId).toString(10) }],
  ['net_peerCount', { args: [], run: (v) => toQuantity(BigInt(v.peerCount)) }],
  ['net_listening', { args: [], run: () => true }],
  ['eth_syncing', { args: [], run: (v) => (v.syncing ? syncingResult(v.syncing) : false) }],
  ['eth_getBlockByNumber', { args: [required(blockNumberArg), required(boolArg)], run: blockByNumber }],
  [
    'eth_getBlockByHash',
    {
      args: [required(hashArg), required(boolArg)],
      run: (v, [hash, fullTx]) => {
        const b = v.chain.get(hash as Hex);
        return b ? formatBlock(b, fullTx as boolean) : null;
      },
    },
  ],
  [
    'eth_getTdByNumber',
    {
      args: [required(blockNumberArg)],
      run: (v, [ref]) => {
        const b = resolve(v.chain, ref as BlockNumberArg);
        return b ? { blockNumber: toQuantity(b.block.header.number), totalDifficulty: toQuantity(b.td) } : null;
      },
    },
  ],
  [
    'eth_getTdByHash',
    {
      args: [required(hashArg)],
      run: (v, [hash]) => {
        const b = v.chain.get(hash as Hex);
        return b ? { blockHash: lower(b.block.hash), totalDifficulty: toQuantity(b.td) } : null;
      },
    },
  ],
  [
    'sidechain_getSigners',
    {
      args: [optional(blockNumberArg)],
      run: (v, [ref]) => signersOf(mustResolve(v.chain, ref as BlockRef | undefined).snapshot),
    },
  ],
  [
    'sidechain_getSignersAtHash',
    { args: [required(hashArg)], run: (v, [hash]) => signersOf(mustResolve(v.chain, { hash: hash as Hex }).snapshot) },
  ],
  [
    'sidechain_getSnapshot',
    {
      args: [optional(blockNumberArg)],
      run: (v, [ref]) => snapshotJson(mustResolve(v.chain, ref as BlockRef | undefined).snapshot),
    },
  ],
  [
    'sidechain_getSnapshotAtHash',
    {
      args: [required(hashArg)],
      run: (v, [hash]) => snapshotJson(mustResolve(v.chain, { hash: hash as Hex }).snapshot),
    },
  ],
  [
    'sidechain_getAuthor',
    {
      args: [optional(blockNrOrHashArg)],
      run: (v, [ref]) => authorOf(mustResolve(v.chain, ref as BlockRef | undefined)),
    },
  ],
  [
    'sidechain_getCurrentProposer',
    { args: [], run: (v) => lower(v.chain.head().snapshot.validatorSet.proposer.address) },
  ],
  [
    'sidechain_getCurrentValidators',
    { args: [], run: (v) => v.chain.head().snapshot.validatorSet.validators.map(validatorJson) },
  ],
  [
    'sidechain_getSnapshotProposer',
    {
      args: [optional(blockNrOrHashArg)],
      run: (v, [ref]) => {
        const snap = parentSnapshot(v.chain, mustResolve(v.chain, ref as BlockRef | undefined));
        if (!snap) throw handlerError(UNKNOWN_BLOCK);
        return lower(snap.validatorSet.proposer.address);
      },
    },
  ],
  [
    'sidechain_getSnapshotProposerSequence',
    {
      args: [optional(blockNrOrHashArg)],
      run: (v, [ref]) => proposerSequence(v.chain, mustResolve(v.chain, ref as BlockRef | undefined)),
    },
  ],
  ['sidechain_getRootHash', { args: [required(uint64Arg), required(uint64Arg)], run: rootHash }],
  ['eth_getRootHash', { args: [required(uint64Arg), required(uint64Arg)], run: rootHash }],
]);

/** The methods `callRpc` answers, sorted. */
export const RPC_METHODS: readonly string[] = [...METHODS.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** Answer one JSON-RPC call. Never throws. */
export function callRpc(view: RpcView, method: string, params: unknown): RpcResult {
  try {
    const m = typeof method === 'string' ? METHODS.get(method) : undefined;
    if (!m)
      return {
        ok: false,
        error: { code: RPC_METHOD_NOT_FOUND, message: `the method ${String(method)} does not exist/is not available` },
      };
    const args = parseArgs(params, m.args);
    return { ok: true, result: m.run(view, args) };
  } catch (e) {
    if (e instanceof RpcFailure) return { ok: false, error: { code: e.code, message: e.message } };
    return { ok: false, error: { code: RPC_INTERNAL_ERROR, message: 'method handler crashed' } };
  }
}

// --- the operator console ---------------------------------------------------------------------------

export type ConsoleResult = { ok: true; value: unknown } | { ok: false; error: string };

const ENODE_HOST = '127.0.0.1';
const ENODE_PORT = 30303;

/** The 64-byte public key (without the 0x04 prefix) of `nodeKey`, zeros when absent. */
function nodePublicKey(view: RpcView): Uint8Array {
  if (view.nodeKey === undefined) return new Uint8Array(64);
  if (typeof view.nodeKey !== 'string' || !/^0x04[0-9a-fA-F]{128}$/.test(view.nodeKey)) {
    throw new ConsoleFailure('nodeKey is not a 65-byte uncompressed public key (0x04…)');
  }
  return fromHex(`0x${view.nodeKey.slice(4)}`);
}

class ConsoleFailure extends Error {}

function nodeInfo(view: RpcView): Record<string, unknown> {
  const pub = nodePublicKey(view);
  const head = view.chain.head();
  return {
    id: toBareHex(keccak256Bytes(pub)),
    name: 'sidechain/v0.1.0-lockstep',
    enode: `enode://${toBareHex(pub)}@${ENODE_HOST}:${ENODE_PORT}`,
    ip: ENODE_HOST,
    listenAddr: `[::]:${ENODE_PORT}`,
    ports: { discovery: ENODE_PORT, listener: ENODE_PORT },
    protocols: {
      eth: {
        network: Number(view.chainId),
        difficulty: Number(head.td),
        genesis: lower(view.chain.genesis.block.hash),
        head: lower(head.block.hash),
      },
    },
  };
}

/** web3.js's `eth.syncing`: false, or geth's object with the three block numbers as numbers. */
function consoleSyncing(view: RpcView): false | Record<string, unknown> {
  if (!view.syncing) return false;
  return {
    ...syncingResult(view.syncing),
    startingBlock: Number(view.syncing.startingBlock),
    currentBlock: Number(view.syncing.currentBlock),
    highestBlock: Number(view.syncing.highestBlock),
  };
}

/** JS property access on `eth.syncing` (false.highestBlock is undefined, and arithmetic gives NaN). */
function syncingField(view: RpcView, key: 'currentBlock' | 'highestBlock'): number {
  const s = consoleSyncing(view);
  return s === false ? NaN : (s[key] as number);
}

const CONSOLE: ReadonlyMap<string, (view: RpcView) => unknown> = new Map<string, (view: RpcView) => unknown>([
  ['admin . peers . length', (v) => v.peerCount],
  ['admin . nodeInfo', (v) => nodeInfo(v)],
  ['admin . nodeInfo . enode', (v) => nodeInfo(v).enode],
  ['eth . syncing', (v) => consoleSyncing(v)],
  [
    'eth . syncing . highestBlock - eth . syncing . currentBlock',
    (v) => syncingField(v, 'highestBlock') - syncingField(v, 'currentBlock'),
  ],
  [
    'eth . syncing . currentBlock * 100 / eth . syncing . highestBlock',
    (v) => (syncingField(v, 'currentBlock') * 100) / syncingField(v, 'highestBlock'),
  ],
  ['eth . blockNumber', (v) => Number(v.chain.head().block.header.number)],
  ["eth . getBlock ( 'latest' ) . number", (v) => Number(v.chain.head().block.header.number)],
]);

const SUPPORTED_CONSOLE = [
  'admin.peers.length',
  'admin.nodeInfo',
  'admin.nodeInfo.enode',
  'eth.syncing',
  'eth.syncing.highestBlock - eth.syncing.currentBlock',
  'eth.syncing.currentBlock * 100 / eth.syncing.highestBlock',
  'eth.blockNumber',
  "eth.getBlock('latest').number",
];

/** The expression's tokens (strings rewritten with single quotes, trailing `;` dropped), or why it does not lex. */
function canonicalTokens(expr: string): { ok: true; tokens: string[] } | { ok: false; error: string } {
  const tokens: string[] = [];
  let i = 0;
  while (i < expr.length) {
    const c = expr[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (/[A-Za-z_$]/.test(c)) {
      let j = i + 1;
      while (j < expr.length && /[\w$]/.test(expr[j]!)) j++;
      tokens.push(expr.slice(i, j));
      i = j;
    } else if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < expr.length && /[0-9]/.test(expr[j]!)) j++;
      tokens.push(expr.slice(i, j));
      i = j;
    } else if (c === "'" || c === '"') {
      const j = expr.indexOf(c, i + 1);
      if (j < 0) return { ok: false, error: 'SyntaxError: unterminated string' };
      const content = expr.slice(i + 1, j);
      if (/['"\\]/.test(content)) return { ok: false, error: 'unsupported string literal' };
      tokens.push(`'${content}'`);
      i = j + 1;
    } else if ('.()*/-+;,'.includes(c)) {
      tokens.push(c);
      i++;
    } else {
      return { ok: false, error: `SyntaxError: unexpected character ${JSON.stringify(c)}` };
    }
  }
  while (tokens[tokens.length - 1] === ';') tokens.pop();
  return { ok: true, tokens };
}

/**
 * The operator console's expressions (service-spec "Operator console"), with the values geth's
 * JavaScript console prints. Whitespace between tokens is free, a trailing `;` is allowed and the
 * block tag may be quoted either way. `debug.setHead` changes the chain and is not answered here.
 */
export function evalConsole(view: RpcView, expr: string): ConsoleResult {
  try {
    if (typeof expr !== 'string') return { ok: false, error: 'expected an expression string' };
    const lexed = canonicalTokens(expr);
    const shown = JSON.stringify(expr.trim().slice(0, 200));
    if (!lexed.ok) return { ok: false, error: `${lexed.error} in ${shown}` };
    const key = lexed.tokens.join(' ');
    const f = CONSOLE.get(key);
    if (f) return { ok: true, value: f(view) };
    if (key.startsWith('debug . setHead ('))
      return {
        ok: false,
        error: 'debug.setHead rewinds the chain and needs the node itself; this read-only console view does not run it',
      };
    if (key === '') return { ok: false, error: 'empty expression' };
    return { ok: false, error: `unsupported console expression ${shown}; supported: ${SUPPORTED_CONSOLE.join(', ')}` };
  } catch (e) {
    return { ok: false, error: e instanceof ConsoleFailure ? e.message : 'console evaluation failed' };
  }
}
