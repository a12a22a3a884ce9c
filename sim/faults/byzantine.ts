/**
 * What the Byzantine fault kinds share: the coalition (validators named by index, holding a share
 * of the power the swarm profile budgets), a random part of the network, and a per-fault rng
 * stream (forked by the fault's index, so drawing here never moves another stream).
 *
 * The consensus mutations follow ByzzFuzz (Winter et al., "Randomized Testing of Byzantine Fault
 * Tolerant Algorithms", OOPSLA 2023): small-scope mutations of a Byzantine process's own messages
 * (a round moved by one, an earlier message replayed, another value), each delivered to a random
 * part of the network while the rest gets the original. They are made through the service nodes'
 * hooks and signed with the Byzantine validators' own keys.
 */
import { type Rng } from '../env/rng';
import { type MainTarget, type ValidatorBehaviour } from './targets';
import { VALIDATOR_LIST } from '../core/schemaParts';
import {
  type FaultDef,
  type FaultTiming,
  type SwarmDrawContext,
  SERVICE_SIDE,
  mainOf,
  readValidatorList,
} from './fault';

export type CoalitionFault<K extends string> = FaultTiming & {
  kind: K;
  /** The Byzantine validators (1-based indexes). */
  validators: number[];
};

/** A non-empty part of `peers`, and the rest (the rest may be empty when there is one peer). */
export function splitPeers(rng: Rng, peers: readonly string[]): { part: string[]; rest: string[] } {
  const part: string[] = [];
  const rest: string[] = [];
  for (const p of peers) (rng.bool() ? part : rest).push(p);
  if (part.length === 0 && rest.length > 0) part.push(rest.shift()!);
  if (rest.length === 0 && part.length > 1) rest.push(part.pop()!);
  return { part, rest };
}

/** The rng stream of the fault at `index` (shared by its coalition, used in event order). */
export function faultRng(c: MainTarget, index: number): Rng {
  return c.rng.fork(`byzantine:${index}`);
}

/** A swarm draw of a coalition kind: the profile's coalition. */
export function coalitionOf(ctx: SwarmDrawContext): { validators: number[] } {
  return { validators: [...ctx.coalition] };
}

/**
 * A coalition kind whose members behave as `make` says while it lasts (one behaviour object for
 * the whole coalition, so they share what they saw, as colluders do).
 */
export function coalitionFault<K extends string>(
  kind: K,
  summary: string,
  make: (rng: Rng, c: MainTarget) => ValidatorBehaviour,
): FaultDef<CoalitionFault<K>> {
  return {
    kind,
    summary,
    fields: ['validators'],
    schema: {
      properties: { validators: VALIDATOR_LIST },
      required: ['validators'],
    },
    decode: (r, o, ctx) => ({ validators: readValidatorList(r, o, 'validators', ctx) }) as never,
    encode: (f) => ({ validators: f.validators }),
    sides: () => SERVICE_SIDE,
    fixedSide: 'service',
    apply(f, site, { start, index }) {
      const c = mainOf(site);
      c.setBehaviour(`fault:${index}`, f.validators, start ? make(faultRng(c, index), c) : null);
      return `validators ${f.validators.join(', ')}`;
    },
    swarm: { draw: (_rng, ctx) => coalitionOf(ctx) as never },
  };
}
