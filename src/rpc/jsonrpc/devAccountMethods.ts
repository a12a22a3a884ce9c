/**
 * A devnet's unlocked dev accounts, as anvil and hardhat offer theirs (scripts written for them
 * rely on it: hardhat-ethers `getSigners()`, `cast send --unlocked`, viem's JSON-RPC accounts):
 *
 * - `eth_accounts`: the dev accounts the banner lists (checksummed, in its order), then the
 *   impersonated ones;
 * - `eth_sendTransaction(tx)`: fills what the call leaves out as geth does (`from`: the first dev
 *   account, as anvil; the pending nonce; 21,000 gas; EIP-1559 fees of the suggested tip and twice
 *   the head's base fee on top, or a legacy transfer when `gasPrice` or type 0 is given), signs it
 *   with the dev account's key (or, for an impersonated account, sends it unsigned:
 *   transaction.ts) and sends it as `eth_sendRawTransaction` does: the hash, or the pool's error;
 * - `eth_sign(address, data)` and `personal_sign(data, address)`: EIP-191 signatures of the bytes;
 *   `eth_signTypedData_v4(address, typedData)`: EIP-712 (ethers' TypedDataEncoder), the typed
 *   data as an object or JSON text; each a 65-byte signature with v = 27 or 28;
 * - `anvil_impersonateAccount(address)` / `anvil_stopImpersonatingAccount(address)` (null) and
 *   the hardhat names (true): eth_sendTransaction may then send for the address without its key.
 *   An impersonated account cannot sign messages.
 *
 * An account the devnet holds no key for and does not impersonate is anvil's `-32602 No Signer
 * available`; a malformed argument is -32602 with what is wrong; a refused transfer is -32000.
 */
import { SigningKey, TypedDataEncoder, Wallet, getAddress, getBytes } from 'ethers';
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { SUGGESTED_TIP } from '../../sidechain/baseFee';
import {
  TRANSFER_GAS,
  TX_ERRORS,
  type TransferFields,
  impersonatedTransfer,
  signTransfer,
} from '../../sidechain/transaction';
import { realScheme } from '../../core/signatureScheme';
import { type SidechainView } from '../ports';
import { type CallArgs, parseAddressArg, parseCallArgs } from './callArgs';
import { decodeHexBytes } from './goArguments';
import { type RpcResult } from './methods';
import { JSONRPC_INVALID_PARAMS, JSONRPC_SERVER_ERROR, type RpcErrorObject } from './rpcErrors';

/** What the devnet gives these methods: the dev accounts' keys and the impersonated accounts. */
export interface DevAccounts {
  /** The dev accounts and their private keys, in the banner's order. */
  readonly keys: ReadonlyMap<Address, Hex>;
  /** The accounts eth_sendTransaction may send for without a key (shared with the submit path). */
  readonly impersonated: Set<Address>;
}

export const NO_SIGNER = 'No Signer available';

type Handler = (params: unknown) => Promise<RpcResult>;

class ArgError extends Error {}
class SendError extends Error {}

const invalid = (message: string): never => {
  throw new ArgError(message);
};

function list(params: unknown, min: number, max: number, method: string): unknown[] {
  const a = params === undefined || params === null ? [] : params;
  if (!Array.isArray(a)) return invalid('non-array args');
  if (a.length < min) return invalid(`missing value for required argument ${a.length}`);
  if (a.length > max) return invalid(`too many arguments, want at most ${max} (${method})`);
  return a;
}

function address(v: unknown, i: number): Address {
  const p = parseAddressArg(v);
  return p.ok ? p.value : invalid(`invalid argument ${i}: ${p.message}`);
}

function bytes(v: unknown, i: number): Uint8Array {
  if (typeof v !== 'string')
    return invalid(`invalid argument ${i}: json: cannot unmarshal non-string into Go value of type hexutil.Bytes`);
  const d = decodeHexBytes(v);
  return d.ok
    ? getBytes(d.value)
    : invalid(`invalid argument ${i}: json: cannot unmarshal ${d.message} into Go value of type hexutil.Bytes`);
}

/** The EIP-712 digest of `typedData` (an object or its JSON text), over the types its primary type reaches. */
export function typedDataDigest(typedData: unknown): string {
  let o: unknown = typedData;
  if (typeof o === 'string') {
    try {
      o = JSON.parse(o);
    } catch {
      return invalid('invalid argument 1: typed data is not JSON');
    }
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o))
    return invalid('invalid argument 1: expected typed data');
  const { types, primaryType, domain, message } = o as Record<string, unknown>;
  if (typeof types !== 'object' || types === null || typeof primaryType !== 'string' || typeof message !== 'object')
    return invalid('invalid argument 1: typed data needs types, primaryType, domain and message');
  const all = types as Record<string, Array<{ name: string; type: string }>>;
  // ethers derives the primary type itself and refuses types nothing uses: give it what the primary type reaches.
  const reached = new Set<string>();
  const visit = (t: string) => {
    const base = t.replace(/(\[\d*\])+$/, '');
    if (!Array.isArray(all[base]) || reached.has(base)) return;
    reached.add(base);
    for (const f of all[base]) visit(f.type);
  };
  visit(primaryType);
  if (!reached.has(primaryType)) return invalid(`invalid argument 1: no type ${primaryType} in types`);
  const used = Object.fromEntries([...reached].filter((n) => n !== 'EIP712Domain').map((n) => [n, all[n]!]));
  try {
    return TypedDataEncoder.hash((domain ?? {}) as Record<string, unknown>, used, message as Record<string, unknown>);
  } catch (e) {
    return invalid(`invalid argument 1: ${(e as { shortMessage?: string }).shortMessage ?? (e as Error).message}`);
  }
}

/** Either a number (hexutil.Big) in the call object or nothing. */
function quantityField(o: Record<string, unknown>, k: string): bigint | undefined {
  const v = o[k];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string' && /^0x[0-9a-fA-F]+$/.test(v)) return BigInt(v);
  return invalid(
    `invalid argument 0: json: cannot unmarshal ${JSON.stringify(v)} into Go struct field TransactionArgs.${k}`,
  );
}

/** The transfer eth_sendTransaction sends: the call's fields, with geth's defaults for the rest. */
function transferFields(
  a: CallArgs,
  extra: Record<string, unknown>,
  from: Address,
  view: SidechainView,
): TransferFields {
  if (a.to === undefined || a.to === null)
    throw new SendError('contract creation is not supported: the sidechain runs no EVM (value transfers only)');
  if (a.data !== undefined && a.data !== '0x')
    throw new SendError('contract calls are not supported: the sidechain runs no EVM (value transfers only)');
  const chainId = quantityField(extra, 'chainId');
  if (chainId !== undefined && chainId !== view.chainId)
    throw new SendError(`chainId does not match node's (have=${chainId}, want=${view.chainId})`);
  const type = quantityField(extra, 'type');
  const headBaseFee = view.chain.head().block.header.baseFee ?? 0n;
  const common = {
    chainId: view.chainId,
    nonce: a.nonce ?? view.pool?.pendingNonce(from) ?? 0n,
    to: a.to,
    value: a.value ?? 0n,
    gasLimit: a.gas ?? TRANSFER_GAS,
  };
  if (a.gasPrice !== undefined && (a.maxFeePerGas !== undefined || a.maxPriorityFeePerGas !== undefined))
    throw new SendError('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
  if (a.gasPrice !== undefined || type === 0n)
    return { ...common, type: 0, maxFeePerGas: a.gasPrice ?? headBaseFee + SUGGESTED_TIP };
  if (type !== undefined && type !== 2n) throw new SendError('transaction type not supported');
  const tip = a.maxPriorityFeePerGas ?? SUGGESTED_TIP;
  const maxFeePerGas = a.maxFeePerGas ?? tip + 2n * headBaseFee;
  if (tip > maxFeePerGas) throw new SendError(TX_ERRORS.tipAboveFeeCap);
  return { ...common, type: 2, maxPriorityFeePerGas: tip, maxFeePerGas };
}

/** The dev-account methods for requests to one node (`view` reads that node). */
export function devAccountMethods(dev: DevAccounts, view: () => SidechainView): (name: string) => Handler | undefined {
  const keyOf = (a: Address): Hex => dev.keys.get(a) ?? invalid(NO_SIGNER);
  const signMessage = (a: Address, data: Uint8Array) => new Wallet(keyOf(a)).signMessageSync(data);
  const table: Record<string, (params: unknown) => Promise<unknown> | unknown> = {
    eth_accounts: (p) => {
      list(p, 0, 0, 'eth_accounts');
      const all = [...dev.keys.keys(), ...[...dev.impersonated].filter((a) => !dev.keys.has(a))];
      return all.map((a) => getAddress(a));
    },
    eth_sendTransaction: async (p) => {
      const [arg] = list(p, 1, 1, 'eth_sendTransaction');
      const parsed = parseCallArgs(arg);
      if (!parsed.ok) return invalid(`invalid argument 0: ${parsed.message}`);
      const a = parsed.value;
      const from = a.from ?? [...dev.keys.keys()][0] ?? invalid(NO_SIGNER);
      const key = dev.keys.get(from);
      if (key === undefined && !dev.impersonated.has(from)) return invalid(NO_SIGNER);
      const v = view();
      if (!v.submit) throw new SendError('this node cannot be sent to');
      const fields = transferFields(a, arg as Record<string, unknown>, from, v);
      const tx = key !== undefined ? signTransfer(fields, key, realScheme) : impersonatedTransfer(fields, from);
      const r = await v.submit(tx.raw);
      if (!r.ok) throw new SendError(r.error);
      return r.hash;
    },
    eth_sign: (p) => {
      const [who, data] = list(p, 2, 2, 'eth_sign');
      return signMessage(address(who, 0), bytes(data, 1));
    },
    personal_sign: (p) => {
      const [data, who] = list(p, 2, 3, 'personal_sign');
      return signMessage(address(who, 1), bytes(data, 0));
    },
    eth_signTypedData_v4: (p) => {
      const [who, typed] = list(p, 2, 2, 'eth_signTypedData_v4');
      const key = keyOf(address(who, 0));
      return new SigningKey(key).sign(typedDataDigest(typed)).serialized;
    },
    anvil_impersonateAccount: (p) => {
      dev.impersonated.add(address(list(p, 1, 1, 'anvil_impersonateAccount')[0], 0));
      return null;
    },
    anvil_stopImpersonatingAccount: (p) => {
      dev.impersonated.delete(address(list(p, 1, 1, 'anvil_stopImpersonatingAccount')[0], 0));
      return null;
    },
    hardhat_impersonateAccount: (p) => {
      dev.impersonated.add(address(list(p, 1, 1, 'hardhat_impersonateAccount')[0], 0));
      return true;
    },
    hardhat_stopImpersonatingAccount: (p) => {
      dev.impersonated.delete(address(list(p, 1, 1, 'hardhat_stopImpersonatingAccount')[0], 0));
      return true;
    },
  };
  return (name) => {
    const m = Object.hasOwn(table, name) ? table[name] : undefined;
    if (!m) return undefined;
    return async (params) => {
      try {
        return { ok: true, result: await m(params) };
      } catch (e) {
        const error: RpcErrorObject =
          e instanceof ArgError
            ? { code: JSONRPC_INVALID_PARAMS, message: e.message }
            : { code: JSONRPC_SERVER_ERROR, message: e instanceof Error ? e.message : String(e) };
        return { ok: false, error };
      }
    };
  };
}
