/** `clockSkew`: a node's clock runs ahead (or behind, a negative skew) while the fault lasts. */
import { durationText, parseDurationMs } from '../../src/core/duration';
import { type FaultDef, type FaultTiming, readNode, sidesOfNodes } from './fault';
import { NODE_ID } from '../core/schemaParts';

export type ClockSkewFault = FaultTiming & {
  kind: 'clockSkew';
  node: string;
  /** Milliseconds added to the node's clock (negative: behind). */
  skewMs: number;
};

export const clockSkew: FaultDef<ClockSkewFault> = {
  kind: 'clockSkew',
  summary: "a node's clock is off by `skew` (a duration; `-2s` runs behind)",
  fields: ['node', 'skew'],
  schema: {
    properties: {
      node: NODE_ID,
      skew: {
        description: 'a duration, negative for a clock behind (-2s)',
        anyOf: [{ type: 'string', pattern: '^-?([0-9]+(ms|s|m|h|d))+$' }, { const: 0 }],
        'x-code': true,
      },
    },
    required: ['node', 'skew'],
  },
  decode(r, o, ctx) {
    const node = readNode(r, o, 'node', ctx);
    const v = o.skew;
    const skewMs =
      typeof v === 'string' && v.startsWith('-')
        ? -parseDurationMs(v.slice(1), r.at('skew'))
        : parseDurationMs(v, r.at('skew'));
    return { node, skewMs };
  },
  encode: (f) => ({ node: f.node, skew: f.skewMs < 0 ? `-${durationText(-f.skewMs)}` : durationText(f.skewMs) }),
  sides: (f) => sidesOfNodes([f.node]),
  fixedSide: null,
  silencesProducers: (f) => f.node.startsWith('sc-'),
  apply(f, site, { start }) {
    site.domain.slot(f.node).skewMs = start ? f.skewMs : 0;
    return `${f.node} ${f.skewMs}ms`;
  },
  swarm: {
    draw: (rng, { validator: v }) => ({
      node: rng.bool() ? `svc-${v}` : `sc-${v}`,
      skewMs: rng.int(-3000, 3000),
    }),
  },
};
