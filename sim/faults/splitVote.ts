/**
 * `splitVote` (ByzzFuzz: another value to part of the network): half of the time a coalition
 * member proposes, a random part of the network gets a twin block instead (the same block one
 * millisecond later, re-signed); half of the time it votes for a block, a random part gets a vote
 * for another block (the twin, when the coalition made one, else nil) instead. Below 1/3 of the
 * power honest nodes still agree; at 1/3 or more they may not (the safety oracles must fire).
 */
import { type Hex } from '../../src/core/bytes';
import { blockHash } from '../../src/consensus/types';
import { type ByzantineRoutes } from '../../src/node/service/config';
import { type CoalitionFault, coalitionFault, splitPeers } from './byzantine';

export type SplitVoteFault = CoalitionFault<'splitVote'>;

export const splitVote = coalitionFault(
  'splitVote',
  'Byzantine validators send part of the network another block, or a vote for another block',
  (rng) => {
    /** Each block the coalition proposed and its twin, both ways. */
    const twins = new Map<Hex, Hex>();
    return {
      routes(msg, tools): ByzantineRoutes | null {
        if (!rng.bool()) return null;
        if (msg.kind === 'c.proposal') {
          const p = msg.proposal;
          const block = { ...p.block, timeMs: p.block.timeMs + 1 };
          const { signature: _s, ...unsigned } = p;
          const twin = tools.signProposal({ ...unsigned, block, blockHash: blockHash(block) });
          twins.set(p.blockHash, twin.blockHash);
          twins.set(twin.blockHash, p.blockHash);
          const { part, rest } = splitPeers(rng, tools.peers);
          return [
            { to: rest, msg },
            { to: part, msg: { kind: 'c.proposal', proposal: twin } },
          ];
        }
        if (msg.kind === 'c.vote' && msg.vote.blockHash !== null) {
          const { signature: _s, ...unsigned } = msg.vote;
          const other = tools.signVote({ ...unsigned, blockHash: twins.get(msg.vote.blockHash) ?? null });
          const { part, rest } = splitPeers(rng, tools.peers);
          return [
            { to: rest, msg },
            { to: part, msg: { kind: 'c.vote', vote: other } },
          ];
        }
        return null;
      },
    };
  },
);
