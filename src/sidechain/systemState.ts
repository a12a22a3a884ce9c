/**
 * The sidechain state that consensus depends on: the SidechainValidatorSet genesis contract (spans
 * committed by system call) and the StateReceiver (sequential state-sync ids). Immutable: a block's
 * system calls produce a new state; unchanged parts are shared between blocks.
 */
import { weakMemo } from '../core/memo';
import { isPlanted } from '../core/plants';
import { type Address, compareAddresses } from '../core/address';
import { type Hex, toHex } from '../core/bytes';
import { canonicalJson } from '../core/canonicalJson';
import { keccak256Bytes } from '../core/hash';
import { utf8 } from '../core/bytes';

export interface SpanProducer {
  id: bigint;
  address: Address;
  power: bigint;
}

export interface CommittedSpan {
  id: bigint;
  startBlock: bigint;
  endBlock: bigint;
  producers: SpanProducer[];
}

export interface StateSyncRecord {
  id: bigint;
  contract: Address;
  data: Hex;
  txHash: Hex;
  logIndex: bigint;
  chainId: string;
  /** Record time on the service, whole seconds. */
  timeS: bigint;
}

export interface SystemState {
  /** The genesis producers (span 0, up to FIRST_END_BLOCK). */
  readonly initialProducers: readonly SpanProducer[];
  /** Spans committed by system call, in id order (span 0 is implicit, as in the contract). */
  readonly spans: readonly CommittedSpan[];
  readonly lastStateId: bigint;
}

export function genesisSystemState(initialProducers: readonly SpanProducer[]): SystemState {
  return { initialProducers: sortProducers([...initialProducers]), spans: [], lastStateId: 0n };
}

export function sortProducers(ps: SpanProducer[]): SpanProducer[] {
  return ps.sort((a, b) => compareAddresses(a.address, b.address));
}

/** `getCurrentSpan`: the latest committed span, or span 0 with endBlock 0 when none was committed. */
export function currentSpan(s: SystemState): { id: bigint; startBlock: bigint; endBlock: bigint } {
  const last = s.spans[s.spans.length - 1];
  return last ?? { id: 0n, startBlock: 0n, endBlock: 0n };
}

/** `getSpanByBlock(n)`: the latest span whose range contains n, else the latest span. */
export function spanByBlock(s: SystemState, n: bigint): CommittedSpan | undefined {
  for (let i = s.spans.length - 1; i >= 0; i--) {
    const sp = s.spans[i]!;
    if (sp.startBlock <= n && n <= sp.endBlock) return sp;
  }
  return s.spans[s.spans.length - 1];
}

/** `getBorValidators(n)`: the initial producers up to FIRST_END_BLOCK, then the span's producers. */
export function producersForBlock(s: SystemState, n: bigint, firstSpanEnd: bigint): readonly SpanProducer[] {
  if (n <= firstSpanEnd) return s.initialProducers;
  return spanByBlock(s, n)?.producers ?? s.initialProducers;
}

/**
 * Whether block `number` (a sprint start) commits the next span: when nothing was committed yet,
 * or at the first block of the current span's last sprint (reference §2.7). A commit that could not
 * be made at that block (the service did not have the span yet) is made at a later sprint start
 * rather than never — Bor would stop producing instead; Lockstep keeps the chain live and lets the
 * span oracle report the late commit.
 */
export function needsSpanCommit(s: SystemState, number: bigint, sprint: bigint): boolean {
  if (number % sprint !== 0n) return false;
  const cur = currentSpan(s);
  if (cur.endBlock === 0n) return true;
  return cur.endBlock > sprint && number >= cur.endBlock - sprint + 1n + (isPlanted('span-commit-late') ? sprint : 0n);
}

/** The contract's commitSpan checks; returns the reason for a rejection or null. */
export function checkSpanCommit(s: SystemState, span: CommittedSpan, sprint: bigint): string | null {
  const cur = currentSpan(s);
  if (span.id !== cur.id + 1n) return `span id ${span.id} is not current + 1 (${cur.id + 1n})`;
  if (!(span.endBlock > span.startBlock)) return 'endBlock must be after startBlock';
  if ((span.endBlock - span.startBlock + 1n) % sprint !== 0n) return 'span length must be a multiple of the sprint';
  if (cur.startBlock > span.startBlock) return 'span starts before the current span';
  if (span.producers.length === 0) return 'span has no producers';
  return null;
}

export function commitSpan(s: SystemState, span: CommittedSpan): SystemState {
  return { ...s, spans: [...s.spans, { ...span, producers: sortProducers([...span.producers]) }] };
}

/** StateReceiver.commitState: ids must be sequential ("StateIds are not sequential"). */
export function checkStateSync(s: SystemState, r: StateSyncRecord): string | null {
  return r.id === s.lastStateId + 1n
    ? null
    : `StateIds are not sequential: got ${r.id}, expected ${s.lastStateId + 1n}`;
}

export function commitStateSync(s: SystemState, r: StateSyncRecord): SystemState {
  return { ...s, lastStateId: r.id };
}

const rootCache = weakMemo<SystemState, Hex>('sidechain.systemStateRoots');

/** The state root a header commits to: keccak over the canonical system state (cached per state object). */
export function systemStateRoot(s: SystemState): Hex {
  return rootCache.getOrCompute(s, () => computeRoot(s));
}

function computeRoot(s: SystemState): Hex {
  return toHex(
    keccak256Bytes(
      utf8(
        canonicalJson({
          initialProducers: s.initialProducers,
          spans: s.spans,
          lastStateId: s.lastStateId,
        }),
      ),
    ),
  );
}
