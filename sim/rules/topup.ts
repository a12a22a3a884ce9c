/** Rules of the topup module: fee top-ups from the parent chain and fee withdrawals into dividend accounts. */
import { type Rule } from './rule';

const TOPUP = 'src/modules/topup/msgs.test.ts';

export const TOPUP_RULES = [
  {
    id: 'topup.mint.event-fee',
    rule: "A top-up voted through mints the parent chain's TopUpFee amount to the event's user (the validator's signer), then moves the fixed 10^15 from that user to the relayer (from_address).",
    source: 'spec: States and transitions (MsgTopup); reference: README item 20, heimdall.md §5',
    guard: {
      oracle: 'accounts-and-fees',
      compares: "the user's and the relayer's balances after the post block against the ledger fed the parent event",
    },
  },
  {
    id: 'topup.mint.once',
    rule: 'A (tx_hash, log_index) is minted at most once, however often it is relayed.',
    source: 'spec: States and transitions (MsgTopup), Limits (top-up idempotency); reference: README item 21',
    guard: {
      oracle: 'topup-idempotency',
      compares: 'the (tx_hash, log_index) of every successful top-up post on each node',
    },
  },
  {
    id: 'topup.replay.deliver',
    rule: "A top-up for a processed (tx_hash, log_index) is refused at deliver with code 1401 in codespace topup, message 'Older invalid tx found'; the balance is unchanged.",
    source: 'spec: Errors (MsgTopup handled again); reference: README item 21',
    guard: {
      oracle: 'tx-results',
      compares: "each MsgTopup's result code and codespace against the model's processed top-ups",
    },
  },
  {
    id: 'topup.replay.post',
    rule: 'Of two relays of one top-up delivered before the first is post-handled, the second fails at the post handler with 1401 and mints nothing.',
    source: 'reference: README item 21 ("checked at deliver and post time")',
    guard: { oracle: 'side-tx-results', compares: "each top-up's post result against the model's processed top-ups" },
  },
  {
    id: 'topup.event.user-is-signer',
    rule: "Validators vote no (nothing is minted) when the TopUpFee event's user is not the signer of the message's validator id, or the event is not a TopUpFee.",
    source: 'reference: README item 20 (decided)',
    guard: {
      oracle: 'side-tx-results',
      compares: "each top-up's tally and post result against the model's reading of the event",
    },
  },
  {
    id: 'topup.deliver.send-disabled',
    rule: 'With sending disabled a top-up is refused at deliver with code 101 in codespace topup.',
    source: 'reference: README item 20, heimdall.md §5',
    guard: {
      oracle: 'tx-results',
      compares:
        "each top-up's DeliverTx code against the model's, which reads sendenabled from the genesis (the send-disabled scenario switches it off)",
    },
  },
  {
    id: 'topup.withdraw.whole-balance',
    rule: "A withdrawal of amount 0 (or an empty amount) takes the validator signer's whole balance after the fee and adds it to its dividend account.",
    source: 'spec: States and transitions (MsgWithdrawFee); reference: README item 11, heimdall.md §5',
    guard: {
      oracle: 'accounts-and-fees',
      compares: "the signer's balance and its dividend account after the block against the ledger",
    },
  },
  {
    id: 'topup.withdraw.exact',
    rule: "A withdrawal of a given amount moves exactly that amount from the signer's balance to its validator's dividend account; fee amounts only accumulate.",
    source: 'spec: States and transitions (MsgWithdrawFee); reference: README item 11',
    guard: {
      oracle: 'accounts-and-fees',
      compares: "the signer's balance and its dividend account after the block against the ledger",
    },
  },
  {
    id: 'topup.withdraw.nothing',
    rule: 'A withdrawal that would move nothing is refused with code 104 in codespace topup.',
    source: 'reference: heimdall.md §5 (ErrNoBalanceToWithdraw)',
    guard: { oracle: 'tx-results', compares: "each MsgWithdrawFee's result code against the model's balance" },
  },
  {
    id: 'topup.withdraw.too-much',
    rule: 'A withdrawal of more than the balance is refused with sdk code 10 and leaves no trace.',
    source: 'reference: heimdall.md §5',
    guard: { oracle: 'tx-results', compares: "each MsgWithdrawFee's result code against the model's balance" },
  },
  {
    id: 'topup.withdraw.validator-only',
    rule: 'Only a validator signer can withdraw fees (the dividend account is keyed by validator id); anyone else gets 2501.',
    source: 'spec: States and transitions (MsgWithdrawFee "given validator"); reference: README item 11',
    guard: { oracle: 'tx-results', compares: "each MsgWithdrawFee's result code against the model's validators" },
  },
  {
    id: 'topup.withdraw.next-checkpoint',
    rule: 'After a withdrawal the next checkpoint must carry the new account root, so it carries the withdrawal to the parent chain.',
    source: 'spec: States and transitions (MsgWithdrawFee); reference: README item 11',
    guard: {
      oracle: 'checkpoint-timeouts',
      compares: "each accepted checkpoint's account root against its own root over the dividend accounts",
    },
  },
  {
    id: 'topup.msgs.decode',
    rule: "MsgTopup carries the spec's fields (from_address, id, tx_hash, log_index); tx_hash must be 32 bytes and the integers uint64, else sdk code 2 naming the field.",
    source: 'spec: Transaction messages (MsgTopup); reference: README item 20',
    guard: {
      unit: TOPUP,
      test: 'decode: tx_hash must be 32 bytes, id and log_index uint64 (sdk 2, naming the field)',
      why: 'the error text naming a field is not a state effect',
    },
  },
] as const satisfies readonly Rule[];
