/** Rules of the service's BFT consensus engine (Tendermint). */
import { type Rule } from './rule';

const BLOCK_RULES = 'src/node/service/blockRules.test.ts';

export const CONSENSUS_RULES = [
  {
    id: 'consensus.safety.one-block-per-height',
    rule: 'No two different blocks are ever committed at one height.',
    source: 'spec: What the service does 2 (BFT consensus engine)',
    guard: { oracle: 'service-safety', compares: 'the block hash every node commits at each height' },
  },
  {
    id: 'consensus.commit.quorum',
    rule: 'A committed block carries precommits for it, all from one round, signed by validators holding more than 2/3 of the voting power of that height.',
    source: 'spec: What the service does 2; reference: heimdall.md §9 (Tendermint fork)',
    guard: {
      oracle: 'bft-quorum',
      compares: "each commit's precommits against the powers of the set stored for that height",
    },
  },
  {
    id: 'consensus.precommit.after-polka',
    rule: 'A validator precommits a block only after seeing prevotes for it from more than 2/3 of the power in the same round.',
    source: 'spec: What the service does 2 (Tendermint)',
    guard: {
      oracle: 'bft-quorum',
      compares: 'each precommit a node signs against every prevote any node signed in that round',
    },
  },
  {
    id: 'consensus.prevote.lock',
    rule: 'Once locked on a block in a round, a validator prevotes another block in a later round only for a proposal whose proof-of-lock round is at least its lock round, backed by more than 2/3 of prevotes.',
    source: 'spec: What the service does 2 (Tendermint)',
    guard: {
      oracle: 'bft-lock',
      compares: 'each prevote a node signs against its own lock and the proposals it took in',
    },
  },
  {
    id: 'consensus.proposer.round-rotation',
    rule: "The proposer of each round is chosen by the engine's proposer-priority algorithm over the height's validator set: one rotation per height, and r more for round r.",
    source:
      'spec: What the service does 5 ("the consensus engine\'s proposer selection algorithm"); reference: heimdall.md §4.4',
    guard: {
      oracle: 'round-proposer',
      compares: "each proposal a node makes against the proposer of its round by the oracle's own consensus-set model",
    },
  },
  {
    id: 'consensus.progress.round-skip',
    rule: 'A validator that sees votes from more than 1/3 of the power for a higher round moves to that round at once.',
    source: 'spec: What the service does 2 (Tendermint round skip)',
    guard: {
      oracle: 'bft-progress',
      compares:
        'each node still deciding a height reaching a round that f + 1 of the power voted in, within the gossip bound',
    },
  },
  {
    id: 'consensus.progress.calm-round-zero',
    rule: 'With a calm network and honest, live validators every height commits in its first round.',
    source: 'spec: What the service does 2 (Tendermint)',
    guard: {
      oracle: 'bft-progress',
      compares:
        'the round of each commit made where no fault was in force and the round-0 proposer was not still catching up',
    },
  },
  {
    id: 'consensus.progress.calm-height-time',
    rule: 'With a calm network a height commits within the commit timeout plus a few network latencies of the last one.',
    source: 'spec: What the service does 2 (Tendermint)',
    guard: {
      oracle: 'bft-progress',
      compares: "each calm height's time to commit against the bound derived from the timeouts and the latency",
    },
  },
  {
    id: 'consensus.liveness.after-heal',
    rule: 'Once every fault has healed, service blocks are committed again within a bound.',
    source: 'spec: What the service does 2 (BFT: live with more than 2/3 honest and connected)',
    guard: {
      oracle: 'liveness-after-heal',
      compares: 'the first service commit after the last fault healed against its bound',
    },
  },
  {
    id: 'consensus.evidence.equivocation',
    rule: 'A validator that signs two different votes of one type in one round is reported as evidence.',
    source: 'spec: What the service does 2 (Tendermint)',
    guard: {
      unit: 'src/consensus/tendermint.test.ts',
      test: 'reports equivocation as evidence',
      why: 'evidence is recorded but no rule of the spec acts on it (no slashing); safety under equivocation is guarded by bft-quorum and service-safety',
    },
  },
  {
    id: 'consensus.block.valid',
    rule: 'A proposal must build on the tip, carry a valid last commit (more than 2/3 of the power in distinct valid precommits) and a time after the last block, within the size limit; otherwise it is refused.',
    source: 'spec: What the service does 2',
    guard: {
      unit: BLOCK_RULES,
      test: 'more than 2/3 of the power in distinct valid precommits for the block',
      why: 'a refused proposal leaves no committed fact; a committed one is guarded by bft-quorum',
    },
  },
  {
    id: 'consensus.block.time-monotonic',
    rule: "A block's time is the proposer's clock but always after the last block's time.",
    source: 'spec: What the service does 2',
    guard: {
      unit: BLOCK_RULES,
      test: 'the next height on the tip, its time the clock but always after the last block',
      why: 'the proposer-side rule on a proposal; block times as committed feed every timing oracle',
    },
  },
] as const satisfies readonly Rule[];
