/**
 * `roundShift` (ByzzFuzz: a small-scope round mutation): the coalition's own proposals and votes
 * go, half of the time, to a random part of the network with the round moved by one (re-signed
 * with the validator's key); the rest of the network gets the original. A proposal in a round
 * where its sender is not the proposer, or a vote in a round it does not belong to, must change
 * nothing; those who got the shifted message miss the original until gossip resends it.
 */
import { type NodeMessage } from '../../src/node/messages';
import { type ByzantineRoutes } from '../../src/node/service/config';
import { type CoalitionFault, coalitionFault, splitPeers } from './byzantine';

export type RoundShiftFault = CoalitionFault<'roundShift'>;

export const roundShift = coalitionFault(
  'roundShift',
  'Byzantine validators send messages with the round moved by one to part of the network',
  (rng) => ({
    routes(msg, tools): ByzantineRoutes | null {
      if (msg.kind !== 'c.proposal' && msg.kind !== 'c.vote') return null;
      if (!rng.bool()) return null;
      const delta = rng.bool() ? 1 : -1;
      const round = (msg.kind === 'c.proposal' ? msg.proposal.round : msg.vote.round) + delta;
      if (round < 0) return null;
      const { part, rest } = splitPeers(rng, tools.peers);
      let shifted: NodeMessage;
      if (msg.kind === 'c.proposal') {
        const { signature: _s, ...unsigned } = msg.proposal;
        shifted = { kind: 'c.proposal', proposal: tools.signProposal({ ...unsigned, round }) };
      } else {
        const { signature: _s, ...unsigned } = msg.vote;
        shifted = { kind: 'c.vote', vote: tools.signVote({ ...unsigned, round }) };
      }
      return [
        { to: rest, msg },
        { to: part, msg: shifted },
      ];
    },
  }),
);
