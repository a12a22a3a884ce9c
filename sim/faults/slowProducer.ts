/** `slowProducer`: a producer seals `delayS` seconds late. */
import { type FaultDef, type FaultTiming, SIDECHAIN_SIDE, readValidator, sidechainOf } from './fault';
import { VALIDATOR_OR_IN_TURN } from '../core/schemaParts';

export type SlowProducerFault = FaultTiming & {
  kind: 'slowProducer';
  validator: number | 'inTurn';
  /** Extra seconds before it seals. */
  delayS: number;
};

export const slowProducer: FaultDef<SlowProducerFault> = {
  kind: 'slowProducer',
  summary: 'a producer seals `delayS` seconds late',
  fields: ['validator', 'delayS'],
  schema: {
    properties: {
      validator: VALIDATOR_OR_IN_TURN,
      delayS: { type: 'integer', minimum: 1, maximum: 3600, default: 4 },
    },
    required: ['validator'],
  },
  decode: (r, o, ctx) => ({ validator: readValidator(r, o, ctx, true), delayS: r.int(o, 'delayS', 4, 1, 3600) }),
  encode: (f) => ({ validator: f.validator, delayS: f.delayS }),
  sides: () => SIDECHAIN_SIDE,
  fixedSide: 'sidechain',
  startReplansSidechainNode: true,
  apply(f, site, { start, index }) {
    const d = sidechainOf(site);
    const v = d.resolveTarget(f.validator, index, start);
    d.setProducerFlag(v, 'slow', start, f.delayS);
    return `validator ${v} +${f.delayS}s`;
  },
  swarm: {
    draw: (rng, { validator: v }) => ({ validator: rng.bool(0.5) ? 'inTurn' : v, delayS: rng.int(1, 8) }),
  },
};
