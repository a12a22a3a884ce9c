/**
 * Amounts, stake, ids and heights are bigints. Decimal strings are parsed strictly:
 * no sign, no exponent, no leading '+', no whitespace; errors name the field.
 */
import { type Bytes } from './bytes';
import { InputError } from './errors';
import { describe } from './bytes';

export const UINT64_MAX = (1n << 64n) - 1n;
export const INT64_MAX = (1n << 63n) - 1n;
export const INT64_MIN = -(1n << 63n);
export const UINT256_MAX = (1n << 256n) - 1n;

/** 1 token = 10^18 wei (voting power = floor(stake / 10^18)). */
export const ONE_TOKEN = 10n ** 18n;

const DECIMAL_RE = /^(0|[1-9][0-9]*)$/;

/** Parse a non-negative decimal integer given as a string, number or bigint. */
export function parseUint(value: unknown, field: string, max: bigint = UINT256_MAX): bigint {
  let n: bigint;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new InputError(field, `not a safe integer: ${value}`);
    n = BigInt(value);
  } else if (typeof value === 'string') {
    if (!DECIMAL_RE.test(value)) throw new InputError(field, `not a decimal integer: ${describe(value)}`);
    n = BigInt(value);
  } else throw new InputError(field, `expected an integer, got ${describe(value)}`);
  if (n < 0n) throw new InputError(field, `must not be negative: ${n}`);
  if (n > max) throw new InputError(field, `out of range (max ${max}): ${n}`);
  return n;
}

export function parseUint64(value: unknown, field: string): bigint {
  return parseUint(value, field, UINT64_MAX);
}

/**
 * The 32-byte append helper of the hash rules: big-endian minimal bytes, left-padded to 32;
 * 0 is 32 zero bytes. Values must fit in 256 bits.
 */
export function pad32(value: bigint | number): Bytes {
  let v = BigInt(value);
  if (v < 0n || v > UINT256_MAX) throw new InputError('value', `does not fit in 32 bytes: ${v}`);
  const out = new Uint8Array(32);
  for (let i = 31; i >= 0 && v > 0n; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** Left-pad raw bytes (e.g. a 20-byte address) to 32 bytes. */
export function padBytes32(bytes: Uint8Array): Bytes {
  if (bytes.length > 32) throw new InputError('bytes', `longer than 32 bytes: ${bytes.length}`);
  const out = new Uint8Array(32);
  out.set(bytes, 32 - bytes.length);
  return out;
}

export function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

export function maxBig(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

/** Floor division (Go big.Int.Div / Euclidean for positive divisors). */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** Saturating int64 add/sub (Tendermint safeAddClip / safeSubClip). */
export function clipInt64(v: bigint): bigint {
  return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : v;
}
