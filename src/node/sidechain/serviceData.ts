/**
 * What a sidechain node fetched from its service node (its local Heimdall): spans by id and
 * state-sync records by id, kept in memory (a crash loses them; they are fetched again), and the
 * polls that keep them coming.
 */
import { type CommittedSpan, type StateSyncRecord, type SystemState, currentSpan } from '../../sidechain/systemState';
import { type NodeMessage } from '../messages';

export class ServiceData {
  private spans = new Map<bigint, CommittedSpan>();
  private records = new Map<bigint, StateSyncRecord>();

  span(id: bigint): CommittedSpan | null {
    return this.spans.get(id) ?? null;
  }

  /** The consecutive records from `fromId` made before `toTimeS` (what a sprint-start block commits). */
  stateSyncs(fromId: bigint, toTimeS: bigint): StateSyncRecord[] {
    const out: StateSyncRecord[] = [];
    for (let id = fromId; ; id++) {
      const r = this.records.get(id);
      if (!r || !(r.timeS < toTimeS)) break;
      out.push(r);
    }
    return out;
  }

  addSpan(id: bigint, span: CommittedSpan): void {
    this.spans.set(id, span);
  }

  addRecords(records: readonly StateSyncRecord[]): void {
    for (const r of records) this.records.set(r.id, r);
  }

  /** The requests of one poll: the next span (unless held), the records after the last committed one, the last checkpoint. */
  polls(state: SystemState): NodeMessage[] {
    const next = currentSpan(state).id + 1n;
    return [
      ...(this.spans.has(next) ? [] : [{ kind: 'svc.getSpan', id: next } as const]),
      { kind: 'svc.getStateSyncs', fromId: state.lastStateId + 1n },
      { kind: 'svc.getCheckpoint' },
    ];
  }
}
