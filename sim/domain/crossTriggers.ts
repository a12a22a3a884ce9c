/**
 * The lookahead of the conservative windows: which events can make a node of a domain send a
 * message to the other domain. Cross-domain traffic is RPC between a service node and its
 * sidechain node, so it comes in two sorts:
 *
 *  - requests (a poll): sent only on a poll timer (`pollSidechain`, `pollService`), which a node
 *    sets when it starts; a fault may restart a node, so a fault event counts as a request trigger;
 *  - answers: sent only on delivering a request from the other domain.
 *
 * An answer never provokes anything across, so a domain's request times do not depend on the
 * other domain at all, and its answer times only on the other domain's requests. The window
 * scheduler (windowScheduler.ts) uses both to give each domain the longest safe window.
 *
 * The table mirrors the node shells (src/node): a service node calls its sidechain node only on its
 * `pollSidechain` timer and answers `svc.get*`; a sidechain node calls its service node only on its
 * `pollService` timer and answers `sc.getHeaders`. If a node ever sends across at another moment,
 * the domain's boundary assertion fails (a crash, the same in both placements, naming the node and
 * the message): extend the table. Nothing is silently reordered.
 */
import { type DomainName } from './runSetup';

export interface CrossSendTriggers {
  /** Timer tags (`tag.kind`) whose handler may send a request across. */
  requestTimers: ReadonlySet<string>;
  /** Message kinds this domain's nodes receive as requests (and answer across at once). */
  requests: ReadonlySet<string>;
}

export const CROSS_SEND_TRIGGERS: Record<DomainName, CrossSendTriggers> = {
  main: {
    requestTimers: new Set(['pollSidechain']),
    requests: new Set(['svc.getSpan', 'svc.getStateSyncs', 'svc.getCheckpoint']),
  },
  sidechain: { requestTimers: new Set(['pollService']), requests: new Set(['sc.getHeaders']) },
};

/** True when a message from `from`'s domain to `to`'s domain is a request (not an answer). */
export function isCrossRequest(receiver: DomainName, kind: string): boolean {
  return CROSS_SEND_TRIGGERS[receiver].requests.has(kind);
}
