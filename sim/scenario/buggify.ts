/**
 * `buggify`: rare paths on purpose, as FoundationDB's BUGGIFY makes them. Decided by the run's
 * seed, the simulated environment makes a node's timer fire late, or restarts a node (a crash and
 * a start again, at once or after `down`) just as one of its timers fires, at whatever step that
 * timer ends (a consensus timeout, a block to seal, a bridge tick). Only in simulation: a devnet
 * serves none of it unless its scenario asks. Off unless a scenario names it, so no other run's
 * draws or trace change (each node draws from a stream of its own, `buggify:<node>`).
 *
 * ```json
 * "buggify": {
 *   "lateTimers": { "probability": 0.05, "maxDelay": "2s" },
 *   "restarts": { "probability": 0.003, "down": "1s", "nodes": "service" }
 * }
 * ```
 */
import { InputError } from '../../src/core/errors';
import { type Obj, type Reader } from '../core/reader';
import { durationText } from '../../src/core/duration';
import { DURATION, PROBABILITY, type Schema, object } from '../core/schemaParts';

export interface Buggify {
  /** Each timer a node sets fires up to `maxMs` late, with this probability. */
  lateTimers?: { probability: number; maxMs: number };
  /** As a timer fires, the node restarts instead, with this probability; it is down for `downMs`. */
  restarts?: { probability: number; downMs: number; nodes: 'service' | 'sidechain' | 'all' };
}

export const BUGGIFY_NODES = ['service', 'sidechain', 'all'] as const;

export const BUGGIFY_SCHEMA: Schema = {
  ...object({
    lateTimers: object({ probability: PROBABILITY, maxDelay: DURATION }, ['probability', 'maxDelay']),
    restarts: object(
      {
        probability: PROBABILITY,
        down: { ...DURATION, description: 'how long the node stays down (default 0: it starts again at once)' },
        nodes: { enum: [...BUGGIFY_NODES], description: 'whose timers may restart their node (default all)' },
      },
      ['probability'],
    ),
  }),
  description: 'rare paths on purpose (simulation only): late timers, restarts as a timer fires',
};

export function decodeBuggify(r: Reader, value: unknown): Buggify {
  const o: Obj = r.obj(value);
  r.noExtra(o, ['lateTimers', 'restarts']);
  const out: Buggify = {};
  if (o.lateTimers !== undefined) {
    const c = r.child('lateTimers');
    const x = c.obj(o.lateTimers);
    c.noExtra(x, ['probability', 'maxDelay']);
    out.lateTimers = { probability: c.prob(x, 'probability', 0), maxMs: bounded(c, x, 'maxDelay') };
  }
  if (o.restarts !== undefined) {
    const c = r.child('restarts');
    const x = c.obj(o.restarts);
    c.noExtra(x, ['probability', 'down', 'nodes']);
    const nodes = c.str(x, 'nodes', 'all');
    if (!(BUGGIFY_NODES as readonly string[]).includes(nodes))
      throw new InputError(c.at('nodes'), `expected one of ${BUGGIFY_NODES.join(', ')}, got "${nodes}"`);
    out.restarts = {
      probability: c.prob(x, 'probability', 0),
      downMs: x.down === undefined ? 0 : bounded(c, x, 'down'),
      nodes: nodes as (typeof BUGGIFY_NODES)[number],
    };
  }
  return out;
}

/** A duration of at most ten minutes. */
function bounded(c: Reader, x: Obj, k: string): number {
  const ms = c.duration(x, k);
  if (ms > 600_000) throw new InputError(c.at(k), `must be at most 10m, got ${durationText(ms)}`);
  return ms;
}

export function encodeBuggify(b: Buggify): Record<string, unknown> {
  const r = b.restarts;
  return {
    ...(b.lateTimers
      ? { lateTimers: { probability: b.lateTimers.probability, maxDelay: durationText(b.lateTimers.maxMs) } }
      : {}),
    ...(r ? { restarts: { probability: r.probability, down: durationText(r.downMs), nodes: r.nodes } } : {}),
  };
}

/** Whether a node's timers may restart it under these knobs. */
export function restartsNode(b: Buggify | undefined, node: string): boolean {
  const r = b?.restarts;
  if (!r || r.probability <= 0) return false;
  if (r.nodes === 'all') return node.startsWith('svc-') || node.startsWith('sc-');
  return r.nodes === 'service' ? node.startsWith('svc-') : node.startsWith('sc-');
}
