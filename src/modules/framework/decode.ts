/**
 * Field decoders for messages, genesis and request bodies. Each throws an InputError that names
 * the full path of the bad field (`msg.value.tx_hash`), so callers turn it into a clear rejection.
 */
import { type Address, parseAddress } from '../../core/address';
import { type Hex, fromHex, toHex, describe } from '../../core/bytes';
import { parseUint, UINT64_MAX } from '../../core/amount';
import { InputError } from '../../core/errors';

export type Obj = Record<string, unknown>;

export function asObject(value: unknown, path: string): Obj {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new InputError(path, `expected an object, got ${describe(value)}`);
  return value as Obj;
}

export function asArray(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new InputError(path, `expected an array, got ${describe(value)}`);
  return value;
}

export function field(o: Obj, key: string, path: string): unknown {
  if (!(key in o) || o[key] === undefined) throw new InputError(`${path}.${key}`, 'is required');
  return o[key];
}

export function str(o: Obj, key: string, path: string, opts: { maxLength?: number } = {}): string {
  const v = field(o, key, path);
  if (typeof v !== 'string') throw new InputError(`${path}.${key}`, `expected a string, got ${describe(v)}`);
  if (opts.maxLength !== undefined && v.length > opts.maxLength)
    throw new InputError(`${path}.${key}`, `longer than ${opts.maxLength} characters`);
  return v;
}

export function optStr(o: Obj, key: string, path: string, fallback: string): string {
  return o[key] === undefined ? fallback : str(o, key, path);
}

export function addr(o: Obj, key: string, path: string): Address {
  return parseAddress(field(o, key, path), `${path}.${key}`);
}

export function uint64(o: Obj, key: string, path: string): bigint {
  return parseUint(field(o, key, path), `${path}.${key}`, UINT64_MAX);
}

export function uint256(o: Obj, key: string, path: string): bigint {
  return parseUint(field(o, key, path), `${path}.${key}`);
}

export function optUint64(o: Obj, key: string, path: string, fallback: bigint): bigint {
  return o[key] === undefined ? fallback : uint64(o, key, path);
}

export function bool(o: Obj, key: string, path: string): boolean {
  const v = field(o, key, path);
  if (typeof v !== 'boolean') throw new InputError(`${path}.${key}`, `expected true or false, got ${describe(v)}`);
  return v;
}

/** `0x` hex of exactly `length` bytes (any case in, lower case out). */
export function hexN(o: Obj, key: string, path: string, length: number): Hex {
  return toHex(fromHexN(field(o, key, path), `${path}.${key}`, length));
}

export function hexBytes(o: Obj, key: string, path: string, maxLength = Infinity): Hex {
  const v = field(o, key, path);
  if (typeof v !== 'string') throw new InputError(`${path}.${key}`, `expected 0x hex, got ${describe(v)}`);
  const b = fromHex(v, `${path}.${key}`);
  if (b.length > maxLength) throw new InputError(`${path}.${key}`, `longer than ${maxLength} bytes`);
  return toHex(b);
}

function fromHexN(v: unknown, path: string, length: number): Uint8Array {
  if (typeof v !== 'string') throw new InputError(path, `expected ${length}-byte 0x hex, got ${describe(v)}`);
  const b = fromHex(v, path);
  if (b.length !== length) throw new InputError(path, `expected ${length} bytes, got ${b.length}`);
  return b;
}

/** A 65-byte uncompressed secp256k1 public key `0x04…`. */
export function pubKey(o: Obj, key: string, path: string): Hex {
  const h = hexN(o, key, path, 65);
  if (!h.startsWith('0x04')) throw new InputError(`${path}.${key}`, 'uncompressed public key must start with 0x04');
  return h;
}

/** Reject members the schema does not know, naming the first one. */
export function noExtraKeys(o: Obj, allowed: readonly string[], path: string): void {
  for (const k of Object.keys(o))
    if (!allowed.includes(k)) throw new InputError(`${path}.${k}`, `unknown field (allowed: ${allowed.join(', ')})`);
}
