/**
 * geth's log filter (`filters.FilterCriteria`, sidechain.md §5 item 4): decoded from JSON as
 * geth's `UnmarshalJSON` decodes it, with its messages, and matched against a log as
 * `filterLogs` matches.
 *
 * - `blockHash` or a `fromBlock`/`toBlock` range (block numbers or tags; both default to latest),
 *   never both;
 * - `address`: one address or an array of them (any of);
 * - `topics`: at most 4 positions; each null (anything), a topic, or an array of topics (any of;
 *   a null inside the array makes the position match anything, an empty array too). A log with
 *   fewer topics than positions does not match.
 * Keys match case-insensitively and the last of equal keys wins, as Go's decoder reads a struct.
 */
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { JsonNumber } from '../../core/jsonNumber';
import {
  type BlockNumberArg,
  type Parsed,
  bad,
  decodeHexBytes,
  good,
  jsonKind,
  parseBlockNumber,
  parseHash,
} from './goArguments';

export const MAX_TOPICS = 4;
const MAX_SUB_TOPICS = 1000;

export interface FilterCriteria {
  blockHash?: Hex;
  fromBlock?: BlockNumberArg;
  toBlock?: BlockNumberArg;
  /** Empty: any address. */
  addresses: Address[];
  /** Per position: null or empty = any topic. */
  topics: Array<Hex[] | null>;
}

const FIELDS = ['blockHash', 'fromBlock', 'toBlock', 'address', 'topics'] as const;
type Field = (typeof FIELDS)[number];

/** The value of each field as Go's decoder would pick it: case-insensitive keys, the last one wins. */
function fieldsOf(o: Record<string, unknown>): Partial<Record<Field, unknown>> {
  const out: Partial<Record<Field, unknown>> = {};
  for (const key of Object.keys(o)) {
    const f = FIELDS.find((name) => name.toLowerCase() === key.toLowerCase());
    if (f) out[f] = o[key];
  }
  return out;
}

/** Go's type error for a struct field (what hexutil's wrapped errors become inside `input`). */
const fieldTypeError = (message: string, field: string, type: string): string =>
  message.replace(
    /^json: cannot unmarshal (.*) into Go value of type .*$/,
    `json: cannot unmarshal $1 into Go struct field input.${field} of type ${type}`,
  );

function decodeSized(s: string, bytes: number, what: string): Parsed<Hex> {
  const b = decodeHexBytes(s);
  if (!b.ok) return b;
  const length = (b.value.length - 2) / 2;
  if (length !== bytes) return bad(`hex has invalid length ${length} after decoding; expected ${bytes} for ${what}`);
  return b;
}

function parseAddresses(v: unknown): Parsed<Address[]> {
  if (v === null || v === undefined) return good([]);
  if (typeof v === 'string') {
    const a = decodeSized(v, 20, 'address');
    return a.ok ? good([a.value as Address]) : bad(`invalid address: ${a.message}`);
  }
  if (Array.isArray(v)) {
    const out: Address[] = [];
    for (let i = 0; i < v.length; i++) {
      const item: unknown = v[i];
      if (typeof item !== 'string') return bad(`non-string address at index ${i}`);
      const a = decodeSized(item, 20, 'address');
      if (!a.ok) return bad(`invalid address at index ${i}: ${a.message}`);
      out.push(a.value as Address);
    }
    return good(out);
  }
  return bad('invalid addresses in query');
}

function parseTopics(raw: readonly unknown[]): Parsed<Array<Hex[] | null>> {
  if (raw.length > MAX_TOPICS) return bad('exceed max topics');
  const out: Array<Hex[] | null> = [];
  for (const t of raw) {
    if (t === null) {
      out.push(null);
    } else if (typeof t === 'string') {
      const h = decodeSized(t, 32, 'topic');
      if (!h.ok) return h;
      out.push([h.value]);
    } else if (Array.isArray(t)) {
      if (t.length > MAX_SUB_TOPICS) return bad('exceed max topics');
      let any: Hex[] | null = [];
      for (const item of t as unknown[]) {
        // A null alternative matches every topic; geth stops reading the list there.
        if (item === null) {
          any = null;
          break;
        }
        if (typeof item !== 'string') return bad('invalid topic(s)');
        const h = decodeSized(item, 32, 'topic');
        if (!h.ok) return h;
        any.push(h.value);
      }
      out.push(any);
    } else {
      return bad('invalid topic(s)');
    }
  }
  return good(out);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonNumber);

/** `FilterCriteria.UnmarshalJSON`. A JSON null is the empty filter (latest block, anything). */
export function parseFilterCriteria(v: unknown): Parsed<FilterCriteria> {
  const criteria: FilterCriteria = { addresses: [], topics: [] };
  if (v === null || v === undefined) return good(criteria);
  if (!isObject(v)) return bad(`json: cannot unmarshal ${jsonKind(v)} into Go value of type filters.input`);
  const f = fieldsOf(v);
  // Go's decoder stops at a field whose own decoder fails, and reports a plain type mismatch
  // (topics not an array) only after reading every field.
  let typeMismatch: string | undefined;
  for (const key of Object.keys(f) as Field[]) {
    const value = f[key];
    if (value === null || value === undefined) continue;
    if (key === 'blockHash') {
      const h = parseHash(value);
      if (!h.ok) return bad(fieldTypeError(h.message, 'blockHash', 'common.Hash'));
      criteria.blockHash = h.value;
    } else if (key === 'fromBlock' || key === 'toBlock') {
      const n = parseBlockNumber(value);
      if (!n.ok) return n;
      criteria[key] = n.value;
    } else if (key === 'topics' && !Array.isArray(value)) {
      typeMismatch ??= `json: cannot unmarshal ${jsonKind(value)} into Go struct field input.topics of type []interface {}`;
    }
  }
  if (typeMismatch) return bad(typeMismatch);
  if (criteria.blockHash && (criteria.fromBlock || criteria.toBlock))
    return bad('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other');
  const addresses = parseAddresses(f.address);
  if (!addresses.ok) return addresses;
  criteria.addresses = addresses.value;
  const topics = Array.isArray(f.topics) ? parseTopics(f.topics) : good([]);
  if (!topics.ok) return topics;
  criteria.topics = topics.value;
  return good(criteria);
}

/** geth `filterLogs` without the block bounds: address any-of, then topics position by position. */
export function logMatches(
  log: { address: string; topics: readonly string[] },
  criteria: Pick<FilterCriteria, 'addresses' | 'topics'>,
): boolean {
  if (criteria.addresses.length > 0 && !criteria.addresses.includes(log.address.toLowerCase() as Address)) return false;
  if (criteria.topics.length > log.topics.length) return false;
  for (let i = 0; i < criteria.topics.length; i++) {
    const any = criteria.topics[i];
    if (!any || any.length === 0) continue;
    if (!any.includes(log.topics[i]!.toLowerCase() as Hex)) return false;
  }
  return true;
}
