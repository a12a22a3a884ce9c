/**
 * `setHead`: an operator rewinds one sidechain node, as the console's `debug.setHead(n)` does
 * (spec: Operator console): the node gets the same `op.setHead` message a devnet's console sends
 * it, forgets every block above `n`, and must come back to its peers' chain (the next block they
 * gossip brings it back, its missing ancestors fetched). The fork-choice oracle checks the head
 * after the rewind against its own view; the run's liveness checks that it caught up.
 *
 * `n` is `number`, or `blocks` below the node's head when the fault fires. A one-shot action: its
 * end does nothing (a `for` only bounds nothing).
 */
import { InputError } from '../../src/core/errors';
import { NET_DELIVER } from '../env/network';
import { NODE_ID } from '../core/schemaParts';
import { type FaultDef, type FaultTiming, SIDECHAIN_SIDE, readNode, sidechainOf } from './fault';

export type SetHeadFault = FaultTiming & {
  kind: 'setHead';
  /** A sidechain node id (`sc-N`). */
  node: string;
  /** The block to rewind to (null: `blocks` below the head). */
  number: bigint | null;
  /** How many blocks below the node's head when it fires (null: to `number`). */
  blocks: number | null;
};

export const setHead: FaultDef<SetHeadFault> = {
  kind: 'setHead',
  summary: "an operator rewinds a sidechain node (the console's debug.setHead); it must catch up again",
  fields: ['node', 'number', 'blocks'],
  schema: {
    properties: {
      node: NODE_ID,
      number: { type: 'integer', minimum: 0, description: 'the block to rewind to' },
      blocks: { type: 'integer', minimum: 1, maximum: 100000, description: "how many blocks below the node's head" },
    },
    required: ['node'],
  },
  decode(r, o, ctx) {
    const node = readNode(r, o, 'node', ctx);
    if (!node.startsWith('sc-')) throw new InputError(r.at('node'), `expected a sidechain node (sc-N), got "${node}"`);
    if ((o.number === undefined) === (o.blocks === undefined))
      throw new InputError(
        r.at('blocks'),
        'give exactly one of number (a block to rewind to) or blocks (how far back)',
      );
    return o.number !== undefined
      ? { node, number: BigInt(r.int(o, 'number', undefined, 0)), blocks: null }
      : { node, number: null, blocks: r.int(o, 'blocks', undefined, 1, 100_000) };
  },
  encode: (f) => ({ node: f.node, ...(f.number !== null ? { number: Number(f.number) } : { blocks: f.blocks }) }),
  sides: () => SIDECHAIN_SIDE,
  fixedSide: 'sidechain',
  apply(f, site, { start }) {
    const d = sidechainOf(site);
    if (!start) return f.node;
    const node = d.sidechainNodes.find((n) => n.id === f.node)!;
    const head = node.chain.head().block.header.number;
    const back = BigInt(f.blocks ?? 0);
    const n = f.number ?? (head > back ? head - back : 0n);
    // The console's path: the operator's message reaches the node directly, now (a node that is
    // down gets nothing, as a console cannot reach it either).
    d.engine.at(d.engine.nowMs(), NET_DELIVER, f.node, { kind: 'op.setHead', number: n }, 'operator');
    return `${f.node} to ${n} (head ${head})`;
  },
};
