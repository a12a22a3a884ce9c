/**
 * JSON-RPC arguments decoded the way geth's `rpc` package decodes them: positional, each into a Go
 * type through Go's encoding/json and go-ethereum's hexutil (sidechain.md §4.1, §4.4):
 * - params omitted or null = []; anything but an array is `non-array args`;
 * - an extra argument is `too many arguments, want at most <n>`, a missing required one is
 *   `missing value for required argument <i>`, a bad one is `invalid argument <i>: <Go's error>`;
 *   optional (Go pointer) arguments may be omitted or null;
 * - block numbers are `rpc.BlockNumber`: a tag or a strict hex quantity (`hexutil.DecodeUint64`:
 *   `0x` + hex without leading zeros, at most 64 bits, and Go's int64 bound on top); a JSON number
 *   is refused as geth refuses it (`hex string without 0x prefix`);
 * - `sidechain_getRootHash` takes Go `uint64`s, i.e. JSON numbers; hex strings are accepted too
 *   (reference README item 31 allows it) and parsed as strictly as block numbers.
 * The messages are geth's, so a client that knows geth's errors recognises them.
 */
import { type Hex } from '../../core/bytes';
import { JsonNumber } from '../../core/jsonNumber';
import { invalidParams } from './rpcErrors';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };
export const good = <T>(value: T): Parsed<T> => ({ ok: true, value });
export const bad = (message: string): Parsed<never> => ({ ok: false, message });

/** The JSON kind Go names in `json: cannot unmarshal <kind> into Go value of type …`. */
export function jsonKind(v: unknown): string {
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

/** hexutil's error texts. */
export const HEXUTIL = {
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

/**
 * `hexutil.Decode`: `0x` + an even number of hex digits, as lower-case 0x hex. Go's hex decoder
 * reports a bad character before an odd length.
 */
export function decodeHexBytes(input: string): Parsed<Hex> {
  if (input.length === 0) return bad(HEXUTIL.empty);
  if (!has0xPrefix(input)) return bad(HEXUTIL.missingPrefix);
  const raw = input.slice(2);
  for (let i = 0; i < raw.length; i++) if (nibble(raw.charCodeAt(i)) < 0) return bad(HEXUTIL.syntax);
  if (raw.length % 2 !== 0) return bad(HEXUTIL.oddLength);
  return good(`0x${raw.toLowerCase()}` as Hex);
}

export type BlockTag = 'latest' | 'earliest' | 'pending' | 'finalized' | 'safe';
const TAGS: ReadonlySet<string> = new Set<BlockTag>(['latest', 'earliest', 'pending', 'finalized', 'safe']);

export type BlockNumberArg = { tag: BlockTag } | { number: bigint };
export type BlockRef = BlockNumberArg | { hash: Hex } | { none: true };

/**
 * `rpc.BlockNumber.UnmarshalJSON`: strip the quotes of a string, match a tag, else DecodeUint64 on
 * the raw text (so every non-string fails with "hex string without 0x prefix").
 */
export function parseBlockNumber(v: unknown): Parsed<BlockNumberArg> {
  if (typeof v !== 'string') return bad(HEXUTIL.missingPrefix);
  if (TAGS.has(v)) return good({ tag: v as BlockTag });
  const n = decodeUint64Hex(v);
  if (!n.ok) return n;
  if (n.value > INT64_MAX) return bad('block number larger than int64');
  return good({ number: n.value });
}

/** `hexutil.UnmarshalFixedJSON` into a common.Hash (or any fixed-size byte array named `typeName`). */
export function parseFixedHex(v: unknown, bytes: number, typeName: string): Parsed<Hex> {
  const typeError = (what: string) => bad(`json: cannot unmarshal ${what} into Go value of type ${typeName}`);
  if (typeof v !== 'string') return typeError('non-string');
  let raw = v;
  if (raw.length > 0) {
    if (has0xPrefix(raw)) raw = raw.slice(2);
    else return typeError(HEXUTIL.missingPrefix);
    if (raw.length % 2 !== 0) return typeError(HEXUTIL.oddLength);
  }
  if (raw.length !== bytes * 2) return bad(`hex string has length ${raw.length}, want ${bytes * 2} for ${typeName}`);
  for (let i = 0; i < raw.length; i++) if (nibble(raw.charCodeAt(i)) < 0) return typeError(HEXUTIL.syntax);
  return good(`0x${raw.toLowerCase()}` as Hex);
}

export const parseHash = (v: unknown): Parsed<Hex> => parseFixedHex(v, 32, 'common.Hash');

/**
 * `rpc.BlockNumberOrHash.UnmarshalJSON`: an object {blockNumber | blockHash, requireCanonical}, or
 * a string that is a tag, a 66-character hash or a hex block number.
 */
export function parseBlockNumberOrHash(v: unknown): Parsed<BlockRef> {
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
export function parseBool(v: unknown): Parsed<boolean> {
  if (v === null || v === undefined) return good(false);
  if (typeof v === 'boolean') return good(v);
  return bad(`json: cannot unmarshal ${jsonKind(v)} into Go value of type bool`);
}

/** Go `uint64` from a JSON number (null leaves it 0); a hex string is accepted as a quantity too. */
export function parseUint64Arg(v: unknown): Parsed<bigint> {
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

/**
 * `hexutil.Uint` (a transaction index): a JSON string holding a hex quantity; hexutil wraps a
 * decoding error in Go's type error. Its UnmarshalJSON also receives a null, which is no string.
 */
export function parseHexUint(v: unknown): Parsed<bigint> {
  if (typeof v !== 'string') return bad('json: cannot unmarshal non-string into Go value of type hexutil.Uint');
  const n = decodeUint64Hex(v);
  return n.ok ? n : bad(`json: cannot unmarshal ${n.message} into Go value of type hexutil.Uint`);
}

export interface ArgSpec<T> {
  /** A Go pointer argument: may be omitted or null (→ undefined). */
  optional: boolean;
  parse(v: unknown): Parsed<T>;
}

export const required = <T>(parse: (v: unknown) => Parsed<T>): ArgSpec<unknown> => ({
  optional: false,
  parse: parse as (v: unknown) => Parsed<unknown>,
});
export const optional = <T>(parse: (v: unknown) => Parsed<T>): ArgSpec<unknown> => ({
  optional: true,
  parse: parse as (v: unknown) => Parsed<unknown>,
});

/** geth `parsePositionalArguments`; throws the `-32602` failure. */
export function parseArgs(params: unknown, specs: ReadonlyArray<ArgSpec<unknown>>): unknown[] {
  let raw: readonly unknown[];
  if (params === undefined || params === null) raw = [];
  else if (Array.isArray(params)) raw = params;
  else throw invalidParams('non-array args');
  const out: unknown[] = [];
  for (let i = 0; i < raw.length; i++) {
    const spec = specs[i];
    if (spec === undefined) throw invalidParams(`too many arguments, want at most ${specs.length}`);
    const v = raw[i];
    if (spec.optional && (v === null || v === undefined)) {
      out.push(undefined);
      continue;
    }
    const p = spec.parse(v);
    if (!p.ok) throw invalidParams(`invalid argument ${i}: ${p.message}`);
    out.push(p.value);
  }
  for (let i = raw.length; i < specs.length; i++) {
    if (!specs[i]!.optional) throw invalidParams(`missing value for required argument ${i}`);
    out.push(undefined);
  }
  return out;
}
