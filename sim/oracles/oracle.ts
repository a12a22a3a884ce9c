/**
 * Oracles check a run from outside the nodes. Each reads the typed observation stream (raw facts
 * the nodes report: blocks imported, blocks committed with their votes and state writes,
 * transactions delivered) and keeps its own small model of the rule it guards, written from the
 * spec and the reference; none calls the code it checks (a tidy rule enforces that
 * sim/oracles imports only hashing and byte helpers and types from src/). Each reports its FIRST
 * violation with the time, the node and the evidence. An oracle is about safety (something wrong
 * happened) or liveness (something that should have happened did not).
 */
import { type RunObservation, type RunRecord } from '../core/record';
import { type RuleId } from './ruleId';

export type { RunRecord } from '../core/record';

/** The kind of a record (an observation's `kind`). */
export type RecordKind = RunObservation['kind'];

export type OracleClass = 'safety' | 'liveness';

export interface Violation {
  oracle: string;
  class: OracleClass;
  atMs: number;
  node: string;
  message: string;
  /** Plain JSON values (numbers, strings): bigints are given as decimal strings. */
  evidence: Record<string, unknown>;
}

export abstract class Oracle {
  abstract readonly name: string;
  abstract readonly class: OracleClass;
  /**
   * The kinds of record this oracle reads. The suite hands it records of these kinds and no others
   * (suite.ts): a run's records go to the oracles that read them, not to every oracle.
   * `routing.test.ts` holds every oracle to its list: a record of a kind it does not declare must
   * leave it untouched (its observe reads nothing of such a record but the kind).
   */
  abstract readonly reads: readonly RecordKind[];
  private first: Violation | null = null;
  private readonly rulesSeen = new Set<RuleId>();

  /**
   * The rules (ids of the rule inventory) this oracle judged at least once in this run: a rule is
   * exercised when its guard saw an event the rule speaks about, whether it held or not.
   */
  get exercised(): ReadonlySet<RuleId> {
    return this.rulesSeen;
  }

  /**
   * The rules an oracle whose rule ids come from a model (not from literal `saw` calls) may name,
   * declared as `static readonly judges = [...]` on its class: the inventory check reads the list,
   * and `saw` refuses an id outside it.
   */
  private readonly judges: ReadonlySet<string> | null = (() => {
    const list = (this.constructor as { judges?: readonly RuleId[] }).judges;
    return list === undefined ? null : new Set<string>(list);
  })();

  private readSet: ReadonlySet<string> | null = null;

  /** Whether `kind` is one of `reads` (for an oracle whose observe does work before it looks at the kind). */
  protected readsKind(kind: RecordKind): boolean {
    this.readSet ??= new Set<string>(this.reads);
    return this.readSet.has(kind);
  }

  /** Note that this oracle has just judged `rule` on a relevant event. */
  protected saw(rule: RuleId): void {
    if (this.judges !== null && !this.judges.has(rule))
      throw new Error(`oracle ${this.name} names rule ${rule}, which its judges list does not declare`);
    this.rulesSeen.add(rule);
  }

  get violation(): Violation | null {
    return this.first;
  }

  /** Record a violation; only the first one is kept. */
  protected fail(atMs: number, node: string, message: string, evidence: Record<string, unknown> = {}): void {
    if (this.first === null)
      this.first = { oracle: this.name, class: this.class, atMs, node, message, evidence: plain(evidence) };
  }

  /** Look at one record (of a kind in `reads`, when the suite hands it over). */
  observe(_r: RunRecord): void {}
}

/** Evidence as plain JSON: bigints become decimal strings (reports and summaries serialise it). */
function plain(e: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(e, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as Record<
    string,
    unknown
  >;
}
