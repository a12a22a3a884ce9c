/**
 * Bytes and hex. Hex is written as lower-case `0x…`; byte inputs accept a Uint8Array or `0x` hex.
 * Parsing errors are InputErrors naming the field they came from.
 */
import { InputError } from './errors';

export type Bytes = Uint8Array;
export type Hex = `0x${string}`;
export type BytesLike = Uint8Array | string;

const HEX_CODES = new Uint8Array([...'0123456789abcdef'].map((c) => c.charCodeAt(0)));
/** Nibble value of an ASCII code, -1 for a non-hex character. */
const NIBBLE = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) NIBBLE[48 + i] = i;
for (let i = 0; i < 6; i++) {
  NIBBLE[97 + i] = 10 + i;
  NIBBLE[65 + i] = 10 + i;
}

/**
 * Lower-case `0x` hex, as one flat string: hex strings are hashed, compared and parsed again all
 * the time, and a string built by appending two characters per byte is a rope that each of those
 * first flattens (several microseconds for a signature).
 */
export function toHex(bytes: Uint8Array): Hex {
  const n = bytes.length;
  const length = 2 + 2 * n;
  // The digits are written into one scratch buffer the string is then read from: a fresh buffer
  // per call came from Node's pool, and a new 8 KiB pool every few dozen signatures.
  if (length > hexScratch.length) hexScratch = Buffer.allocUnsafeSlow(Math.max(length, 2 * hexScratch.length));
  const out = hexScratch;
  out[0] = 48; // 0
  out[1] = 120; // x
  for (let i = 0, j = 2; i < n; i++, j += 2) {
    const b = bytes[i]!;
    out[j] = HEX_CODES[b >> 4]!;
    out[j + 1] = HEX_CODES[b & 15]!;
  }
  return out.toString('latin1', 0, length) as Hex;
}

/** toHex's scratch (a call fills it and reads it back before it returns: nothing else sees it). */
let hexScratch = Buffer.allocUnsafeSlow(256);

/**
 * The bytes as a string of one char per byte (ISO-8859-1): a key for the caches that look bytes up
 * by value. Node decodes it natively over a view of the same memory (no copy): two keys and a
 * lookup took about 200 ns, against 500 ns through a TextDecoder.
 */
export function latin1Key(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** Hex without the `0x` prefix (Bor's `bor_getRootHash` result format). */
export function toBareHex(bytes: Uint8Array): string {
  return toHex(bytes).slice(2);
}

export function isHex(value: unknown): value is Hex {
  return typeof value === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(value);
}

/** Parse `0x` hex (either case, even length). `field` names the input in the error. */
export function fromHex(hex: string, field = 'hex'): Bytes {
  if (typeof hex !== 'string') throw new InputError(field, `expected 0x-prefixed hex, got ${typeof hex}`);
  if (!(hex.startsWith('0x') || hex.startsWith('0X')))
    throw new InputError(field, `expected 0x-prefixed hex, got ${JSON.stringify(truncate(hex))}`);
  if (hex.length % 2 !== 0)
    throw new InputError(field, `hex has an odd number of digits: ${JSON.stringify(truncate(hex))}`);
  const out = new Uint8Array((hex.length - 2) >> 1);
  for (let i = 0, j = 2; i < out.length; i++, j += 2) {
    const a = hex.charCodeAt(j);
    const b = hex.charCodeAt(j + 1);
    const hi = a < 128 ? NIBBLE[a]! : -1;
    const lo = b < 128 ? NIBBLE[b]! : -1;
    if ((hi | lo) < 0) throw new InputError(field, `not a hex string: ${JSON.stringify(truncate(hex))}`);
    out[i] = (hi << 4) | lo;
  }
  return out;
}

/** Accept a Uint8Array or `0x` hex; optionally require an exact length. */
export function toBytes(input: BytesLike, field = 'bytes', length?: number): Bytes {
  let bytes: Bytes;
  if (input instanceof Uint8Array) bytes = input;
  else if (typeof input === 'string') bytes = fromHex(input, field);
  else throw new InputError(field, `expected Uint8Array or 0x hex, got ${describe(input)}`);
  if (length !== undefined && bytes.length !== length) {
    throw new InputError(field, `expected ${length} bytes, got ${bytes.length}`);
  }
  return bytes;
}

export function concatBytes(...parts: Uint8Array[]): Bytes {
  let total = 0;
  for (const p of parts) total += p.length;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** Lexicographic byte order (Go `bytes.Compare`). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

export function utf8(text: string): Bytes {
  return UTF8.encode(text);
}

const UTF8 = new TextEncoder();

export function u64be(value: bigint | number): Bytes {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value));
  return out;
}

function truncate(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return `string ${JSON.stringify(truncate(value))}`;
  if (typeof value === 'bigint') return `bigint ${value}`;
  if (typeof value === 'number') return `number ${value}`;
  return typeof value;
}
