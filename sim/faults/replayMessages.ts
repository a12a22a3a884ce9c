/**
 * `replayMessages` (ByzzFuzz: a replayed earlier message): the coalition keeps what it signed
 * and, half of the time a member sends a proposal or vote, also sends a random part of the network
 * an earlier one, as it was signed. And a member proposing in a later round of a height may
 * propose again the block it proposed in an earlier round, re-signed for this round with no POL
 * round (forgetting what it saw since: a node locked on another block must not prevote it).
 */
import { type Proposal } from '../../src/consensus/types';
import { type NodeMessage } from '../../src/node/messages';
import { type ByzantineRoutes } from '../../src/node/service/config';
import { type CoalitionFault, coalitionFault, splitPeers } from './byzantine';

export type ReplayMessagesFault = CoalitionFault<'replayMessages'>;

/** How many of its own messages the coalition remembers. */
const HISTORY = 64;

export const replayMessages = coalitionFault(
  'replayMessages',
  'Byzantine validators replay earlier proposals and votes to part of the network',
  (rng) => {
    const sent: NodeMessage[] = [];
    const proposals: Proposal[] = [];
    const remember = (msg: NodeMessage) => {
      sent.push(msg);
      if (sent.length > HISTORY) sent.shift();
      if (msg.kind === 'c.proposal') {
        proposals.push(msg.proposal);
        if (proposals.length > HISTORY) proposals.shift();
      }
    };
    return {
      routes(msg, tools): ByzantineRoutes | null {
        if (msg.kind !== 'c.proposal' && msg.kind !== 'c.vote') return null;
        let out: NodeMessage = msg;
        if (msg.kind === 'c.proposal' && msg.proposal.round > 0 && rng.bool()) {
          const p = msg.proposal;
          const earlier = proposals.find(
            (q) =>
              q.height === p.height && q.round < p.round && q.proposer === p.proposer && q.blockHash !== p.blockHash,
          );
          if (earlier) {
            const { signature: _s, ...unsigned } = earlier;
            out = { kind: 'c.proposal', proposal: tools.signProposal({ ...unsigned, round: p.round, polRound: -1 }) };
          }
        }
        const old = sent.length > 0 && rng.bool() ? sent[rng.int(0, sent.length - 1)]! : null;
        remember(msg);
        if (out === msg && old === null) return null;
        const routes: ByzantineRoutes = [{ to: [...tools.peers], msg: out }];
        if (old !== null) routes.push({ to: splitPeers(rng, tools.peers).part, msg: old });
        return routes;
      },
    };
  },
);
