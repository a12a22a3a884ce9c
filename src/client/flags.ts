/**
 * Parsers for the client's flag and argument values. Each throws a UsageError whose message starts
 * with the flag's name (`--tx-hash: expected …`), so the user sees which flag was wrong.
 */
import { type Address } from '../core/address';
import { type Hex } from '../core/bytes';
import { UINT64_MAX } from '../core/amount';
import { parseDurationMs } from '../core/duration';
import { type Coin } from '../modules/bank/coins';
import { UsageError } from './errors';

const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : String(v));

/** A decimal uint64 (flags are read as strings so large values keep their precision). */
export function parseUint64Flag(value: unknown, flag: string): bigint {
  const s = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof s !== 'string' || !/^\d+$/.test(s))
    throw new UsageError(flag, `expected a non-negative decimal integer, got ${show(value)}`);
  const n = BigInt(s);
  if (n > UINT64_MAX) throw new UsageError(flag, `${s} is larger than the uint64 maximum ${UINT64_MAX}`);
  return n;
}

/** A decimal unsigned integer of any size (amounts). */
export function parseUintFlag(value: unknown, flag: string): bigint {
  const s = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof s !== 'string' || !/^\d+$/.test(s))
    throw new UsageError(flag, `expected a non-negative decimal integer, got ${show(value)}`);
  const n = BigInt(s);
  if (n >= 1n << 256n) throw new UsageError(flag, `${s} does not fit in 256 bits`);
  return n;
}

function hexBody(value: unknown, flag: string, what: string): string {
  if (typeof value !== 'string') throw new UsageError(flag, `expected ${what}, got ${show(value)}`);
  const body = value.startsWith('0x') || value.startsWith('0X') ? value.slice(2) : value;
  if (!/^[0-9a-fA-F]*$/.test(body) || body.length % 2 !== 0)
    throw new UsageError(flag, `expected ${what}, got ${show(value)} (not hex)`);
  return body.toLowerCase();
}

/** Hex of exactly `bytes` bytes, with or without 0x; returned as lower-case 0x hex. */
export function parseHashFlag(value: unknown, flag: string, bytes = 32): Hex {
  const what = `a ${bytes}-byte 0x-prefixed hex value`;
  const body = hexBody(value, flag, what);
  if (body.length !== bytes * 2) throw new UsageError(flag, `expected ${what}, got ${body.length / 2} bytes`);
  return `0x${body}`;
}

/** A 20-byte address. */
export function parseAddressFlag(value: unknown, flag: string): Address {
  const body = hexBody(value, flag, 'a 20-byte 0x-hex address');
  if (body.length !== 40) throw new UsageError(flag, `expected a 20-byte 0x-hex address, got ${body.length / 2} bytes`);
  return `0x${body}`;
}

/** A secp256k1 public key: 65 bytes `0x04…`, or its 64-byte body (the 0x04 is then added). */
export function parsePubKeyFlag(value: unknown, flag: string): Hex {
  const what = 'a 65-byte uncompressed public key 0x04… (or its 64 bytes without the 04)';
  const body = hexBody(value, flag, what);
  if (body.length === 128) return `0x04${body}`;
  if (body.length !== 130) throw new UsageError(flag, `expected ${what}, got ${body.length / 2} bytes`);
  if (!body.startsWith('04')) throw new UsageError(flag, 'an uncompressed public key starts with 0x04');
  return `0x${body}`;
}

const DENOM_RE = /^[a-z][a-z0-9]{2,15}$/;

/** `<amount><denom>` coins, e.g. `1000matic`, or several: `5matic,7stake`. */
export function parseCoinsArg(value: unknown, flag: string): Coin[] {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || text === '')
    throw new UsageError(flag, `expected <amount><denom>, e.g. 1000matic, got ${show(value)}`);
  const seen = new Set<string>();
  return text.split(',').map((part) => {
    const m = /^(\d+)([a-zA-Z][a-zA-Z0-9]*)$/.exec(part.trim());
    if (!m) {
      const hint = /^\d+$/.test(part.trim()) ? ' (the denomination is missing: write e.g. 1000matic)' : '';
      throw new UsageError(flag, `expected <amount><denom>, e.g. 1000matic, got ${JSON.stringify(part)}${hint}`);
    }
    const amount = BigInt(m[1]!);
    const denom = m[2]!;
    if (!DENOM_RE.test(denom))
      throw new UsageError(
        flag,
        `invalid denomination ${JSON.stringify(denom)} (3-16 lower-case letters and digits, starting with a letter)`,
      );
    if (amount === 0n) throw new UsageError(flag, `amount of ${denom} must be positive`);
    if (amount >= 1n << 256n) throw new UsageError(flag, `amount of ${denom} does not fit in 256 bits`);
    if (seen.has(denom)) throw new UsageError(flag, `denomination ${denom} given twice`);
    seen.add(denom);
    return { denom, amount };
  });
}

export function parseTimeoutFlag(value: unknown): number {
  try {
    const ms = parseDurationMs(value, '--timeout');
    if (ms <= 0) throw new UsageError('--timeout', 'must be positive');
    return ms;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError('--timeout', `expected a duration such as 30s or 2m, got ${show(value)}`);
  }
}

/**
 * Run parsers for a yargs `.check`. The first failure is thrown as a UsageError (an InputError):
 * yargs hands thrown errors to the parser's `.fail` handler, which in `lockstep` rethrows them and
 * maps InputError to exit code 1. (A returned string would be handed over as a bare string.)
 */
export function checkAll(...parsers: Array<() => unknown>): true {
  for (const p of parsers) p();
  return true;
}
