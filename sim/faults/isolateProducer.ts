/** `isolateProducer`: a producer's sidechain node cut off from every other sidechain node (both sides keep producing). */
import { type FaultDef, type FaultTiming, SIDECHAIN_SIDE, readValidator, sidechainOf } from './fault';
import { VALIDATOR_OR_IN_TURN } from '../core/schemaParts';

export type IsolateProducerFault = FaultTiming & {
  kind: 'isolateProducer';
  validator: number | 'inTurn';
};

export const isolateProducer: FaultDef<IsolateProducerFault> = {
  kind: 'isolateProducer',
  summary: "a producer's sidechain node is cut off from the other sidechain nodes",
  fields: ['validator'],
  schema: { properties: { validator: VALIDATOR_OR_IN_TURN }, required: ['validator'] },
  decode: (r, o, ctx) => ({ validator: readValidator(r, o, ctx, true) }),
  encode: (f) => ({ validator: f.validator }),
  sides: () => SIDECHAIN_SIDE,
  fixedSide: 'sidechain',
  apply(f, site, { start, index }) {
    const d = sidechainOf(site);
    const v = d.resolveTarget(f.validator, index, start);
    const me = [`sc-${v}`];
    const others = d.sidechainNodes.map((n) => n.id).filter((id) => id !== me[0]);
    if (start) d.network.partition(me, others);
    else d.network.unpartition(me, others);
    return `validator ${v}`;
  },
  swarm: { draw: (rng, { validator: v }) => ({ validator: rng.bool(0.5) ? 'inTurn' : v }) },
};
