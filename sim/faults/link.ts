/** `link`: the links from `from` to `to` get their own loss, duplication, reordering or latency. */
import { type LinkModel } from '../core/linkModel';
import { decodeLink, encodeLink } from '../core/reader';
import { type FaultDef, type FaultTiming, readNodeList, sidesOfNodes } from './fault';
import { LINK, NODE_LIST } from '../core/schemaParts';

export type LinkFault = FaultTiming & {
  kind: 'link';
  from: string[];
  to: string[];
  /** What differs from the network's model on these links. */
  link: Partial<LinkModel>;
};

export const link: FaultDef<LinkFault> = {
  kind: 'link',
  summary: 'the links from `from` to `to` get their own loss, duplication, reordering or latency',
  fields: ['from', 'to', 'link'],
  schema: { properties: { from: NODE_LIST, to: NODE_LIST, link: LINK } },
  decode: (r, o, ctx) => ({
    from: readNodeList(r, o, 'from', ctx),
    to: readNodeList(r, o, 'to', ctx),
    link: decodeLink(r.child('link'), o.link, null),
  }),
  encode: (f) => ({ from: f.from, to: f.to, link: encodeLink(f.link) }),
  sides: (f) => sidesOfNodes(f.from),
  fixedSide: null,
  silencesProducers: (f) => [...f.from, ...f.to].some((id) => id.startsWith('sc-')),
  apply(f, site, { start }) {
    const net = site.domain.network;
    for (const a of f.from) for (const b of f.to) start ? net.setLink(a, b, f.link) : net.clearLink(a, b);
    return `${f.from.join('+')} -> ${f.to.join('+')}`;
  },
  swarm: {
    draw(rng, { validatorCount: n, validator: v }) {
      const from = [`svc-${v}`];
      return {
        from,
        to: Array.from({ length: n }, (_, i) => `svc-${i + 1}`).filter((x) => x !== from[0]),
        link: {
          loss: rng.int(0, 50) / 100,
          duplicate: rng.int(0, 20) / 100,
          reorder: rng.int(0, 30) / 100,
          reorderMaxMs: rng.int(0, 500),
        },
      };
    },
  },
};
