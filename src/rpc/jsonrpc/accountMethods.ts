/**
 * The methods a wallet calls before and after it signs (geth `internal/ethapi`, sidechain.md §5
 * item 8): the account state at a block, fees, estimates, and the pending transactions of the
 * node's pool. Pure functions over a `SidechainView`, merged into `callRpc`'s table (methods.ts).
 *
 * - `eth_getBalance`, `eth_getTransactionCount` (`pending`: the pool's next nonce), `eth_getCode`
 *   and `eth_getStorageAt` (no account has code: `0x` and zero words), at any block the node has;
 * - `eth_gasPrice` (the head's base fee plus the suggested tip), `eth_maxPriorityFeePerGas`,
 *   `eth_feeHistory` (base fees, gas used ratios and tip percentiles of recent blocks);
 * - `eth_estimateGas`: 21,000 for a transfer that fits under the call's gas and what its fee cap
 *   lets the balance pay, geth's error otherwise (gasEstimate.ts); `eth_call`: `0x`, what a call
 *   to an account without code returns. Data, or a call without a recipient, is refused: there is no
 *   EVM to run it;
 * - `eth_getRawTransactionByHash`, and the pool's side of `eth_getTransactionByHash` (methods.ts).
 * An unknown block is geth's `header not found`.
 */
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { accountOf } from '../../sidechain/accounts';
import { SUGGESTED_TIP, nextBaseFee } from '../../sidechain/baseFee';
import { type StoredBlock } from '../../sidechain/readPort';
import { effectiveGasPrice } from '../../sidechain/transaction';
import { type SidechainView } from '../ports';
import { resolveBlock } from './blockResolution';
import {
  type ArgSpec,
  type BlockNumberArg,
  type BlockRef,
  type Parsed,
  bad,
  good,
  jsonKind,
  optional,
  parseBlockNumber,
  parseBlockNumberOrHash,
  parseHash,
  required,
} from './goArguments';
import { toQuantity } from './quantity';
import { handlerError } from './rpcErrors';
import { estimateTransferGas } from './gasEstimate';
import { type CallArgs, decodeBigHex, parseAddressArg, parseCallArgs } from './callArgs';

interface Method {
  args: ReadonlyArray<ArgSpec<unknown>>;
  run(view: SidechainView, args: unknown[]): unknown;
}

/** The block an account read names (latest by default); geth's error when the node does not have it. */
function stateAt(view: SidechainView, ref: BlockRef | undefined): StoredBlock {
  const b = resolveBlock(view.chain, ref ?? { tag: 'latest' });
  if (!b) throw handlerError('header not found');
  return b;
}

function refuseCode(args: CallArgs, what: string): void {
  if (args.to === undefined || args.to === null)
    throw handlerError(
      `contract creation is not supported: the sidechain runs no EVM (${what} of value transfers only)`,
    );
  if (args.data !== undefined && args.data !== '0x')
    throw handlerError(`contract calls are not supported: the sidechain runs no EVM (${what} of value transfers only)`);
}

/** geth's `eth_feeHistory` limits: blocks (`maxFeeHistory`) and reward percentiles (`maxQueryLimit`). */
const MAX_FEE_HISTORY = 1024n;
const MAX_PERCENTILES = 100;

/** Go's `%f`: six decimals, and never an exponent. */
function goFixed(p: number): string {
  if (Math.abs(p) < 1e21) return p.toFixed(6);
  return `${BigInt(p)}.000000`;
}

/**
 * geth's `Oracle.FeeHistory`, in its order: no blocks asked is an empty answer; then the
 * percentiles (at most 100, each in [0, 100], strictly increasing: `invalid reward percentile`);
 * then the range (a newest block past the head: `request beyond head block: requested N, head H`),
 * cut to 1,024 blocks and to genesis. `reward` only when percentiles were asked.
 */
function feeHistory(view: SidechainView, [countArg, newestRef, percentiles]: unknown[]): unknown {
  let count = countArg as bigint;
  // geth's result struct: gasUsedRatio has no omitempty, so it is null with nothing to show.
  if (count < 1n) return { oldestBlock: '0x0', gasUsedRatio: null };
  const ps = (percentiles as number[] | undefined) ?? [];
  if (ps.length > MAX_PERCENTILES)
    throw handlerError(`invalid reward percentile: over the query limit ${MAX_PERCENTILES}`);
  if (count > MAX_FEE_HISTORY) count = MAX_FEE_HISTORY;
  for (let i = 0; i < ps.length; i++) {
    if (ps[i]! < 0 || ps[i]! > 100) throw handlerError(`invalid reward percentile: ${goFixed(ps[i]!)}`);
    if (i > 0 && ps[i]! <= ps[i - 1]!)
      throw handlerError(`invalid reward percentile: #${i - 1}:${goFixed(ps[i - 1]!)} >= #${i}:${goFixed(ps[i]!)}`);
  }
  const ref = newestRef as BlockNumberArg;
  const head = view.chain.head().block.header.number;
  if ('number' in ref && ref.number > head)
    throw handlerError(`request beyond head block: requested ${ref.number}, head ${head}`);
  const newest = stateAt(view, ref);
  const last = newest.block.header.number;
  if (count > last + 1n) count = last + 1n;
  const oldest = last - count + 1n;
  const baseFeePerGas: string[] = [];
  const gasUsedRatio: number[] = [];
  const reward: string[][] = [];
  for (let n = oldest; n <= last; n++) {
    const b = view.chain.byNumber(n);
    if (!b) throw handlerError('header not found');
    const h = b.block.header;
    const baseFee = h.baseFee ?? 0n;
    baseFeePerGas.push(toQuantity(baseFee));
    gasUsedRatio.push(h.gasLimit === 0n ? 0 : Number(h.gasUsed) / Number(h.gasLimit));
    // geth sorts the block's transactions by tip and weights each by its gas: every transfer uses
    // the same gas, so the p-th percentile is the tip of the transaction at that rank.
    const tips = b.block.body.txs
      .map((t) => (effectiveGasPrice(t, baseFee) ?? baseFee) - baseFee)
      .sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    reward.push(
      ps.map((p) => {
        if (tips.length === 0) return '0x0';
        const i = Math.min(tips.length - 1, Math.max(0, Math.ceil((p / 100) * tips.length) - 1));
        return toQuantity(tips[i]!);
      }),
    );
  }
  baseFeePerGas.push(toQuantity(nextBaseFee(newest.block.header)));
  return {
    oldestBlock: toQuantity(oldest),
    baseFeePerGas,
    gasUsedRatio,
    ...(ps.length > 0 ? { reward } : {}),
  };
}

/** `math.HexOrDecimal64`: a JSON number, or a hex or decimal string. */
function parseBlockCount(v: unknown): Parsed<bigint> {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return good(BigInt(v));
  if (typeof v === 'string' && /^0[xX][0-9a-fA-F]+$/.test(v)) return good(BigInt(v));
  if (typeof v === 'string' && /^\d+$/.test(v)) return good(BigInt(v));
  return bad(`json: cannot unmarshal ${jsonKind(v)} into Go value of type math.HexOrDecimal64`);
}

/** `[]float64`: only the type here; geth checks the values in the handler (-32000, feeHistory above). */
function parsePercentiles(v: unknown): Parsed<number[]> {
  if (!Array.isArray(v) || v.some((p) => typeof p !== 'number'))
    return bad('json: cannot unmarshal into Go value of type []float64');
  return good(v as number[]);
}

export const ACCOUNT_METHODS: ReadonlyArray<[string, Method]> = [
  [
    'eth_getBalance',
    {
      args: [required(parseAddressArg), required(parseBlockNumberOrHash)],
      run: (v, [address, ref]) =>
        toQuantity(accountOf(stateAt(v, ref as BlockRef).accounts, address as Address).balance),
    },
  ],
  [
    'eth_getTransactionCount',
    {
      args: [required(parseAddressArg), required(parseBlockNumberOrHash)],
      run: (v, [address, ref]) => {
        const r = ref as BlockRef;
        if ('tag' in r && r.tag === 'pending' && v.pool) return toQuantity(v.pool.pendingNonce(address as Address));
        return toQuantity(accountOf(stateAt(v, r).accounts, address as Address).nonce);
      },
    },
  ],
  [
    'eth_getCode',
    {
      args: [required(parseAddressArg), required(parseBlockNumberOrHash)],
      run: (v, [, ref]) => {
        stateAt(v, ref as BlockRef);
        return '0x';
      },
    },
  ],
  [
    'eth_getStorageAt',
    {
      args: [
        required(parseAddressArg),
        required((x) => decodeBigHex(x, 'common.Hash')),
        required(parseBlockNumberOrHash),
      ],
      run: (v, [, , ref]) => {
        stateAt(v, ref as BlockRef);
        return `0x${'00'.repeat(32)}`;
      },
    },
  ],
  ['eth_gasPrice', { args: [], run: (v) => toQuantity((v.chain.head().block.header.baseFee ?? 0n) + SUGGESTED_TIP) }],
  ['eth_maxPriorityFeePerGas', { args: [], run: () => toQuantity(SUGGESTED_TIP) }],
  [
    'eth_feeHistory',
    {
      args: [required(parseBlockCount), required(parseBlockNumber), optional(parsePercentiles)],
      run: feeHistory,
    },
  ],
  [
    'eth_estimateGas',
    {
      args: [required(parseCallArgs), optional(parseBlockNumberOrHash)],
      run: (v, [callArgs, ref]) => {
        const a = callArgs as CallArgs;
        refuseCode(a, 'estimates');
        const b = stateAt(v, ref as BlockRef | undefined);
        return toQuantity(estimateTransferGas(a, b.accounts, b.block.header.gasLimit));
      },
    },
  ],
  [
    'eth_call',
    {
      args: [required(parseCallArgs), optional(parseBlockNumberOrHash)],
      run: (v, [callArgs, ref]) => {
        const a = callArgs as CallArgs;
        if (a.to === undefined || a.to === null) refuseCode(a, 'calls');
        stateAt(v, ref as BlockRef | undefined);
        // A call to an account without code runs nothing and returns nothing.
        return '0x';
      },
    },
  ],
  [
    'eth_getRawTransactionByHash',
    {
      args: [required(parseHash)],
      run: (v, [hash]) => {
        const at = v.chain.transaction(hash as Hex);
        if (at) return at.entry.kind === 'transfer' ? at.entry.tx.raw : null;
        return v.pool?.transaction(hash as Hex)?.raw ?? null;
      },
    },
  ],
];
