/**
 * Oracles check the run from outside the nodes. Each consumes plain observations (what the nodes
 * record as they commit, import, vote and reorg) and reports its FIRST violation with the time, the
 * node and the evidence. An oracle is either about safety (something wrong happened) or liveness
 * (something that should have happened did not).
 */
export type OracleClass = 'safety' | 'liveness';

export interface Violation {
  oracle: string;
  class: OracleClass;
  atMs: number;
  node: string;
  message: string;
  evidence: Record<string, unknown>;
}

/** What nodes record (the cluster's record stream), in delivery order. */
export interface Observation {
  t: number;
  node: string;
  kind: string;
  data: Record<string, unknown>;
}

export abstract class Oracle {
  abstract readonly name: string;
  abstract readonly class: OracleClass;
  private first: Violation | null = null;

  get violation(): Violation | null {
    return this.first;
  }

  /** Record a violation; only the first one is kept. */
  protected fail(atMs: number, node: string, message: string, evidence: Record<string, unknown> = {}): void {
    if (this.first === null) this.first = { oracle: this.name, class: this.class, atMs, node, message, evidence };
  }

  /** Look at one observation (most oracles care about a few kinds). */
  observe(_o: Observation): void {}
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : String(v);
}

export function big(v: unknown): bigint {
  return typeof v === 'bigint' ? v : BigInt(str(v));
}
