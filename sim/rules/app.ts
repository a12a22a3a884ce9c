/** Rules of the service application: blocks, side-transaction voting, fees to the proposer, determinism. */
import { type Rule } from './rule';

export const APP_RULES = [
  {
    id: 'app.side-tx.tally',
    rule: "A side transaction's votes are tallied two blocks after delivery by the current set's voting power: yes needs more than 2/3 of the power for one and the same observation, no more than 2/3 voting no, else skip; unvoted power counts as skip.",
    source: 'reference: heimdall.md §9; spec: What the service does 3 ("when a majority of validators agree")',
    guard: {
      oracle: 'side-tx-results',
      compares: "each side tx's tally against the model's tally of the raw votes in the block's commit",
    },
  },
  {
    id: 'app.side-tx.vote-matches-event',
    rule: "A validator votes on a message that relays a parent-chain event by looking the event up at the message's tx hash and log index, confirmed: skip while it is not there or not confirmed, no when it is another event or says something else (validator id, key, signer, record), yes when it says what the message says.",
    source: 'reference: heimdall.md §9 (side handlers of staking, top-up, clerk); spec: What the service does 3',
    guard: {
      oracle: 'side-tx-results',
      compares:
        "each vote in the block's commit on a join, stake update, exit, signer update, top-up or state-sync record against the parent chain's event at the message's tx hash and log index, as the chain reported it",
    },
  },
  {
    id: 'app.side-tx.forged-minority',
    rule: 'An observation held by less than 2/3 of the power wins nothing, even held by the largest validator; a split between two observations fails.',
    source: 'reference: heimdall.md §9',
    guard: { oracle: 'side-tx-results', compares: "each side tx's tally against the model's tally per observation" },
  },
  {
    id: 'app.side-tx.post-only-on-yes',
    rule: 'A post handler changes state only on a yes tally; on no or skip it fails with 5502 and writes nothing.',
    source: 'reference: heimdall.md §9, §6.3 (5502)',
    guard: { oracle: 'side-tx-results', compares: "each side tx's post result code against the model's tally" },
  },
  {
    id: 'app.block.max-gas',
    rule: 'The gas of the transactions of a block adds up to at most 10,000,000; a transaction that would go over is refused without trace.',
    source: 'spec: Limits (block max gas)',
    guard: { oracle: 'tx-results', compares: "each delivered tx's result code against the model's running block gas" },
  },
  {
    id: 'app.block.checkpoint-alone',
    rule: 'A block that holds a MsgCheckpoint holds no other transaction: the checkpoint counts 10,000,000 gas, and whichever comes second is refused without trace.',
    source:
      'spec: States and transitions (MsgCheckpoint), Limits (checkpoint transaction gas, checkpoint transactions per block); reference: README item 15',
    guard: {
      oracle: 'tx-results',
      compares: "each delivered tx's result code against the model's checkpoint-per-block rule",
    },
  },
  {
    id: 'app.block.max-bytes',
    rule: 'A block is at most 22,020,096 bytes (21 MiB); a larger proposal is refused.',
    source: 'spec: Limits (block max bytes); reference: README item 15',
    guard: {
      unit: 'src/node/service/blockRules.test.ts',
      test: 'refuses each broken condition',
      why: 'workloads never fill 21 MiB; the size rule is a check on a proposal, not a state effect',
    },
  },
  {
    id: 'app.end-block.fees-to-proposer',
    rule: "At the end of each block the fees it collected go to the block's proposer.",
    source: 'reference: heimdall.md §6.2 (EndBlocker moves the fee collector balance)',
    guard: {
      oracle: 'accounts-and-fees',
      compares: "the proposer's balance after the block against the ledger, which credits it the block's fees",
    },
  },
  {
    id: 'app.state.same-on-every-node',
    rule: 'Every node that commits a height commits the same block and reaches the same app hash.',
    source: 'spec: What the service does 2 (a blockchain application on a BFT engine)',
    guard: {
      oracle: 'service-safety',
      compares: "each node's block hash and app hash per height against the first node's",
    },
  },
] as const satisfies readonly Rule[];
