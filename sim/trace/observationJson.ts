/**
 * The one place observations become text: the trace's `data` field, the devnet's log lines.
 * JSON of the observation without its `kind` (the trace line carries it), bigints as decimal
 * strings (exact, whatever reads them). Key order is the order the reporting code wrote them in,
 * so the text, and the trace hash it folds into, is deterministic.
 */
import { type RunObservation } from '../domain/observation';

const bigintsAsStrings = (_key: string, value: unknown): unknown =>
  typeof value === 'bigint' ? value.toString() : value;

export function observationJson(obs: RunObservation): string {
  const { kind: _kind, ...rest } = obs;
  return JSON.stringify(rest, bigintsAsStrings);
}
