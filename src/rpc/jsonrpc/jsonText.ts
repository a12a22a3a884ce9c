/**
 * JSON text in and out for the sidechain JSON-RPC server, read the way geth's `rpc` package reads
 * it (sidechain.md §4.4), which `JSON.parse` cannot do:
 *
 * - The `id` is echoed byte for byte (geth keeps it as raw JSON), so `1e2`, `1.0` or an integer
 *   beyond 2^53 come back exactly as sent, and a client matching responses by id finds them.
 * - A message is decoded like a Go struct: keys match the field names case-insensitively (Go's
 *   encoding/json), the last occurrence wins, a field of the wrong JSON type is left as it was, and
 *   anything that is not an object is an empty message (which then is an invalid request).
 * - Integers in params beyond 2^53 stay exact (as bigints) for the uint64 arguments of
 *   `sidechain_getRootHash`; other numbers (`1.0`, `1e0`, `-0`) keep their text (JsonNumber),
 *   which Go refuses to read into a uint64.
 * - Only the first JSON value of the body is read; what follows is ignored, as geth's decoder
 *   stops after one value.
 * - Escaped lone surrogates decode to U+FFFD, as Go's decoder does, so a method name echoed in an
 *   error message is valid UTF-8.
 *
 * `encodeJson` writes results: bigints as JSON numbers (what Go writes for big integers), and
 * non-finite numbers as null (as JSON.stringify does).
 */

import { JsonNumber } from '../../core/jsonNumber';

/** Go's encoding/json nesting limit; deeper input is a syntax error. */
export const MAX_JSON_DEPTH = 10_000;

/** One decoded JSON-RPC message (geth's jsonrpcMessage: every field raw or defaulted). */
export interface RpcMessage {
  /** `jsonrpc`; '' when absent or not a string. */
  version: string;
  /** The raw JSON text of `id` (`null` included); undefined when absent. */
  idRaw: string | undefined;
  /** `method`; '' when absent or not a string. */
  method: string;
  /** Whether `params` was present (even as null). */
  hasParams: boolean;
  /** The decoded `params`, when present. */
  params: unknown;
  /** Whether `result` / `error` were present (a response, not a request). */
  hasResult: boolean;
  hasError: boolean;
}

export type ParsedBody = { ok: true; batch: boolean; messages: RpcMessage[] } | { ok: false };

class JsonSyntaxError extends Error {}

const emptyMessage = (): RpcMessage => ({
  version: '',
  idRaw: undefined,
  method: '',
  hasParams: false,
  params: undefined,
  hasResult: false,
  hasError: false,
});

type Field = 'jsonrpc' | 'id' | 'method' | 'params' | 'result' | 'error';
const FIELDS: ReadonlyMap<string, Field> = new Map<string, Field>([
  ['JSONRPC', 'jsonrpc'],
  ['ID', 'id'],
  ['METHOD', 'method'],
  ['PARAMS', 'params'],
  ['RESULT', 'result'],
  ['ERROR', 'error'],
]);

/**
 * Go's key folding for struct fields: ASCII letters upper-cased, and the two non-ASCII runes that
 * fold onto ASCII letters (U+017F long s, U+212A Kelvin sign) mapped onto them.
 */
function foldKey(key: string): string {
  let out = '';
  for (const ch of key) {
    if (ch === '\u017f') out += 'S';
    else if (ch === '\u212a') out += 'K';
    else if (ch >= 'a' && ch <= 'z') out += ch.toUpperCase();
    else out += ch;
  }
  return out;
}

const isWs = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

class Reader {
  pos = 0;
  private depth = 0;

  constructor(private readonly src: string) {}

  fail(): never {
    throw new JsonSyntaxError(`invalid JSON at offset ${this.pos}`);
  }

  skipWs(): void {
    while (this.pos < this.src.length && isWs(this.src.charCodeAt(this.pos))) this.pos++;
  }

  peek(): number {
    return this.pos < this.src.length ? this.src.charCodeAt(this.pos) : -1;
  }

  private expect(c: number): void {
    if (this.peek() !== c) this.fail();
    this.pos++;
  }

  enter(): void {
    if (++this.depth > MAX_JSON_DEPTH) this.fail();
  }

  leave(): void {
    this.depth--;
  }

  /**
   * Any JSON value, as a JavaScript value. Iterative, with the open containers on an explicit
   * stack, so nesting up to MAX_JSON_DEPTH is read whatever the call stack allows.
   */
  value(): unknown {
    const stack: Array<{ out: unknown[]; key: null } | { out: Record<string, unknown>; key: string }> = [];
    const open = (): void => {
      if (this.depth + stack.length + 1 > MAX_JSON_DEPTH) this.fail();
    };
    for (;;) {
      this.skipWs();
      let v: unknown;
      let c = this.peek();
      if (c === 0x7b || c === 0x5b) {
        open();
        this.pos++;
        this.skipWs();
        if (c === 0x7b) {
          if (this.peek() === 0x7d) {
            this.pos++;
            v = {};
          } else {
            stack.push({ out: {}, key: this.memberKey() });
            continue;
          }
        } else if (this.peek() === 0x5d) {
          this.pos++;
          v = [];
        } else {
          stack.push({ out: [], key: null });
          continue;
        }
      } else {
        v = this.scalar();
      }
      // Hand the finished value to its container; close every container that ends here.
      for (;;) {
        const top = stack[stack.length - 1];
        if (top === undefined) return v;
        if (top.key === null) top.out.push(v);
        // An own property even for "__proto__", so the input cannot reach the prototype.
        else
          Object.defineProperty(top.out, top.key, { value: v, writable: true, enumerable: true, configurable: true });
        this.skipWs();
        c = this.peek();
        this.pos++;
        if (c === 0x2c) {
          if (top.key !== null) {
            this.skipWs();
            top.key = this.memberKey();
          }
          break;
        }
        if (c !== (top.key === null ? 0x5d : 0x7d)) {
          this.pos--;
          this.fail();
        }
        stack.pop();
        v = top.out;
      }
    }
  }

  /** `"key" :` of an object member. */
  private memberKey(): string {
    if (this.peek() !== 0x22) this.fail();
    const key = this.string();
    this.skipWs();
    this.expect(0x3a);
    return key;
  }

  private scalar(): unknown {
    const c = this.peek();
    switch (c) {
      case 0x22: // "
        return this.string();
      case 0x74: // t
        return this.literal('true', true);
      case 0x66: // f
        return this.literal('false', false);
      case 0x6e: // n
        return this.literal('null', null);
      default:
        if (c === 0x2d || isDigit(c)) return this.number();
        return this.fail();
    }
  }

  /** A value, skipped; returns its source span. */
  span(): { start: number; end: number } {
    this.skipWs();
    const start = this.pos;
    this.value();
    return { start, end: this.pos };
  }

  private literal<T>(word: string, v: T): T {
    if (!this.src.startsWith(word, this.pos)) this.fail();
    this.pos += word.length;
    return v;
  }

  /** The number's text, checked against the JSON grammar. */
  private numberText(): string {
    const start = this.pos;
    if (this.peek() === 0x2d) this.pos++;
    if (this.peek() === 0x30) this.pos++;
    else if (isDigit(this.peek())) while (isDigit(this.peek())) this.pos++;
    else this.fail();
    if (this.peek() === 0x2e) {
      this.pos++;
      if (!isDigit(this.peek())) this.fail();
      while (isDigit(this.peek())) this.pos++;
    }
    if (this.peek() === 0x65 || this.peek() === 0x45) {
      this.pos++;
      if (this.peek() === 0x2b || this.peek() === 0x2d) this.pos++;
      if (!isDigit(this.peek())) this.fail();
      while (isDigit(this.peek())) this.pos++;
    }
    return this.src.slice(start, this.pos);
  }

  private number(): number | bigint | JsonNumber {
    const text = this.numberText();
    if (/^-?\d+$/.test(text) && text !== '-0') {
      // Integers keep every digit: a bigint when a double would round them.
      if (text.length <= 15) return Number(text);
      const big = BigInt(text);
      return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
    }
    // Not an integer to Go (even `1.0`): keep the text for the uint64 arguments' errors.
    return new JsonNumber(text, Number(text));
  }

  string(): string {
    this.expect(0x22);
    const src = this.src;
    let out = '';
    let chunkStart = this.pos;
    for (;;) {
      if (this.pos >= src.length) this.fail();
      const c = src.charCodeAt(this.pos);
      if (c === 0x22) {
        out += src.slice(chunkStart, this.pos);
        this.pos++;
        return out;
      }
      if (c < 0x20) this.fail();
      if (c !== 0x5c) {
        this.pos++;
        continue;
      }
      out += src.slice(chunkStart, this.pos);
      this.pos++;
      const e = this.peek();
      this.pos++;
      switch (e) {
        case 0x22:
          out += '"';
          break;
        case 0x5c:
          out += '\\';
          break;
        case 0x2f:
          out += '/';
          break;
        case 0x62:
          out += '\b';
          break;
        case 0x66:
          out += '\f';
          break;
        case 0x6e:
          out += '\n';
          break;
        case 0x72:
          out += '\r';
          break;
        case 0x74:
          out += '\t';
          break;
        case 0x75:
          out += this.unicodeEscape();
          break;
        default:
          this.pos--;
          this.fail();
      }
      chunkStart = this.pos;
    }
  }

  private hex4(at: number): number {
    if (at + 4 > this.src.length) return -1;
    const h = this.src.slice(at, at + 4);
    return /^[0-9a-fA-F]{4}$/.test(h) ? parseInt(h, 16) : -1;
  }

  /** After `\u`: one code point; an unpaired surrogate becomes U+FFFD (Go's decoder). */
  private unicodeEscape(): string {
    const u = this.hex4(this.pos);
    if (u < 0) this.fail();
    this.pos += 4;
    if (u >= 0xd800 && u <= 0xdbff && this.src.startsWith('\\u', this.pos)) {
      const lo = this.hex4(this.pos + 2);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        this.pos += 6;
        return String.fromCharCode(u, lo);
      }
    }
    if (u >= 0xd800 && u <= 0xdfff) return '\ufffd';
    return String.fromCharCode(u);
  }

  /** Members in order, each handed to `onMember`, which must consume the value. */
  members(onMember: (key: string) => void): void {
    this.expect(0x7b);
    this.enter();
    this.skipWs();
    if (this.peek() === 0x7d) {
      this.pos++;
      this.leave();
      return;
    }
    for (;;) {
      this.skipWs();
      onMember(this.memberKey());
      this.skipWs();
      const c = this.peek();
      this.pos++;
      if (c === 0x7d) break;
      if (c !== 0x2c) {
        this.pos--;
        this.fail();
      }
    }
    this.leave();
  }

  /** A JSON-RPC message: an object decoded into geth's message fields, anything else empty. */
  message(): RpcMessage {
    this.skipWs();
    const msg = emptyMessage();
    if (this.peek() !== 0x7b) {
      this.value();
      return msg;
    }
    this.members((key) => {
      const field = FIELDS.get(foldKey(key));
      switch (field) {
        case 'id': {
          const { start, end } = this.span();
          msg.idRaw = this.src.slice(start, end);
          break;
        }
        case 'jsonrpc':
        case 'method': {
          // A Go string field: a string sets it; null or another type leaves it unchanged.
          const v = this.value();
          if (typeof v === 'string') {
            if (field === 'jsonrpc') msg.version = v;
            else msg.method = v;
          }
          break;
        }
        case 'params':
          msg.params = this.value();
          msg.hasParams = true;
          break;
        case 'result':
          this.value();
          msg.hasResult = true;
          break;
        case 'error':
          this.value();
          msg.hasError = true;
          break;
        default:
          this.value();
      }
    });
    return msg;
  }
}

/**
 * The request body as geth reads it: its first JSON value, a batch if that is an array. Anything
 * that is not one well-formed JSON value (including an empty body) is `{ ok: false }`.
 */
export function parseRpcBody(text: string): ParsedBody {
  const r = new Reader(text);
  try {
    r.skipWs();
    if (r.peek() === -1) return { ok: false };
    if (r.peek() !== 0x5b) return { ok: true, batch: false, messages: [r.message()] };
    const messages: RpcMessage[] = [];
    r.pos++;
    r.enter();
    r.skipWs();
    if (r.peek() === 0x5d) return { ok: true, batch: true, messages };
    for (;;) {
      messages.push(r.message());
      r.skipWs();
      const c = r.peek();
      r.pos++;
      if (c === 0x5d) break;
      if (c !== 0x2c) {
        r.pos--;
        r.fail();
      }
    }
    return { ok: true, batch: true, messages };
  } catch (e) {
    if (e instanceof JsonSyntaxError) return { ok: false };
    throw e;
  }
}

/** One JSON value (the whole text, surrounding whitespace allowed), as `parseRpcBody` decodes params. */
export function parseJsonValue(text: string): { ok: true; value: unknown } | { ok: false } {
  const r = new Reader(text);
  try {
    const value = r.value();
    r.skipWs();
    if (r.peek() !== -1) r.fail();
    return { ok: true, value };
  } catch (e) {
    if (e instanceof JsonSyntaxError) return { ok: false };
    throw e;
  }
}

/**
 * JSON text of a result: bigints as numbers, non-finite numbers as null, `toJSON` honoured,
 * undefined / functions / symbols dropped from objects (null in arrays), as JSON.stringify does.
 * Throws on a cycle.
 */
export function encodeJson(value: unknown): string {
  const parts: string[] = [];
  const seen = new Set<object>();
  const write = (v: unknown, inArray: boolean): boolean => {
    if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
      v = (v as { toJSON: () => unknown }).toJSON();
    }
    switch (typeof v) {
      case 'string':
        parts.push(JSON.stringify(v));
        return true;
      case 'number':
        parts.push(Number.isFinite(v) ? JSON.stringify(v) : 'null');
        return true;
      case 'bigint':
        parts.push(v.toString(10));
        return true;
      case 'boolean':
        parts.push(v ? 'true' : 'false');
        return true;
      case 'undefined':
      case 'function':
      case 'symbol':
        if (inArray) parts.push('null');
        return inArray;
      default:
        break;
    }
    if (v === null) {
      parts.push('null');
      return true;
    }
    const o = v as object;
    if (seen.has(o)) throw new TypeError('cannot encode a cyclic structure as JSON');
    seen.add(o);
    if (Array.isArray(o)) {
      parts.push('[');
      o.forEach((item, i) => {
        if (i > 0) parts.push(',');
        write(item, true);
      });
      parts.push(']');
    } else {
      parts.push('{');
      let first = true;
      for (const [k, item] of Object.entries(o)) {
        const mark = parts.length;
        parts.push(first ? '' : ',', JSON.stringify(k), ':');
        if (write(item, false)) first = false;
        else parts.length = mark;
      }
      parts.push('}');
    }
    seen.delete(o);
    return true;
  };
  if (!write(value, false)) return 'null';
  return parts.join('');
}
