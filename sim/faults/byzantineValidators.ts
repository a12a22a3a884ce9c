/**
 * `byzantineValidators`: a coalition that splits the network. Its proposer sends one block to the
 * odd half of its peers and a twin (one millisecond later) to the even half; its members vote for
 * each block in the half that saw it. With more than 1/3 of the power this can make honest nodes
 * commit different blocks (the safety oracles must fire); with less it cannot.
 */
import { type Hex } from '../../src/core/bytes';
import { blockHash } from '../../src/consensus/types';
import { type ByzantineRoutes, type ByzantineTools } from '../../src/node/serviceNode';
import { type NodeMessage } from '../../src/node/messages';
import { type FaultDef, type FaultTiming, SERVICE_SIDE, mainOf, readValidatorList } from './fault';

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
    properties: { validators: { type: 'array', minItems: 1, items: { type: 'integer', minimum: 1 } } },
    required: ['validators'],
  },
  decode: (r, o, ctx) => ({ validators: readValidatorList(r, o, 'validators', ctx) }),
  encode: (f) => ({ validators: f.validators }),
  sides: () => SERVICE_SIDE,
  fixedSide: 'service',
  apply(f, site, { start, index }) {
    const twins = new Map<string, { other: string; half: 0 | 1 }>();
    mainOf(site).setBehaviour(
      `fault:${index}`,
      f.validators,
      start ? { routes: (msg, tools) => splitRoutes(twins, msg, tools) } : null,
    );
    return `validators ${f.validators.join(', ')}`;
  },
};

/** The coalition's routing, with the twins it made (shared by its members). */
function splitRoutes(
  twins: Map<string, { other: string; half: 0 | 1 }>,
  msg: NodeMessage,
  tools: ByzantineTools,
): ByzantineRoutes | null {
  const half = (id: string): 0 | 1 => (Number(id.slice(id.indexOf('-') + 1)) % 2 === 1 ? 0 : 1);
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
