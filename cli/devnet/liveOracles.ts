/**
 * The devnet's view of the run's oracles. The run's own OracleSuite is fed every record as the
 * network runs (sim/run/run.ts), on a devnet as in any run; this adapter only reads its public surface
 * (`violations()`) after each window and reports each violation once, when it first appears, so the
 * daemon log and `lockstep node status` show it. The end-of-run checks (convergence after a heal,
 * checkpoint roots, backups over the whole chain) run when a report is written.
 */
import { type Violation } from '../../sim/oracles/oracle';

export class LiveOracles {
  /** Violations already reported, across rebuilds of the run (a revert replays the same history). */
  private readonly reported = new Set<string>();

  constructor(
    private source: () => Violation[],
    private readonly onNew: (v: Violation) => void,
  ) {}

  /** Read another run's oracles (after a revert rebuilt the network). */
  follow(source: () => Violation[]): void {
    this.source = source;
  }

  /** Look for new violations (after a window). */
  check(): void {
    for (const v of this.source()) {
      const key = `${v.oracle}@${v.atMs}@${v.node}`;
      if (this.reported.has(key)) continue;
      this.reported.add(key);
      this.onNew(v);
    }
  }

  /** The violations of the run as it is now. */
  list(): Violation[] {
    return this.source();
  }
}
