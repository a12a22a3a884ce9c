/**
 * What a fault kind is, in one place: each kind is one file in sim/faults/ that exports a
 * `FaultDef` (how its own fields decode from a scenario file and encode back, which side of the
 * run it acts on, how it starts and ends in a domain, how a swarm profile draws it), and one line
 * in registry.ts lists it. The scenario decoder, the domains, the shrinker and the swarm profiles
 * go through the registry, never through a switch on the kind.
 *
 * The common part of every fault (when it fires and how long it lasts) is `FaultTiming`; a kind
 * adds exactly its own fields.
 */
import { InputError, assert } from '../../src/core/errors';
import { type Rng } from '../env/rng';
import { type HeightTrigger, type TriggerChain } from '../core/record';
import { type FaultSite, type MainTarget, type SidechainTarget } from './targets';

export type { FaultSite } from './targets';

export type { HeightTrigger, TriggerChain } from '../core/record';
import { type Obj, type Reader, describeValue } from '../core/reader';
import { NODE_ID, type Schema } from '../core/schemaParts';

export interface FaultTiming {
  /** When it fires (virtual ms from the start); absent for a height trigger. Exactly one of `atMs` / `atHeight`. */
  atMs?: number;
  /** Fires when the chain first reaches a height instead (see HeightTrigger). */
  atHeight?: HeightTrigger;
  /**
   * With `atMs`: the fault waits from `atMs` for the first moment a live service node enters a
   * consensus round of at least this number (any height), and fires then: a crash or a partition
   * at an awkward step of consensus, which a time cannot aim at (see heightTriggers.ts).
   */
  atRound?: number;
  /** How long the fault lasts, from the moment it fired; undefined = until the end of the run. */
  forMs?: number;
}

/** The fields a fault kind adds to the timing (without `kind`). */
export type FaultFields<F> = Omit<F, 'kind' | keyof FaultTiming>;

/** What a kind's decoder may check its fields against. */
export interface DecodeContext {
  validatorCount: number;
  /** Every node id of the scenario: `parent`, `svc-1..n`, `sc-1..n`. */
  nodes: ReadonlySet<string>;
  /** Each validator's stake in tokens (1-based index = position + 1). */
  stakes: readonly bigint[];
}

export interface FaultPhase {
  start: boolean;
  /** The fault's index in the scenario (stable across domains; keys any state a fault keeps). */
  index: number;
}

/** What a swarm profile gives a kind's drawer: the network and the draws every fault gets. */
export interface SwarmDrawContext {
  /** Validators in the swarm network. */
  validatorCount: number;
  /** A validator index drawn for this fault (1-based); kinds that target one validator use it. */
  validator: number;
  /** Each validator's stake in tokens. */
  stakes: readonly bigint[];
  /**
   * The seed's Byzantine coalition (1-based indexes): every Byzantine fault of the seed draws its
   * validators from it, so their union keeps to the profile's power budget (below 1/3 of the
   * power in the default profile, at least 1/3 in `byzantine-third`).
   */
  coalition: readonly number[];
}

export interface FaultDef<F extends { kind: string } = { kind: string }> {
  readonly kind: F['kind'];
  /** One line for docs and the schema. */
  readonly summary: string;
  /** The fields it takes besides kind, at, atHeight and for (the file's allowed keys). */
  readonly fields: readonly string[];
  /** Its fields' JSON Schema (sim/core/schemaParts.ts; the scenario schema adds kind and the timing). */
  readonly schema: { properties: Record<string, Schema>; required?: readonly string[] };
  decode(r: Reader, o: Obj, ctx: DecodeContext): FaultFields<F>;
  /** Its fields as a scenario file writes them (durations with units). */
  encode(f: F): Record<string, unknown>;
  /**
   * Which side it acts on (the domains that apply it): the sides of the nodes it names, or a
   * fixed side for the kinds that name validators.
   */
  sides(f: F): ReadonlySet<TriggerChain>;
  /** The side to name in error messages when it is fixed (null: where its nodes are). */
  readonly fixedSide: TriggerChain | null;
  /**
   * Its start re-plans a sidechain node at once (which then polls its service node across the
   * domains): an armed height trigger of such a kind keeps the lookahead short.
   */
  readonly startReplansSidechainNode?: boolean;
  /** It may silence every producer (a fault the backup-step-in oracle excuses). */
  silencesProducers?(f: F): boolean;
  /** Start (`phase.start`) or end it in one of the domains it applies to; returns the detail to record. */
  apply(f: F, site: FaultSite, phase: FaultPhase): string;
  /** How a swarm profile draws it (absent: never drawn). */
  readonly swarm?: {
    draw(rng: Rng, ctx: SwarmDrawContext): FaultFields<F>;
  };
}

// --- helpers the kinds share -----------------------------------------------------------------

/** What every kind that names one node and nothing else has in common (crash, pause). */
export function oneNodeFault<F extends FaultTiming & { kind: string; node: string }>(): Pick<
  FaultDef<F>,
  'fields' | 'schema' | 'decode' | 'encode' | 'sides' | 'fixedSide' | 'silencesProducers'
> {
  return {
    fields: ['node'],
    schema: { properties: { node: NODE_ID }, required: ['node'] },
    decode: (r, o, ctx) => ({ node: readNode(r, o, 'node', ctx) }) as FaultFields<F>,
    encode: (f) => ({ node: f.node }),
    sides: (f) => sidesOfNodes([f.node]),
    fixedSide: null,
    // A silent sidechain node may be every producer there is.
    silencesProducers: (f) => f.node.startsWith('sc-'),
  };
}

/** A node id the scenario has. */
export function readNode(r: Reader, o: Obj, k: string, ctx: DecodeContext): string {
  const id = r.str(o, k);
  if (!ctx.nodes.has(id))
    throw new InputError(
      r.at(k),
      `unknown node ${describeValue(id)}; nodes are parent, svc-1..svc-${ctx.validatorCount}, sc-1..sc-${ctx.validatorCount}`,
    );
  return id;
}

/** A list of node ids the scenario has. */
export function readNodeList(r: Reader, o: Obj, k: string, ctx: DecodeContext): string[] {
  return r.arr(o, k).map((x, i) => {
    if (typeof x !== 'string' || !ctx.nodes.has(x))
      throw new InputError(`${r.at(k)}[${i}]`, `unknown node ${describeValue(x)}`);
    return x;
  });
}

/** A 1-based validator index, or `inTurn` where the kind allows it. */
export function readValidator(r: Reader, o: Obj, ctx: DecodeContext, inTurn: true): number | 'inTurn';
export function readValidator(r: Reader, o: Obj, ctx: DecodeContext, inTurn: false): number;
export function readValidator(r: Reader, o: Obj, ctx: DecodeContext, inTurn: boolean): number | 'inTurn' {
  if (inTurn && o.validator === 'inTurn') return 'inTurn';
  return r.int(o, 'validator', undefined, 1, ctx.validatorCount);
}

/**
 * The schema of a non-empty list of a fault's named kinds (what a Byzantine fault sends, in turn),
 * `noun` naming one in the messages ("transaction", "block").
 */
export function kindListSchema(all: readonly string[], noun: string, defaults = 'all'): Schema {
  return {
    type: 'array',
    minItems: 1,
    items: { enum: [...all], 'x-message': `unknown {got}; one of ${all.join(', ')}` },
    'x-message': `name at least one ${noun}`,
    description: `what it sends, in turn (default: ${defaults})`,
  };
}

/** Such a list from a file: `defaults` (every kind) when absent; an empty list or an unknown kind is named. */
export function readKindList<K extends string>(
  r: Reader,
  o: Obj,
  k: string,
  all: readonly K[],
  noun: string,
  defaults: readonly K[] = all,
): K[] {
  const list = o[k] === undefined ? [...defaults] : r.arr(o, k);
  if (list.length === 0) throw new InputError(r.at(k), `name at least one ${noun}`);
  return list.map((x, i) => {
    if (typeof x !== 'string' || !(all as readonly string[]).includes(x))
      throw new InputError(`${r.at(k)}[${i}]`, `unknown ${describeValue(x)}; one of ${all.join(', ')}`);
    return x as K;
  });
}

/** A non-empty list of distinct 1-based validator indexes. */
export function readValidatorList(r: Reader, o: Obj, k: string, ctx: DecodeContext): number[] {
  const list = r.arr(o, k);
  if (list.length === 0) throw new InputError(r.at(k), 'name at least one validator');
  return list.map((x, i) => {
    if (typeof x !== 'number' || !Number.isSafeInteger(x) || x < 1 || x > ctx.validatorCount)
      throw new InputError(
        `${r.at(k)}[${i}]`,
        `expected a validator index 1..${ctx.validatorCount}, got ${describeValue(x)}`,
      );
    return x;
  });
}

/** The sides of a set of node ids: `sc-*` nodes are the sidechain's, the rest the service side's. */
export function sidesOfNodes(nodes: readonly string[]): Set<TriggerChain> {
  return new Set<TriggerChain>(nodes.map((n) => (n.startsWith('sc-') ? 'sidechain' : 'service')));
}

export const SERVICE_SIDE: ReadonlySet<TriggerChain> = new Set<TriggerChain>(['service']);
export const SIDECHAIN_SIDE: ReadonlySet<TriggerChain> = new Set<TriggerChain>(['sidechain']);

/** The main domain of a site (a kind that acts on the service side only ever starts there). */
export function mainOf(site: FaultSite): MainTarget {
  assert(site.name === 'main', 'a service-side fault acts in the main domain', { domain: site.name });
  return site.domain;
}

/** The sidechain domain of a site. */
export function sidechainOf(site: FaultSite): SidechainTarget {
  assert(site.name === 'sidechain', 'a sidechain-side fault acts in the sidechain domain', { domain: site.name });
  return site.domain;
}
