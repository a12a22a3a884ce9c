/**
 * geth's `txpool` namespace (`internal/ethapi` TxPoolAPI) over the node's pool view: what is
 * pending (executable now) and what is queued (waiting behind a nonce gap).
 *
 * - `txpool_status`: `{pending, queued}` as quantities;
 * - `txpool_content`: `{pending: {ADDRESS: {NONCE: tx}}, queued: …}`, the address checksummed
 *   (EIP-55, geth's `Address.Hex()`), the nonce in decimal, each transaction as
 *   `eth_getTransactionByHash` shows a pending one (no block; an EIP-1559 one's gasPrice is its
 *   fee cap);
 * - `txpool_contentFrom(address)`: `{pending: {NONCE: tx}, queued: …}` of one sender;
 * - `txpool_inspect`: the same shape as content, each transaction summed up as geth prints it:
 *   `TO: VALUE wei + GAS gas × PRICE wei` (PRICE: the gas price, or an EIP-1559 fee cap).
 * A view without a pool shows an empty one.
 */
import { getAddress } from 'ethers';
import { type SignedTx } from '../../sidechain/transaction';
import { type PoolContent } from '../../sidechain/txPool';
import { type SidechainView } from '../ports';
import { parseAddressArg } from './callArgs';
import { type ArgSpec, required } from './goArguments';
import { toQuantity } from './quantity';
import { signedTxJson } from './transactionJson';

interface Method {
  args: ReadonlyArray<ArgSpec<unknown>>;
  run(view: SidechainView, args: unknown[]): unknown;
}

const EMPTY: PoolContent = { pending: [], queued: [] };
const contentOf = (v: SidechainView): PoolContent => v.pool?.content?.() ?? EMPTY;

const pendingJson = (tx: SignedTx) => signedTxJson(tx, { blockHash: null, blockNumber: null, transactionIndex: null });

/** geth's `txpool_inspect` line. */
export function inspectLine(tx: SignedTx): string {
  return `${getAddress(tx.to)}: ${tx.value} wei + ${tx.gasLimit} gas × ${tx.maxFeePerGas} wei`;
}

/** Transactions by checksummed sender, then decimal nonce. */
function bySender<T>(txs: readonly SignedTx[], show: (tx: SignedTx) => T): Record<string, Record<string, T>> {
  const out: Record<string, Record<string, T>> = {};
  for (const tx of txs) {
    const sender = getAddress(tx.from);
    out[sender] = { ...out[sender], [tx.nonce.toString(10)]: show(tx) };
  }
  return out;
}

function byNonce(txs: readonly SignedTx[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const tx of txs) out[tx.nonce.toString(10)] = pendingJson(tx);
  return out;
}

export const TXPOOL_METHODS: ReadonlyArray<[string, Method]> = [
  [
    'txpool_status',
    {
      args: [],
      run: (v) => {
        const c = contentOf(v);
        return { pending: toQuantity(c.pending.length), queued: toQuantity(c.queued.length) };
      },
    },
  ],
  [
    'txpool_content',
    {
      args: [],
      run: (v) => {
        const c = contentOf(v);
        return { pending: bySender(c.pending, pendingJson), queued: bySender(c.queued, pendingJson) };
      },
    },
  ],
  [
    'txpool_contentFrom',
    {
      args: [required(parseAddressArg)],
      run: (v, [address]) => {
        const c = contentOf(v);
        const mine = (txs: readonly SignedTx[]) => txs.filter((t) => t.from === address);
        return { pending: byNonce(mine(c.pending)), queued: byNonce(mine(c.queued)) };
      },
    },
  ],
  [
    'txpool_inspect',
    {
      args: [],
      run: (v) => {
        const c = contentOf(v);
        return { pending: bySender(c.pending, inspectLine), queued: bySender(c.queued, inspectLine) };
      },
    },
  ],
];
