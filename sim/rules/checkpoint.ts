/** Rules of the checkpoint module: proposals, the buffer, acks, no-acks, the proposer and the two Merkle roots. */
import { type Rule } from './rule';

const CP = 'src/modules/checkpoint/msgs.test.ts';

export const CHECKPOINT_RULES = [
  {
    id: 'checkpoint.propose.proposer',
    rule: "A checkpoint is accepted only from the stored validator set's current proposer (its signer); anyone else gets 1400.",
    source: 'spec: States and transitions (proposer by leader selection); reference: heimdall.md §3.2 step 4',
    guard: {
      oracle: 'checkpoint-timeouts',
      compares: "each accepted checkpoint's proposer against the proposer of its own rotation model",
    },
  },
  {
    id: 'checkpoint.propose.validate-basic',
    rule: 'A checkpoint with a zero root hash, a zero proposer, start >= end or end 0 is refused with 1400: a checkpoint covers at least two blocks.',
    source: 'reference: README item 8, heimdall.md §3.2 (ValidateBasic)',
    guard: { oracle: 'tx-results', compares: "each MsgCheckpoint's result code against the model's validation" },
  },
  {
    id: 'checkpoint.propose.continuity',
    rule: 'A checkpoint must start one block after the last acked one ends: starting inside it is 1509, leaving a gap is 1510; the first must start at block 0 (else 1501).',
    source: 'reference: README item 8, heimdall.md §3.2 step 2',
    guard: {
      oracle: 'tx-results',
      compares: "each MsgCheckpoint's result code against the model's last acked checkpoint",
    },
  },
  {
    id: 'checkpoint.propose.account-root',
    rule: 'A checkpoint must carry the account root over the dividend accounts as they stand; a stale or wrong root is refused with 1501.',
    source:
      'spec: Hash rules 3-4, States and transitions (MsgWithdrawFee); reference: README items 11-12, heimdall.md §3.2 step 3',
    guard: {
      oracle: 'checkpoint-timeouts',
      compares: "each accepted checkpoint's account root against its own root over the dividend accounts",
    },
  },
  {
    id: 'checkpoint.propose.buffer-busy',
    rule: 'While a buffered checkpoint has not expired (CheckpointBufferTime since its timestamp), a new one is refused at deliver with 1503, naming when it expires.',
    source: 'spec: Module parameters (CheckpointBufferTime); reference: heimdall.md §3.2 step 1',
    guard: {
      oracle: 'tx-results',
      compares: "each MsgCheckpoint's result code against the model's buffer and block time",
    },
  },
  {
    id: 'checkpoint.propose.expired-buffer-flush',
    rule: 'A new checkpoint delivered after the buffer expired flushes the old buffer at deliver time, and the flush stands even if the new checkpoint then fails its vote.',
    source: 'reference: heimdall.md §3.2 step 1',
    guard: { oracle: 'service-state', compares: 'the stored checkpoint buffer after each block against the model' },
  },
  {
    id: 'checkpoint.side.root-matches',
    rule: "Validators vote yes on a checkpoint only when its root hash equals the root of that range on their sidechain, so every acked root is the root of the chain's blocks.",
    source: 'spec: What the service does 10, Hash rules 1-2; reference: heimdall.md §3.2 (side handler)',
    guard: {
      oracle: 'checkpoint-roots',
      compares: "each acked root against its own Merkle root over the final canonical chain's blocks of the range",
    },
  },
  {
    id: 'checkpoint.side.keeps-acked',
    rule: 'A validator votes yes on a checkpoint only while its sidechain still holds the last acked checkpoint: an acked checkpoint is final.',
    source: 'project decision (docs/ARCHITECTURE.md, "Where the behaviour comes from"); reference: sidechain.md §3.2',
    guard: {
      oracle: 'checkpoint-roots',
      compares:
        'each acked root against the final canonical chain, which an ack on a fork that left the last one breaks',
    },
  },
  {
    id: 'checkpoint.side.confirmations',
    rule: 'Validators skip a checkpoint until their sidechain holds block end + 10 (the sidechain confirmation depth).',
    source: 'reference: heimdall.md §3.2 (side handler), §8.2',
    guard: {
      oracle: 'bridge-confirmations',
      compares: "each yes vote on a checkpoint against the sidechain head the voter's view held",
    },
  },
  {
    id: 'checkpoint.side.max-length',
    rule: 'Validators skip a checkpoint longer than MaxCheckpointLength (1024 blocks); exactly 1024 is accepted.',
    source: 'reference: README item 13, heimdall.md §3.2, §3.5',
    guard: {
      unit: CP,
      test: 'more than MaxCheckpointLength (1024) blocks: skip, 5502; exactly 1024 is accepted',
      why: 'bridges propose checkpoints of the configured length; the vote on an overlong range is not reported with its reason',
    },
  },
  {
    id: 'checkpoint.post.buffered',
    rule: 'A checkpoint voted through is put in the buffer with the block time of its post block, in whole seconds.',
    source: 'spec: States and transitions (MsgCheckpoint); reference: heimdall.md §3.2 (post handler)',
    guard: { oracle: 'service-state', compares: 'the stored checkpoint buffer after each block against the model' },
  },
  {
    id: 'checkpoint.post.buffer-taken',
    rule: 'Of two checkpoints delivered before the first is post-handled, the second fails at the post handler with 1503.',
    source: 'reference: heimdall.md §3.2 (post handler)',
    guard: { oracle: 'side-tx-results', compares: "each checkpoint's post result against the model's buffer" },
  },
  {
    id: 'checkpoint.ack.needs-buffer',
    rule: 'An ack while no checkpoint waits in the buffer is refused at deliver with 1502 and leaves no trace.',
    source: 'reference: README item 10, heimdall.md §3.3 (deliver handler)',
    guard: { oracle: 'tx-results', compares: "each MsgCheckpointAck's result code against the model's buffer" },
  },
  {
    id: 'checkpoint.ack.matches-record',
    rule: "Validators vote yes on an ack only when the parent chain's header-block record for headerBlock starts where the buffer starts (and, for the same range, has the same root).",
    source: 'reference: README item 10, heimdall.md §3.3 (side handler)',
    guard: {
      oracle: 'side-tx-results',
      compares:
        "each ack's side-tx result against the model's copy of the parent chain's header-block record (its start, and its root for the same range)",
    },
  },
  {
    id: 'checkpoint.ack.effects',
    rule: 'An ack stores the buffered checkpoint under its number, raises the ack count by one and clears the buffer.',
    source: 'spec: States and transitions (MsgCheckpointAck); reference: README item 10, heimdall.md §3.3',
    guard: {
      oracle: 'service-state',
      compares: 'the stored checkpoints, ack count and buffer after each block against the model',
    },
  },
  {
    id: 'checkpoint.ack.numbered',
    rule: 'Acked checkpoints are numbered 1, 2, … and contiguous: the first starts at block 0, each next one block after the previous end.',
    source: 'reference: heimdall.md §3.1 (numbered from 1), §3.2',
    guard: {
      oracle: 'checkpoint-timeouts',
      compares: "each stored checkpoint's number and start against the previous one",
    },
  },
  {
    id: 'checkpoint.ack.buffer-timestamp',
    rule: 'An acked checkpoint keeps the timestamp it was buffered with (not the time of the ack).',
    source: 'reference: heimdall.md §3.3 (post handler)',
    guard: {
      oracle: 'checkpoint-timeouts',
      compares: "each stored checkpoint's timestamp against the post block time it saw buffer it",
    },
  },
  {
    id: 'checkpoint.ack.end-adjust',
    rule: "When the parent chain's record ends elsewhere than the buffer, the stored checkpoint takes the record's end block, root hash and proposer.",
    source: 'reference: README items 10 and 32, heimdall.md §3.3 (end-block adjust)',
    guard: {
      oracle: 'service-state',
      compares: 'each stored checkpoint against the model, which applies the adjustment from the parent record',
    },
  },
  {
    id: 'checkpoint.ack.double',
    rule: 'Two acks for one buffer in one block: the second fails at the post handler with 1502; one count, one rotation.',
    source: 'reference: heimdall.md §3.3',
    guard: { oracle: 'side-tx-results', compares: "each ack's post result against the model's buffer" },
  },
  {
    id: 'checkpoint.ack.rotates-once',
    rule: 'Each ack rotates the checkpoint proposer by exactly one proposer-priority round, so the proposer of the next checkpoint changes.',
    source: 'spec: States and transitions (MsgCheckpointAck); reference: heimdall.md §3.3, §4.4',
    guard: {
      oracle: 'checkpoint-timeouts',
      compares: 'the stored proposer after each block against its own model rotated once per ack',
    },
  },
  {
    id: 'checkpoint.noack.after-buffer-time',
    rule: "A no-ack is accepted only once CheckpointBufferTime has passed since the last acked checkpoint's timestamp (full block time in ms against whole seconds); earlier it is 1505.",
    source:
      'spec: States and transitions (MsgCheckpointNoAck), Limits (CheckpointBufferTime); reference: heimdall.md §3.4 step 1',
    guard: {
      oracle: 'checkpoint-timeouts',
      compares: "each accepted no-ack's block time against the last checkpoint's timestamp and the buffer time",
    },
  },
  {
    id: 'checkpoint.noack.sender',
    rule: 'Only one of the next floor(elapsed / buffer time) proposers after the current one may send a no-ack; anyone else gets 1505.',
    source: 'reference: README item 32, heimdall.md §3.4 step 2, §11 item 5',
    guard: {
      oracle: 'checkpoint-timeouts',
      compares: "each accepted no-ack's sender against the proposers its own model rotates to",
    },
  },
  {
    id: 'checkpoint.noack.too-many',
    rule: 'A second no-ack within CheckpointBufferTime of the last one is refused with 1506.',
    source: 'reference: heimdall.md §3.4 step 3',
    guard: { oracle: 'checkpoint-timeouts', compares: "each accepted no-ack's block time against the last no-ack's" },
  },
  {
    id: 'checkpoint.noack.rotates',
    rule: 'An accepted no-ack rotates the proposer by exactly one round, so a new proposer is selected.',
    source: 'spec: States and transitions (MsgCheckpointNoAck); reference: heimdall.md §3.4 step 4',
    guard: {
      oracle: 'checkpoint-timeouts',
      compares: 'the stored proposer after each block against its own model rotated once per no-ack',
    },
  },
  {
    id: 'checkpoint.noack.keeps-buffer',
    rule: 'A no-ack records its block time in whole seconds as the last no-ack and does not flush the buffer.',
    source: 'reference: heimdall.md §3.4 step 4',
    guard: {
      oracle: 'service-state',
      compares: 'the stored last no-ack time and buffer after each block against the model',
    },
  },
  {
    id: 'checkpoint.hash.block-leaf',
    rule: "A checkpoint leaf is keccak256(pad32(number) ‖ pad32(time) ‖ txRoot ‖ receiptRoot) of the sidechain block, not the block's header hash.",
    source: 'spec: Hash rules 1; reference: README item 13, heimdall.md §3.5, §10.6',
    guard: {
      oracle: 'checkpoint-roots',
      compares: 'each acked root against its own leaves of the final canonical blocks',
    },
  },
  {
    id: 'checkpoint.hash.root-tree',
    rule: 'rootHash is a keccak256 Merkle tree over the leaves in block order, padded with zero leaves to a power of two, unsorted, leaves not hashed again; one leaf is its own root.',
    source: 'spec: Hash rules 2; reference: README item 13, heimdall.md §3.5',
    guard: { oracle: 'checkpoint-roots', compares: 'each acked root against its own tree over the range' },
  },
  {
    id: 'checkpoint.hash.account-leaf',
    rule: 'An account leaf is keccak256(pad32(validator id) ‖ pad32(feeAmount) ‖ pad32(slashedAmount)), zero amounts as 32 zero bytes.',
    source: 'spec: Hash rules 3; reference: README item 11',
    guard: { oracle: 'checkpoint-timeouts', compares: 'each accepted account root against its own leaves' },
  },
  {
    id: 'checkpoint.hash.account-root-leaves',
    rule: 'The account root has one leaf per validator id the service ever knew (exited ones too) in id order, amounts 0 when nothing was withdrawn, built like rootHash; no leaves give the zero root.',
    source: 'spec: Hash rules 4; reference: README item 12',
    guard: {
      oracle: 'checkpoint-timeouts',
      compares: 'each accepted account root against its own tree over every known validator id',
    },
  },
  {
    id: 'checkpoint.params.buffer-time',
    rule: 'CheckpointBufferTime defaults to 1000 s, printed by the CLI as 16m40s and served by REST as Go nanoseconds with the reference checkpoint lengths.',
    source: 'spec: Module parameters (checkpoint); reference: README item 14',
    guard: {
      unit: 'src/rpc/rest/restQueries.test.ts',
      test: '/checkpoints/parama (the spec spelling) and /checkpoints/params: the reference params JSON in Go nanoseconds',
      why: 'a constant of the genesis document; the timing it governs is guarded by the no-ack and buffer rules',
    },
  },
] as const satisfies readonly Rule[];
