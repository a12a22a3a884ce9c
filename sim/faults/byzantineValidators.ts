/**
 * `byzantineValidators`: a coalition that splits the network. The honest validators are dealt into
 * two halves (alternately, by index); the coalition's proposer sends one block to the first half
 * (and to the coalition) and a twin (one millisecond later) to the second; its members vote for
 * each block in the half that saw it. With more than 1/3 of the power and an even split this
 * makes honest nodes commit different blocks (the safety oracles must fire); below 1/3 it cannot.
 */
import { type Hex } from '../../src/core/bytes';
import { blockHash } from '../../src/consensus/types';
import { type ByzantineRoutes, type ByzantineTools } from '../../src/node/service/config';
import { type NodeMessage } from '../../src/node/messages';
import { type FaultDef, type FaultTiming, SERVICE_SIDE, mainOf, readValidatorList } from './fault';
import { coalitionOf } from './byzantine';
import { VALIDATOR_LIST } from '../core/schemaParts';

export type ByzantineValidatorsFault = FaultTiming & {
  kind: 'byzantineValidators';
  /** The coalition (1-based validator indexes). */
  validators: number[];
};

export const byzantineValidators: FaultDef<ByzantineValidatorsFault> = {
  kind: 'byzantineValidators',
  summary: 'a coalition sends each half of the network its own block and votes for both',
  fields: ['validators'],
  schema: {
    properties: { validators: VALIDATOR_LIST },
    required: ['validators'],
  },
  decode: (r, o, ctx) => ({ validators: readValidatorList(r, o, 'validators', ctx) }),
  encode: (f) => ({ validators: f.validators }),
  sides: () => SERVICE_SIDE,
  fixedSide: 'service',
  apply(f, site, { start, index }) {
    const c = mainOf(site);
    const twins = new Map<string, { other: string; half: 0 | 1 }>();
    const honest = c.serviceNodes.map((n) => n.id).filter((_, i) => !f.validators.includes(i + 1));
    const second = new Set(honest.filter((_, i) => i % 2 === 1));
    const half = (id: string): 0 | 1 => (second.has(id) ? 1 : 0);
    c.setBehaviour(
      `fault:${index}`,
      f.validators,
      start ? { routes: (msg, tools) => splitRoutes(twins, half, msg, tools) } : null,
    );
    return `validators ${f.validators.join(', ')}`;
  },
  swarm: { draw: (_rng, ctx) => coalitionOf(ctx) },
};

/** The coalition's routing, with the twins it made (shared by its members). */
function splitRoutes(
  twins: Map<string, { other: string; half: 0 | 1 }>,
  half: (id: string) => 0 | 1,
  msg: NodeMessage,
  tools: ByzantineTools,
): ByzantineRoutes | null {
  const groups: [string[], string[]] = [
    tools.peers.filter((p) => half(p) === 0),
    tools.peers.filter((p) => half(p) === 1),
  ];
  if (msg.kind === 'c.proposal') {
    const p = msg.proposal;
    const twinBlock = { ...p.block, timeMs: p.block.timeMs + 1 };
    const { signature: _s, ...unsigned } = p;
    const twin = tools.signProposal({ ...unsigned, block: twinBlock, blockHash: blockHash(twinBlock) });
    twins.set(p.blockHash, { other: twin.blockHash, half: 0 });
    twins.set(twin.blockHash, { other: p.blockHash, half: 1 });
    return [
      { to: groups[0], msg },
      { to: groups[1], msg: { kind: 'c.proposal', proposal: twin } },
    ];
  }
  if (msg.kind === 'c.vote' && msg.vote.blockHash !== null) {
    const t = twins.get(msg.vote.blockHash);
    if (!t) return null;
    const { signature: _s, ...unsigned } = msg.vote;
    const other = tools.signVote({ ...unsigned, blockHash: t.other as Hex });
    return [
      { to: groups[t.half], msg },
      { to: groups[1 - t.half]!, msg: { kind: 'c.vote', vote: other } },
    ];
  }
  return null;
}
