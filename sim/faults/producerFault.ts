/**
 * The producer faults share one shape: a validator (or whoever is in turn when the fault fires)
 * whose sidechain node produces differently while the fault lasts. The sidechain domain keeps the
 * flags its nodes' production hooks read, and re-plans the node at once on each change.
 */
import { type ProducerFlag } from './targets';
import { type FaultDef, type FaultTiming, SIDECHAIN_SIDE, readValidator, sidechainOf } from './fault';
import { VALIDATOR_OR_IN_TURN } from '../core/schemaParts';

export type ProducerFaultOf<K extends string> = FaultTiming & {
  kind: K;
  /** 1-based validator index; `inTurn` = the producer in turn on the best head when the fault fires. */
  validator: number | 'inTurn';
};

/** A producer fault that sets one flag on the target's sidechain node. */
export function producerFlagFault<K extends string>(
  kind: K,
  flag: ProducerFlag,
  summary: string,
): FaultDef<ProducerFaultOf<K>> {
  return {
    kind,
    summary,
    fields: ['validator'],
    schema: { properties: { validator: VALIDATOR_OR_IN_TURN }, required: ['validator'] },
    decode: (r, o, ctx) => ({ validator: readValidator(r, o, ctx, true) }) as ProducerFaultOf<K>,
    encode: (f) => ({ validator: f.validator }),
    sides: () => SIDECHAIN_SIDE,
    fixedSide: 'sidechain',
    startReplansSidechainNode: true,
    apply(f, site, { start, index }) {
      const d = sidechainOf(site);
      const v = d.resolveTarget(f.validator, index, start);
      d.setProducerFlag(v, flag, start);
      return `validator ${v}`;
    },
    swarm: { draw: (rng, { validator: v }) => ({ validator: rng.bool(0.5) ? 'inTurn' : v }) as ProducerFaultOf<K> },
  };
}
