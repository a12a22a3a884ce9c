/**
 * Facts the trace writes once. A block's facts come again in every node's record: every sidechain
 * node imports the same block (`sidechain.imported.block`), every service node commits the same
 * transactions, side transactions and writes (`service.commit.txs`, `.sideTxs`, `.writes`), and
 * every node reports the same genesis. The first time a fact's text appears in a domain's trace it
 * is written in full, as `{"$fact":N,"value":TEXT}`; each later time as `{"$fact":N}`. N counts the
 * facts of that trace in the order they first appeared.
 *
 * A fact is known by its text, not by the object that holds it, so the trace stays a pure function
 * of the record sequence: nodes that hold equal facts in different objects (a node that executed a
 * block itself, one that adopted a shared execution record) write the same trace. The table keeps
 * the last MAX_FACTS facts; one met again after it fell out is written in full again, under a new
 * number (that too depends only on the records).
 */

/** The fields of each observation kind whose values are facts written once (when long enough to be worth it). */
export const FACT_FIELDS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['sidechain.imported', new Set(['block'])],
  ['sidechain.started', new Set(['genesis'])],
  ['service.commit', new Set(['txs', 'sideTxs', 'writes'])],
  ['service.genesis', new Set(['state'])],
]);

/** Texts shorter than this are written in full every time (a reference would not be shorter). */
export const MIN_FACT_CHARS = 48;

/** Facts remembered per trace (about an hour of a hundred-validator network's blocks). */
export const MAX_FACTS = 8192;

export class FactTable {
  private readonly numbers = new Map<string, number>();
  private next = 0;

  /** What the trace writes for the fact whose JSON text is `text`. */
  refer(text: string): string {
    if (text.length < MIN_FACT_CHARS) return text;
    const n = this.numbers.get(text);
    if (n !== undefined) return `{"$fact":${n}}`;
    if (this.numbers.size >= MAX_FACTS) this.numbers.delete(this.numbers.keys().next().value!);
    const id = this.next++;
    this.numbers.set(text, id);
    return `{"$fact":${id},"value":${text}}`;
  }
}
