/**
 * Which records a run keeps to its end (`main.records`, `sidechainRecords`). Every record is seen
 * as it is released, in canonical order, by the oracles and by a caller's `onRecord`; what a run
 * keeps afterwards is what its metrics, its report and the message reach read.
 *
 * Not kept: the per-message consensus records — each validator's signed votes (`consensus.vote`),
 * each node's first proposal of a round (`consensus.proposal`) and each node's round changes
 * (`consensus.round`). At 105 validators they were about half of the records a run kept, and with
 * their facts a tenth of an hour-long run's heap; nothing reads them after the run. A caller that
 * wants them (a test of Byzantine votes, a tool) takes them from `onRecord`.
 */
import { type RunObservation } from './record';

const NOT_KEPT: ReadonlySet<string> = new Set(['consensus.vote', 'consensus.proposal', 'consensus.round']);

/** Whether the run keeps a record of this observation after the oracles saw it. */
export function keptAfterRun(obs: RunObservation): boolean {
  return !NOT_KEPT.has(obs.kind);
}
