/** `oneWayPartition`: messages from `from` to `to` are lost (the other way still works). */
import { type FaultDef, type FaultTiming, readNodeList, sidesOfNodes } from './fault';
import { NODE_LIST } from '../core/schemaParts';

export type OneWayPartitionFault = FaultTiming & {
  kind: 'oneWayPartition';
  from: string[];
  to: string[];
};

export const oneWayPartition: FaultDef<OneWayPartitionFault> = {
  kind: 'oneWayPartition',
  summary: 'messages from `from` to `to` are lost; the other direction works',
  fields: ['from', 'to'],
  schema: { properties: { from: NODE_LIST, to: NODE_LIST } },
  decode: (r, o, ctx) => ({ from: readNodeList(r, o, 'from', ctx), to: readNodeList(r, o, 'to', ctx) }),
  encode: (f) => ({ from: f.from, to: f.to }),
  // A blocked link matters to its sender's network: it applies where the senders live.
  sides: (f) => sidesOfNodes(f.from),
  fixedSide: null,
  silencesProducers: (f) => [...f.from, ...f.to].some((id) => id.startsWith('sc-')),
  apply(f, site, { start }) {
    if (start) site.domain.network.partition(f.from, f.to, true);
    else site.domain.network.unpartition(f.from, f.to, true);
    return `${f.from.join('+')} -> ${f.to.join('+')}`;
  },
};
