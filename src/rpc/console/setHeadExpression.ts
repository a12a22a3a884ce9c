/**
 * `debug.setHead(<block>)` in the operator console (service-spec "Operator console": rewinds the
 * chain). `evalConsole` answers only reads, so the console server recognises this one mutation
 * itself and sends it to the node as an operator command.
 *
 * geth's console passes the argument straight to `debug_setHead`, whose parameter is a hex
 * quantity string: `debug.setHead('0x3e8')` or `debug.setHead("0x3e8")`. A quoted argument is
 * checked the way geth checks it (`0x` prefix, no leading zeros, at most 64 bits) with geth's
 * messages. A bare hex literal (`debug.setHead(0x3e8)`) is a number in JavaScript, which geth
 * would refuse; it is accepted here because its meaning is unambiguous. A bare decimal number is
 * refused as geth refuses it, so that a rewind is never made to a block the operator did not mean.
 */
import { decodeUint64Hex } from '../jsonrpc/goArguments';

export type SetHeadParse =
  /** Not a setHead call at all: evaluate it as a read. */
  { kind: 'other' } | { kind: 'setHead'; block: bigint } | { kind: 'invalid'; error: string };

const UINT64_MAX = (1n << 64n) - 1n;

/** `debug . setHead ( <arg> ) ;` with free whitespace, as `evalConsole` lexes its expressions. */
const CALL = /^\s*debug\s*\.\s*setHead\s*\(([\s\S]*)\)\s*;?\s*$/;
const PREFIX = /^\s*debug\s*\.\s*setHead\b/;

export function parseSetHead(expr: string): SetHeadParse {
  if (!PREFIX.test(expr)) return { kind: 'other' };
  const call = CALL.exec(expr);
  if (!call) return { kind: 'invalid', error: "SyntaxError: expected debug.setHead('0x<block number in hex>')" };
  const arg = call[1]!.trim();
  if (arg === '') return { kind: 'invalid', error: 'missing value for required argument 0' };
  const quoted = /^(['"])(.*)\1$/s.exec(arg);
  if (quoted) {
    const n = decodeUint64Hex(quoted[2]!);
    return n.ok ? { kind: 'setHead', block: n.value } : { kind: 'invalid', error: `invalid argument 0: ${n.message}` };
  }
  if (/^0[xX][0-9a-fA-F]+$/.test(arg)) {
    const n = BigInt(arg);
    return n <= UINT64_MAX
      ? { kind: 'setHead', block: n }
      : { kind: 'invalid', error: 'invalid argument 0: hex number > 64 bits' };
  }
  if (/^\d+$/.test(arg))
    return {
      kind: 'invalid',
      error: `invalid argument 0: json: cannot unmarshal non-string into Go value of type hexutil.Uint64 (write the block in hex, e.g. debug.setHead('0x${BigInt(arg).toString(16)}'))`,
    };
  return {
    kind: 'invalid',
    error: `invalid argument 0: expected a hex block number such as '0x3e8', got ${arg.slice(0, 80)}`,
  };
}
