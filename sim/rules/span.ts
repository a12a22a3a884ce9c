/** Rules of the span module: span proposals, the producer selection, the stored spans. */
import { type Rule } from './rule';

const SPAN = 'src/modules/span/msgs.test.ts';

export const SPAN_RULES = [
  {
    id: 'span.proposal.window',
    rule: 'A validator votes yes on a span proposal only when the sidechain head n it sees lies in the current span, start <= n < end (the end block itself is outside).',
    source: 'spec: What the service does 7, States and transitions (MsgProposeSpan); reference: README item 2',
    guard: {
      oracle: 'span-window-and-continuity',
      compares: "each yes vote's reported head against the current span's range",
    },
  },
  {
    id: 'span.proposal.chain-id',
    rule: 'A span proposal naming another sidechain chain id is refused at deliver with 3506, before any other span check.',
    source: 'reference: README item 2, heimdall.md §2.3 step 1',
    guard: { oracle: 'tx-results', compares: "each span proposal's result code against the model's chain id" },
  },
  {
    id: 'span.proposal.continuity',
    rule: 'A span proposal must continue the last span: id = last id + 1, start = last end + 1, end >= start; otherwise 3501 at deliver.',
    source: 'reference: README item 2, heimdall.md §2.3 step 3',
    guard: { oracle: 'tx-results', compares: "each span proposal's result code against the model's last span" },
  },
  {
    id: 'span.proposal.duration',
    rule: 'A span proposal must be exactly SpanDuration (1600) blocks long; otherwise 3507 at deliver.',
    source: 'spec: Module parameters (SpanDuration); reference: heimdall.md §2.3 step 4',
    guard: { oracle: 'tx-results', compares: "each span proposal's result code against the model's span duration" },
  },
  {
    id: 'span.store.continuous',
    rule: 'The spans the service stores continue one another: each id is the previous + 1 and starts one block after the previous span ends.',
    source: 'spec: States and transitions (MsgProposeSpan); reference: heimdall.md §2.3',
    guard: {
      oracle: 'span-window-and-continuity',
      compares: "each stored span's id and start against the node's previous stored span",
    },
  },
  {
    id: 'span.store.duration',
    rule: 'Every stored span after span 0 is SpanDuration blocks long.',
    source: 'spec: Module parameters (SpanDuration); reference: heimdall.md §2.3 step 4',
    guard: {
      oracle: 'span-window-and-continuity',
      compares: "each stored span's length against the genesis span duration",
    },
  },
  {
    id: 'span.post.replay',
    rule: 'A span id already recorded is not recorded again: the later post handler fails with 1401 and changes nothing.',
    source: 'reference: heimdall.md §2.3 (post handler step 2), §8.3',
    guard: {
      oracle: 'side-tx-results',
      compares: "each span proposal's post result against the model's recorded spans",
    },
  },
  {
    id: 'span.selection.eligible',
    rule: 'The validators eligible to produce in the next span are the current validators that have not announced an exit (end epoch 0), in signer-address order; a leaving validator is excluded although still in the set.',
    source: 'reference: heimdall.md §1.5',
    guard: {
      oracle: 'service-state',
      compares: "each stored span's producers against the model's own selection over its eligible validators",
    },
  },
  {
    id: 'span.selection.all-if-few',
    rule: 'When at most ProducerCount validators are eligible, all of them produce, each with its real voting power.',
    source: 'spec: What the service does 8.1; reference: README item 3',
    guard: {
      oracle: 'service-state',
      compares: "each stored span's producers and powers against the model's selection",
    },
  },
  {
    id: 'span.selection.slots-and-shuffle',
    rule: "Otherwise each eligible validator gets one slot per unit of power (SlotCost 1), the slot list is shuffled with the swap-or-not shuffle (SHA-256, 90 rounds) seeded with the first 32 bytes of the seed block's hash, and the first ProducerCount slots are taken.",
    source: 'spec: What the service does 8.2-8.5; reference: README items 3-4, heimdall.md §1.4, §10.4',
    guard: {
      oracle: 'service-state',
      compares:
        "each stored span's producers against the model's own slots and shuffle (checked against the §10.4 vectors)",
    },
  },
  {
    id: 'span.selection.span-power',
    rule: "A selected producer's power in the span is the number of slots it won, and the producers are listed in signer-address order.",
    source: 'reference: README item 3 (keeper post-processing), heimdall.md §1.2',
    guard: {
      oracle: 'service-state',
      compares: "each stored span's producer list and powers against the model's selection",
    },
  },
  {
    id: 'span.selection.seed-block',
    rule: 'The seed of span selection is the hash of parent-chain block lastEthBlock + 1, a counter that grows by one with every span recorded.',
    source: 'spec: What the service does 8.3; reference: README item 5, heimdall.md §1.6 (pre-Jorvik)',
    guard: {
      oracle: 'service-state',
      compares: 'the stored seed-block counter and the seed each span used against the model',
    },
  },
  {
    id: 'span.selection.seed-visible',
    rule: 'A validator whose view of the parent chain does not yet hold the seed block skips the vote instead of guessing.',
    source: 'reference: README item 6 (each validator recomputes the seed)',
    guard: {
      unit: SPAN,
      test: 'every validator uses the parent-chain block hash it observes: a seed block not yet visible makes validators skip (5502)',
      why: "which parent blocks a validator's view held when it voted is not reported; the outcome is guarded by service-state",
    },
  },
  {
    id: 'span.genesis.first-span',
    rule: 'Span 0 covers sidechain blocks 0..255 and its producers are the first ProducerCount validators by signer address, at full power.',
    source: 'reference: README item 7, heimdall.md §2.2',
    guard: { oracle: 'service-state', compares: "the genesis span the node stores against the model's span 0" },
  },
  {
    id: 'span.record.frozen',
    rule: 'A recorded span keeps the validator set and producers it was recorded with; later signer or stake changes do not alter it.',
    source: 'reference: heimdall.md §2.3 (FreezeSet)',
    guard: { oracle: 'service-state', compares: "every stored span against the model's span as recorded" },
  },
  {
    id: 'span.msgs.decode',
    rule: "MsgProposeSpan carries the spec's five fields (span_id, proposer, start_block, end_block, sidechain_chain_id) and no seed; decode errors are sdk code 2 and name the field.",
    source: 'spec: Transaction messages (MsgProposeSpan); reference: README item 6',
    guard: {
      unit: SPAN,
      test: 'decode errors name the field (sdk code 2)',
      why: 'the error text naming a field is not a state effect',
    },
  },
  {
    id: 'span.params.defaults',
    rule: 'The sidechain module parameters default to sprint 16 blocks, span 1600 blocks and 4 producers.',
    source: 'spec: Module parameters (sidechain); reference: README item 7',
    guard: {
      unit: 'src/rpc/rest/restQueries.test.ts',
      test: '/sidechain/params: sprint_duration, span_duration, producer_count',
      why: 'constants of the genesis document; what they govern is guarded by the span and sidechain rules',
    },
  },
] as const satisfies readonly Rule[];
