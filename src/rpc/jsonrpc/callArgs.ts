/**
 * The arguments of a call or a transaction as a client names them (geth's `TransactionArgs`):
 * from, to, value, data or input, gas and the fee fields, nonce; each decoded as geth's JSON
 * decoding does, with its words on a bad one.
 */
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { type Parsed, bad, decodeHexBytes, decodeUint64Hex, good, jsonKind, parseFixedHex } from './goArguments';

export const parseAddressArg = (v: unknown): Parsed<Address> =>
  parseFixedHex(v, 20, 'common.Address') as Parsed<Address>;

/** `hexutil.Big`: `0x` + hex without leading zeros, at most 256 bits. */
export function decodeBigHex(v: unknown, typeName = 'hexutil.Big'): Parsed<bigint> {
  if (typeof v !== 'string') return bad(`json: cannot unmarshal non-string into Go value of type ${typeName}`);
  const fail = (why: string) => bad(`json: cannot unmarshal ${why} into Go value of type ${typeName}`);
  if (!/^0[xX]/.test(v)) return fail('hex string without 0x prefix');
  const raw = v.slice(2);
  if (raw === '') return fail('hex string "0x"');
  if (raw.length > 1 && raw[0] === '0') return fail('hex number with leading zero digits');
  if (!/^[0-9a-fA-F]+$/.test(raw)) return fail('invalid hex string');
  if (raw.length > 64) return fail('hex number > 256 bits');
  return good(BigInt(`0x${raw}`));
}

/** The fields of geth's `TransactionArgs` a transfer uses. */
export interface CallArgs {
  from?: Address;
  to?: Address | null;
  value?: bigint;
  data?: Hex;
  gas?: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  nonce?: bigint;
}

/** `hexutil.Uint64`. */
function decodeUint64Value(v: unknown): Parsed<bigint> {
  const fail = (why: string) => bad(`json: cannot unmarshal ${why} into Go value of type hexutil.Uint64`);
  if (typeof v !== 'string') return fail('non-string');
  const n = decodeUint64Hex(v);
  return n.ok ? n : fail(n.message);
}

export function parseCallArgs(v: unknown): Parsed<CallArgs> {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return bad(`json: cannot unmarshal ${jsonKind(v)} into Go value of type ethapi.TransactionArgs`);
  const o = v as Record<string, unknown>;
  const out: CallArgs = {};
  for (const k of ['from', 'to'] as const) {
    if (o[k] === undefined || o[k] === null) continue;
    const a = parseAddressArg(o[k]);
    if (!a.ok) return a;
    out[k] = a.value;
  }
  for (const k of ['value', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas'] as const) {
    if (o[k] === undefined || o[k] === null) continue;
    const n = decodeBigHex(o[k]);
    if (!n.ok) return n;
    out[k] = n.value;
  }
  for (const k of ['gas', 'nonce'] as const) {
    if (o[k] === undefined || o[k] === null) continue;
    const n = decodeUint64Value(o[k]);
    if (!n.ok) return n;
    out[k] = n.value;
  }
  const data = o.input ?? o.data;
  if (o.input !== undefined && o.data !== undefined && o.input !== o.data)
    return bad('both "data" and "input" are set and not equal. Please use "input" to pass transaction call data');
  if (data !== undefined && data !== null) {
    if (typeof data !== 'string') return bad('json: cannot unmarshal non-string into Go value of type hexutil.Bytes');
    const d = decodeHexBytes(data);
    if (!d.ok) return bad(`json: cannot unmarshal ${d.message} into Go value of type hexutil.Bytes`);
    out.data = d.value;
  }
  return good(out);
}
