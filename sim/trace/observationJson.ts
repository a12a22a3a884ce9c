/**
 * The one place observations become text: the trace's `data` field, the devnet's log lines.
 * JSON of the observation without its `kind` (the trace line carries it), bigints as decimal
 * strings (exact, whatever reads them). Given a trace's fact table, a block's facts are written
 * once and referred to afterwards (factTable.ts). Key order is the order the reporting code wrote them in,
 * so the text, and the trace hash it folds into, is deterministic.
 *
 * The text is exactly `JSON.stringify(rest, bigintsAsStrings)`, written by a small serializer that
 * remembers the text of frozen facts: the nodes of a run report the same facts again and again
 * (every node's commit lists the same precommits, as one shared frozen fact per vote: see
 * src/node/service/reporting.ts), and a frozen object whose values are all primitives or frozen
 * objects cannot change, so its text is written once per process. Anything the fast path does not
 * know (class instances, arrays of bytes, `toJSON`) goes through JSON.stringify itself.
 */
import { boundedMemo } from '../../src/core/memo';
import { type RunObservation } from '../core/record';
import { FACT_FIELDS, type FactTable } from './factTable';

const bigintsAsStrings = (_key: string, value: unknown): unknown =>
  typeof value === 'bigint' ? value.toString() : value;

/**
 * The text of frozen facts (immutable all the way down, see `deep`), by identity. Bounded, not
 * weak: a run keeps its records (and so their facts) to the end for its metrics and report, and a
 * weak cache kept every fact's text alive beside them. The nodes of a run write the same fact
 * within a height or two of each other, well inside the bound; a fact written again after it fell
 * out is written anew (the same text: the cache changes the cost only). 16,384 facts cover
 * dozens of heights of a 105-validator network's votes and commits.
 */
const frozenFactJson = boundedMemo<object, string>('observationJson.frozenFacts', 16_384);

/** Cleared by `write` when it meets a value that is not immutable (the text of its parent is not cached). */
let deep = true;

/**
 * Fields the text leaves out: detail an oracle reads that is a pure function of what the trace
 * already holds. A client transaction's `admission` (the pool and head its answer was given on) is
 * fixed by the events before it; it came after the trace's form was settled, and writing it would
 * change the trace hash of every run with sidechain transfers while adding nothing the hash does
 * not already determine.
 */
const UNTRACED_FIELDS: ReadonlyMap<string, ReadonlySet<string>> = new Map([['sidechain.tx', new Set(['admission'])]]);

export function observationJson(obs: RunObservation, facts?: FactTable): string {
  let out = '{';
  let first = true;
  const factFields = facts === undefined ? undefined : FACT_FIELDS.get(obs.kind);
  const untraced = UNTRACED_FIELDS.get(obs.kind);
  for (const key of Object.keys(obs)) {
    if (key === 'kind' || untraced?.has(key)) continue;
    let text = write((obs as unknown as Record<string, unknown>)[key]);
    if (text === undefined) continue;
    if (factFields?.has(key)) text = facts!.refer(text);
    out += `${first ? '' : ','}${JSON.stringify(key)}:${text}`;
    first = false;
  }
  return `${out}}`;
}

/** JSON.stringify(value, bigintsAsStrings) of one value (undefined where it would omit a property). */
function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'bigint':
      return `"${value}"`;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      return writeObject(value);
    default:
      // undefined, functions and symbols: omitted (JSON.stringify's rule).
      return undefined;
  }
}

function writeObject(value: object): string {
  const proto = Object.getPrototypeOf(value);
  const plain = Array.isArray(value) ? proto === Array.prototype : proto === Object.prototype || proto === null;
  if (!plain || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    deep = false;
    return JSON.stringify(value, bigintsAsStrings);
  }
  const frozen = Object.isFrozen(value);
  let out: string;
  if (frozen) {
    const hit = frozenFactJson.get(value);
    if (hit !== undefined) return hit;
  }
  const outer = deep;
  deep = true;
  // Parts joined once: the text comes out flat (built with +=, a cached text would keep a rope of
  // every small piece alive for the whole run, and hashing it would flatten it every time).
  if (Array.isArray(value)) {
    const parts: string[] = ['['];
    for (let i = 0; i < value.length; i++) {
      if (i > 0) parts.push(',');
      parts.push(write(value[i]) ?? 'null');
    }
    parts.push(']');
    out = parts.join('');
  } else {
    const parts: string[] = ['{'];
    for (const key of Object.keys(value)) {
      const text = write((value as Record<string, unknown>)[key]);
      if (text === undefined) continue;
      if (parts.length > 1) parts.push(',');
      parts.push(JSON.stringify(key), ':', text);
    }
    parts.push('}');
    out = parts.join('');
  }
  const immutable = frozen && deep;
  if (immutable) frozenFactJson.set(value, out);
  deep = outer && immutable;
  return out;
}
