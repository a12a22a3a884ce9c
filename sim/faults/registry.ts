/**
 * Every fault kind, in one list: adding a fault is one file in this folder and one line here.
 * The scenario decoder and encoder, the domains (which side applies a fault, how it starts and
 * ends), the oracle suite's excuses and the swarm profiles all read this registry.
 *
 * The order is the swarm profiles' order (a profile walks the drawable kinds in this order, so a
 * kind added at the end leaves the draws of the others alone only up to that point: a new kind
 * changes the swarm scenarios of many seeds, as a new fault in the mix should).
 */
import { InputError } from '../../src/core/errors';
import { durationText } from '../../src/core/duration';
import { type Obj, type Reader, describeValue } from '../core/reader';
import {
  type DecodeContext,
  type FaultDef,
  type FaultPhase,
  type FaultSite,
  type FaultTiming,
  type HeightTrigger,
  type TriggerChain,
} from './fault';
import { type CrashFault, crash } from './crash';
import { type PauseFault, pause } from './pause';
import { type PartitionFault, partition } from './partition';
import { type LinkFault, link } from './link';
import { type ClockSkewFault, clockSkew } from './clockSkew';
import { type OfflineProducerFault, offlineProducer } from './offlineProducer';
import { type SlowProducerFault, slowProducer } from './slowProducer';
import { type IsolateProducerFault, isolateProducer } from './isolateProducer';
import { type OfflineCheckpointProposerFault, offlineCheckpointProposer } from './offlineCheckpointProposer';
import { type EquivocatingProducerFault, equivocatingProducer } from './equivocatingProducer';
import { type EarlySealFault, earlySeal } from './earlySeal';
import { type OneWayPartitionFault, oneWayPartition } from './oneWayPartition';
import { type DoubleSignFault, doubleSign } from './doubleSign';
import { type ByzantineValidatorsFault, byzantineValidators } from './byzantineValidators';
import { type RoundShiftFault, roundShift } from './roundShift';
import { type ReplayMessagesFault, replayMessages } from './replayMessages';
import { type SplitVoteFault, splitVote } from './splitVote';
import { type ByzantineTxsFault, byzantineTxs } from './byzantineTxs';
import { type OutsiderBlocksFault, outsiderBlocks } from './outsiderBlocks';
import { type SetHeadFault, setHead } from './setHead';
import { type LateCheckpointFault, lateCheckpoint } from './lateCheckpoint';
import { type ByzantineBlocksFault, byzantineBlocks } from './byzantineBlocks';

export type { TriggerChain } from './fault';

/** A fault of a scenario: its timing and exactly its kind's fields. */
export type FaultSpec =
  | CrashFault
  | PauseFault
  | PartitionFault
  | LinkFault
  | ClockSkewFault
  | OfflineProducerFault
  | SlowProducerFault
  | IsolateProducerFault
  | OfflineCheckpointProposerFault
  | EquivocatingProducerFault
  | EarlySealFault
  | OneWayPartitionFault
  | DoubleSignFault
  | ByzantineValidatorsFault
  | RoundShiftFault
  | ReplayMessagesFault
  | SplitVoteFault
  | ByzantineTxsFault
  | OutsiderBlocksFault
  | SetHeadFault
  | LateCheckpointFault
  | ByzantineBlocksFault;

export type FaultKind = FaultSpec['kind'];

type Registry = { [K in FaultKind]: FaultDef<Extract<FaultSpec, { kind: K }>> };

const REGISTRY: Registry = {
  crash,
  pause,
  partition,
  link,
  clockSkew,
  offlineProducer,
  slowProducer,
  isolateProducer,
  offlineCheckpointProposer,
  equivocatingProducer,
  earlySeal,
  oneWayPartition,
  doubleSign,
  byzantineValidators,
  roundShift,
  replayMessages,
  splitVote,
  byzantineTxs,
  outsiderBlocks,
  setHead,
  lateCheckpoint,
  byzantineBlocks,
};

export const FAULT_KINDS: readonly FaultKind[] = Object.keys(REGISTRY) as FaultKind[];

/** The definition of a fault's kind. */
export function faultDef<F extends FaultSpec>(f: F | F['kind']): FaultDef<F> {
  const kind = typeof f === 'string' ? f : f.kind;
  return REGISTRY[kind] as unknown as FaultDef<F>;
}

export function isFaultKind(k: string): k is FaultKind {
  return Object.hasOwn(REGISTRY, k);
}

/** The kinds a swarm profile draws from, in registry order. */
export function swarmKinds(): FaultKind[] {
  return FAULT_KINDS.filter((k) => faultDef(k).swarm !== undefined);
}

// --- decode / encode -------------------------------------------------------------------------

/** One fault of a scenario file (`r` is its path, `faults[i]`). */
export function decodeFault(r: Reader, value: unknown, ctx: DecodeContext): FaultSpec {
  const o = r.obj(value);
  const kind = r.str(o, 'kind');
  if (!isFaultKind(kind))
    throw new InputError(r.at('kind'), `unknown fault kind ${describeValue(kind)}; kinds: ${FAULT_KINDS.join(', ')}`);
  const def = faultDef(kind);
  r.noExtra(o, ['kind', 'at', 'atHeight', 'atRound', 'for', ...def.fields]);
  const timing: FaultTiming = {};
  if (o.atHeight === undefined) timing.atMs = r.duration(o, 'at', 0);
  else if (o.at !== undefined)
    throw new InputError(r.at('atHeight'), 'give either at (a time) or atHeight (a height), not both');
  else timing.atHeight = decodeHeightTrigger(r.child('atHeight'), o.atHeight);
  if (o.atRound !== undefined) {
    if (o.atHeight !== undefined)
      throw new InputError(r.at('atRound'), 'atRound waits from a time (at), not from a height (atHeight)');
    timing.atRound = r.int(o, 'atRound', undefined, 1, MAX_TRIGGER_ROUND);
  }
  if (o.for !== undefined) timing.forMs = r.duration(o, 'for');
  const f = { kind, ...timing, ...def.decode(r, o, ctx) } as FaultSpec;
  if (f.atHeight !== undefined) checkTriggerSide(`${r.path}.atHeight.${f.atHeight.chain}`, f, f.atHeight.chain);
  if (f.atRound !== undefined) checkTriggerSide(`${r.path}.atRound`, f, 'service', 'round');
  return f;
}

/** The highest round an `atRound` trigger may name (a round past it is a stall no run waits for). */
export const MAX_TRIGGER_ROUND = 100;

function decodeHeightTrigger(r: Reader, value: unknown): HeightTrigger {
  const o: Obj = r.obj(value);
  r.noExtra(o, ['service', 'sidechain']);
  const keys = Object.keys(o);
  if (keys.length !== 1)
    throw new InputError(
      r.path,
      `expected exactly one of service, sidechain with a height, e.g. {"service": 120}, got ${keys.length} fields`,
    );
  const chain = keys[0] as TriggerChain;
  return { chain, height: r.int(o, chain, undefined, 1) };
}

/** A fault as a scenario file writes it (durations with units; the inverse of decodeFault). */
export function encodeFault(f: FaultSpec): Record<string, unknown> {
  return {
    kind: f.kind,
    ...(f.atHeight !== undefined
      ? { atHeight: { [f.atHeight.chain]: f.atHeight.height } }
      : { at: durationText(f.atMs ?? 0) }),
    ...(f.atRound !== undefined ? { atRound: f.atRound } : {}),
    ...(f.forMs !== undefined ? { for: durationText(f.forMs) } : {}),
    ...faultDef(f).encode(f),
  };
}

// --- where a fault acts ----------------------------------------------------------------------

/**
 * Which side a fault acts on: the sidechain's (sc-* nodes, the producer faults) or the service
 * chain's (service nodes, the parent chain, the service-only kinds); a link or one-way partition
 * acts where its senders are. The runner places faults by the same rule (faultDomains in
 * sim/domain/faultBook.ts: the service side is the main domain).
 */
export function faultSides(f: FaultSpec): ReadonlySet<TriggerChain> {
  return faultDef(f).sides(f);
}

/** Whether a fault's start re-plans a sidechain node at once (see FaultDef.startReplansSidechainNode). */
export function faultStartReplansSidechainNode(f: FaultSpec): boolean {
  return faultDef(f).startReplansSidechainNode === true;
}

/** Whether a fault may silence every producer (the backup-step-in oracle excuses its window). */
export function faultSilencesProducers(f: FaultSpec): boolean {
  return faultDef(f).silencesProducers?.(f) ?? false;
}

/** Start or end a fault in one of the domains it applies to; the detail to record. */
export function applyFault(f: FaultSpec, site: FaultSite, phase: FaultPhase): string {
  return faultDef(f).apply(f, site, phase);
}

/**
 * A height trigger is watched inside the domain whose nodes the fault acts on, so the decision
 * and the fault happen on one engine, at one virtual time, whichever thread runs it. A fault
 * acting on the other chain's side (or on both) would need the trigger to cross domains: give it
 * a time instead.
 */
function checkTriggerSide(field: string, f: FaultSpec, chain: TriggerChain, what: 'height' | 'round' = 'height'): void {
  const sides = faultSides(f);
  if (sides.size === 1 && sides.has(chain)) return;
  const serviceKinds = FAULT_KINDS.filter((k) => faultDef(k).fixedSide === 'service');
  const service = `service nodes (svc-*), the parent chain, ${serviceKinds.join(', ')}`;
  const sidechain = 'sidechain nodes (sc-*) and the producer faults';
  const actsOn =
    sides.size === 0
      ? 'no node'
      : sides.size === 2
        ? 'both service and sidechain nodes'
        : sides.has('sidechain')
          ? 'sidechain nodes'
          : 'the service side';
  throw new InputError(
    field,
    what === 'round'
      ? `a consensus round can only trigger a fault on ${service}; this ${f.kind} acts on ${actsOn}: give it a plain time (at, without atRound)`
      : `a ${chain} height can only trigger a fault on ${chain === 'service' ? service : sidechain}; this ${f.kind} acts on ${actsOn}: ${sides.size === 1 ? `use atHeight.${[...sides][0]} or ` : ''}give it a time (at)`,
  );
}
