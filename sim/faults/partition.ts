/** `partition`: groups of nodes that cannot reach one another (both ways) while the fault lasts. */
import { InputError } from '../../src/core/errors';
import { describeValue } from '../core/reader';
import { type FaultDef, type FaultTiming, sidesOfNodes } from './fault';
import { NODE_LIST } from '../core/schemaParts';

export type PartitionFault = FaultTiming & {
  kind: 'partition';
  /** Two or more groups of node ids; no message crosses between groups. */
  groups: string[][];
};

export const partition: FaultDef<PartitionFault> = {
  kind: 'partition',
  summary: 'groups of nodes cut off from one another',
  fields: ['groups'],
  schema: {
    properties: {
      groups: {
        type: 'array',
        minItems: 2,
        items: { ...NODE_LIST, minItems: 1, 'x-message': 'expected a non-empty array of node ids' },
        'x-message': 'expected at least two groups of nodes',
      },
    },
    required: ['groups'],
  },
  decode(r, o, ctx) {
    const groups = r.arr(o, 'groups');
    if (groups.length < 2) throw new InputError(r.at('groups'), 'expected at least two groups of nodes');
    return {
      groups: groups.map((g, gi) => {
        if (!Array.isArray(g) || g.length === 0)
          throw new InputError(`${r.at('groups')}[${gi}]`, 'expected a non-empty array of node ids');
        return g.map((x, i) => {
          if (typeof x !== 'string' || !ctx.nodes.has(x))
            throw new InputError(`${r.at('groups')}[${gi}][${i}]`, `unknown node ${describeValue(x)}`);
          return x;
        });
      }),
    };
  },
  encode: (f) => ({ groups: f.groups }),
  sides: (f) => sidesOfNodes(f.groups.flat()),
  fixedSide: null,
  silencesProducers: (f) => f.groups.flat().some((id) => id.startsWith('sc-')),
  apply(f, site, { start }) {
    const net = site.domain.network;
    const gs = f.groups;
    for (let a = 0; a < gs.length; a++)
      for (let b = a + 1; b < gs.length; b++) start ? net.partition(gs[a]!, gs[b]!) : net.unpartition(gs[a]!, gs[b]!);
    return gs.map((g) => g.join('+')).join(' | ');
  },
  swarm: {
    draw(rng, { validatorCount: n }) {
      const ids = Array.from({ length: n }, (_, i) => (rng.bool() ? `svc-${i + 1}` : `sc-${i + 1}`));
      const cut = rng.int(1, ids.length - 1);
      return { groups: [ids.slice(0, cut), ids.slice(cut)] };
    },
  },
};
