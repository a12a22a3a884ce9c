/** Rules of the staking module: joins, stake updates, exits, signer changes, the validator set and its proposer. */
import { type Rule } from './rule';

const STAKING = 'src/modules/staking/msgs.test.ts';

export const STAKING_RULES = [
  {
    id: 'staking.join.from-staked-event',
    rule: "A join stores the validator the parent chain's Staked event at (tx_hash, log_index) describes: its id, signer, public key and start epoch = the event's activationEpoch; the message itself carries none of these but the id and key.",
    source: 'spec: States and transitions (MsgValidatorJoin), Events (Staked); reference: README item 16',
    guard: {
      oracle: 'service-state',
      compares: 'the validators the node stores after each block against the model built from the parent events',
    },
  },
  {
    id: 'staking.join.power-from-amount',
    rule: "A validator's voting power is its stake in whole tokens: floor(amount / 10^18).",
    source: 'reference: README item 4, heimdall.md §4.2',
    guard: {
      oracle: 'service-state',
      compares: "each stored validator's power against the model's floor(amount / 10^18)",
    },
  },
  {
    id: 'staking.join.min-one-token',
    rule: 'A join or stake update whose amount is below one token fails at the post handler with 1400 and changes nothing.',
    source: 'reference: heimdall.md §4.2, §4.5 (deliver and post handlers)',
    guard: {
      unit: STAKING,
      test: 'rejects an amount below one token with 1400 at post',
      why: "no run can reach it: the parent chain's StakeManager refuses a stake below one token and a restake only adds (parent.stake.min-one-token), so no Staked or StakeUpdate event carries less, and a made-up event is refused at the side vote before the post handler; the stake update's twin is 'rejects a new amount below one token with 1400 at post (power unchanged)'",
    },
  },
  {
    id: 'staking.join.activation-epoch',
    rule: 'A joined validator enters the validator set at the end block where ackCount + 1 >= its activationEpoch (at once when that epoch has passed), not earlier.',
    source:
      'spec: States and transitions (MsgValidatorJoin), Events (ActivationEpoch); reference: README item 17, heimdall.md §4.3',
    guard: {
      oracle: 'service-state',
      compares: "the stored validator set's members after each block against the model's epochs",
    },
  },
  {
    id: 'staking.join.already-joined',
    rule: 'A join for a validator id that already joined, or for a signer another validator already uses, is refused at deliver with 2507.',
    source: 'reference: heimdall.md §4.5 (deliver handlers)',
    guard: { oracle: 'tx-results', compares: "each join's result code against the model's validators" },
  },
  {
    id: 'staking.events.replay-deliver',
    rule: 'A staking message for a (tx_hash, log_index) the service already processed is refused at deliver with 1401.',
    source: 'reference: README item 16 (replay key), heimdall.md §4.5, §8.3',
    guard: { oracle: 'tx-results', compares: "each staking tx's result code against the model's processed events" },
  },
  {
    id: 'staking.events.replay-post',
    rule: 'Of two staking messages for the same event delivered before the first is post-handled, the second fails at the post handler with 1401 and changes nothing.',
    source: 'reference: heimdall.md §4.5 (post handlers), §8.3',
    guard: {
      oracle: 'side-tx-results',
      compares: "each staking side tx's post result against the model's processed events",
    },
  },
  {
    id: 'staking.events.must-match',
    rule: 'Validators vote no on a staking message whose parent-chain event at (tx_hash, log_index) is of another kind or names another validator, public key or signer.',
    source: 'reference: heimdall.md §4.5 (side handlers)',
    guard: {
      oracle: 'side-tx-results',
      compares: "each staking side tx's tally and post result against the model's reading of the event",
    },
  },
  {
    id: 'staking.stake-update.power',
    rule: "A stake update sets the validator's power to floor(newAmount / 10^18) and its last_updated; the set's power follows at the end block of the post block.",
    source: 'spec: States and transitions (MsgStakeUpdate); reference: heimdall.md §4.5',
    guard: {
      oracle: 'service-state',
      compares: "each stored validator's power and the set's powers against the model",
    },
  },
  {
    id: 'staking.events.unknown-validator',
    rule: 'A stake update, exit or signer update for a validator id the service does not know is refused at deliver with 2501.',
    source: 'reference: heimdall.md §4.5 (deliver handlers)',
    guard: { oracle: 'tx-results', compares: "each staking tx's result code against the model's validators" },
  },
  {
    id: 'staking.exit.end-epoch',
    rule: "An exit sets the validator's end epoch to the UnstakeInit event's deactivationEpoch.",
    source: 'spec: States and transitions (MsgValidatorExit), Events (UnstakeInit); reference: heimdall.md §4.5',
    guard: { oracle: 'service-state', compares: "each stored validator's end epoch against the model" },
  },
  {
    id: 'staking.exit.leaves-at-epoch',
    rule: 'An exiting validator stays in the validator set until the end block where ackCount + 1 >= its end epoch, and leaves there.',
    source: 'reference: README item 17, heimdall.md §4.3',
    guard: {
      oracle: 'service-state',
      compares: "the stored validator set's members after each block against the model's epochs",
    },
  },
  {
    id: 'staking.exit.already-exiting',
    rule: 'An exit for a validator that already announced one is refused at deliver with 2504.',
    source: 'reference: heimdall.md §4.5 (deliver handlers)',
    guard: { oracle: 'tx-results', compares: "each exit's result code against the model's end epochs" },
  },
  {
    id: 'staking.signer-update.changes-signer',
    rule: "A signer update gives the validator the SignerChange event's new signer and public key; the set member is replaced, keeping the validator's id, power and proposer priority.",
    source: 'spec: States and transitions (MsgSignerUpdate), Authentication 8; reference: heimdall.md §4.5',
    guard: {
      oracle: 'service-state',
      compares: "each stored validator's signer and the set's members against the model",
    },
  },
  {
    id: 'staking.signer-update.moves-balance',
    rule: "A signer update moves the old signer's whole balance of the fee denomination to the new signer.",
    source: 'reference: heimdall.md §4.5 (SignerUpdate post handler)',
    guard: {
      oracle: 'accounts-and-fees',
      compares: "the old and new signer's balances after the post block against the oracle's ledger",
    },
  },
  {
    id: 'staking.signer-update.unchanged',
    rule: 'A signer update whose new signer is the current one is refused at deliver with 2513.',
    source: 'reference: heimdall.md §4.5 (deliver handlers)',
    guard: { oracle: 'tx-results', compares: "each signer update's result code against the model's signers" },
  },
  {
    id: 'staking.signer-update.signer-taken',
    rule: 'A signer update to a signer another validator already uses fails at the post handler with 2507.',
    source: 'reference: heimdall.md §4.5',
    guard: { oracle: 'side-tx-results', compares: "each signer update's post result against the model's signers" },
  },
  {
    id: 'staking.set.current-validators',
    rule: 'After every end block the stored validator set holds exactly the current validators (start epoch <= ackCount + 1, end epoch 0 or above it, power > 0) with their powers.',
    source: 'reference: heimdall.md §4.3 (EndBlocker, IsCurrentValidator)',
    guard: {
      oracle: 'service-state',
      compares: "the stored validator set after each block against the model's current validators",
    },
  },
  {
    id: 'staking.set.newcomer-priority',
    rule: 'A validator added to the set starts at proposer priority −(T + T/8) for the new total T; members that stay keep theirs; the set is then rescaled and centred (floor average).',
    source: 'reference: heimdall.md §4.4 (UpdateWithChangeSet)',
    guard: {
      oracle: 'checkpoint-timeouts',
      compares: "the stored proposer after every block against its own proposer-priority model fed the set's changes",
    },
  },
  {
    id: 'staking.set.no-rotation-on-change',
    rule: 'A change of members or powers does not rotate the stored proposer: only acks and no-acks do.',
    source: 'reference: README item 32 (post-fork), heimdall.md §4.3, §11 item 6',
    guard: {
      oracle: 'checkpoint-timeouts',
      compares: "the stored proposer after a block that changed the set against the model's unrotated proposer",
    },
  },
  {
    id: 'staking.priority.algorithm',
    rule: "The proposer is chosen with Tendermint's proposer-priority algorithm: rescale to a window of 2T, centre by the floored average, add powers, the highest priority proposes (ties to the smaller address) and pays T.",
    source:
      'spec: States and transitions ("the consensus engine\'s leader selection algorithm"); reference: heimdall.md §4.4, §10.5',
    guard: {
      oracle: 'checkpoint-timeouts',
      compares:
        'the stored proposer against its own implementation of the algorithm (checked against the §10.5 vector)',
    },
  },
  {
    id: 'staking.genesis.proposer',
    rule: 'At genesis the validator set is built fresh (incoming priorities ignored, one rotation) and then rotated once more before the first block.',
    source: 'reference: heimdall.md §4.3 (Genesis)',
    guard: { oracle: 'checkpoint-timeouts', compares: 'the stored proposer at genesis against its own model' },
  },
  {
    id: 'staking.events.signer-update-event',
    rule: 'MsgValidatorExit and MsgSignerUpdate each emit an event named SignerUpdate carrying validatorId, oldSigner and newSigner.',
    source: 'spec: Events ("each stated to emit an event named SignerUpdate"); reference: README section I',
    guard: {
      unit: STAKING,
      test: 'sets endEpoch and emits SignerUpdate; the validator stays in the set until ackCount + 1 >= deactivationEpoch',
      why: 'transaction events are not reported to the oracles (they change no state)',
    },
  },
  {
    id: 'staking.msgs.decode',
    rule: "The staking messages carry only the spec's fields (from, id, pub_key or pubKey, tx_hash, log_index); decode errors are sdk code 2 and name the field.",
    source: 'spec: Transaction messages; reference: README item 16',
    guard: {
      unit: STAKING,
      test: 'decode errors are sdk code 2 and name the bad field',
      why: 'the error text naming a field is not a state effect',
    },
  },
] as const satisfies readonly Rule[];
