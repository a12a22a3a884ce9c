/**
 * `eth_sendRawTransaction(bytes)`: the one method that writes. The node's port decides (a devnet
 * journals the transaction and answers its hash, or geth's error: `nonce too low`, `insufficient
 * funds for gas * price + value`, `already known`, …, code -32000, which ethers and viem map to
 * their own error kinds). A view without a port to send to does not have the method.
 */
import { type SidechainView } from '../ports';
import { type Parsed, bad, decodeHexBytes, parseArgs, required } from './goArguments';
import { type RpcResult } from './methods';
import { JSONRPC_INTERNAL_ERROR, JSONRPC_SERVER_ERROR, RpcFailure, methodNotFound } from './rpcErrors';

export const SEND_RAW_TRANSACTION = 'eth_sendRawTransaction';

/** `hexutil.Bytes`. */
function parseBytes(v: unknown): Parsed<`0x${string}`> {
  if (typeof v !== 'string') return bad('json: cannot unmarshal non-string into Go value of type hexutil.Bytes');
  const d = decodeHexBytes(v);
  return d.ok ? d : bad(`json: cannot unmarshal ${d.message} into Go value of type hexutil.Bytes`);
}

export async function sendRawTransaction(view: SidechainView, params: unknown): Promise<RpcResult> {
  try {
    if (!view.submit) return { ok: false, error: methodNotFound(SEND_RAW_TRANSACTION) };
    const [raw] = parseArgs(params, [required(parseBytes)]) as [`0x${string}`];
    const r = await view.submit(raw);
    return r.ok ? { ok: true, result: r.hash } : { ok: false, error: { code: JSONRPC_SERVER_ERROR, message: r.error } };
  } catch (e) {
    if (e instanceof RpcFailure) return { ok: false, error: { code: e.code, message: e.message } };
    return { ok: false, error: { code: JSONRPC_INTERNAL_ERROR, message: 'method handler crashed' } };
  }
}
