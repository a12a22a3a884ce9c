/** Rules of the bridge: what a service node relays from the parent chain, and when it proposes. */
import { type Rule } from './rule';

export const BRIDGE_RULES = [
  {
    id: 'bridge.relay.confirmation-depth',
    rule: "The bridge relays a parent-chain event only once the event's block has the parent confirmation depth (6 blocks) on top of it.",
    source: 'reference: heimdall.md §8.1 (latest − MainchainTxConfirmations), §8.2',
    guard: {
      oracle: 'bridge-confirmations',
      compares: "each relayed message's parent event against the parent head when it was relayed",
    },
  },
  {
    id: 'bridge.vote.confirmed-events',
    rule: 'Validators accept a parent-chain event in a side vote only at the confirmation depth; a missing or unconfirmed event makes them skip, and a later retry can succeed.',
    source: 'reference: heimdall.md §8.2 (GetConfirmedTxReceipt), §4.5, §5, §7 (side handlers)',
    guard: {
      oracle: 'bridge-confirmations',
      compares: "each yes vote on a staking, top-up or state-sync message against the event's depth at the voter",
    },
  },
  {
    id: 'bridge.relay.event-to-message',
    rule: 'Each parent-chain event becomes its message: Staked a join, StakeUpdate a stake update, UnstakeInit an exit, SignerChange a signer update, TopUpFee a top-up, StateSynced a state-sync record, NewHeaderBlock an ack; the message names the event by (tx_hash, log_index).',
    source: 'spec: Events (Leads to), Authentication 8; reference: heimdall.md §8.1',
    guard: {
      oracle: 'bridge-confirmations',
      compares: "each relayed message's kind against the parent-chain event at its (tx_hash, log_index)",
    },
  },
  {
    id: 'bridge.checkpoint.sidechain-confirmations',
    rule: 'A bridge proposes a checkpoint range only once its end block has the sidechain confirmation depth on its sidechain view.',
    source: 'reference: heimdall.md §3.2, §8.2 (MaticchainTxConfirmations)',
    guard: {
      oracle: 'bridge-confirmations',
      compares: "each proposed range's end against the sidechain head the bridge saw when it proposed",
    },
  },
  {
    id: 'bridge.checkpoint.proposer-proposes',
    rule: "Only the checkpoint proposer's bridge proposes, the next range from the last acked end + 1, and not while an unexpired checkpoint waits in the buffer.",
    source: 'reference: heimdall.md §3.2, §11 item 8',
    guard: {
      unit: 'src/bridge/bridge.test.ts',
      test: 'not while a checkpoint waits in the buffer; again once the buffer has expired (a new MsgCheckpoint flushes it)',
      why: "a bridge's choice of when to propose; what the service accepts is guarded by checkpoint-timeouts and tx-results, and that checkpoints keep coming by liveness-after-heal",
    },
  },
  {
    id: 'bridge.checkpoint.proposer-submits',
    rule: "A checkpoint the service agreed on is sent to the parent chain by the bridge of the validator it names as proposer (from that validator's signer, a new one after a signer change), and by no other.",
    source:
      "spec: What the service does 10; reference: Heimdall v1's bridge (its checkpoint processor submits to the root chain only as the checkpoint's proposer)",
    guard: {
      oracle: 'checkpoint-submitter',
      compares:
        "the sender of each checkpoint submission a bridge reports against the signers the named proposer's validator has had on that node's state",
    },
  },
  {
    id: 'bridge.checkpoint.acks-resume',
    rule: 'Checkpoints keep being proposed, submitted to the parent chain and acked: after faults heal an ack comes within the buffer time plus a checkpoint interval.',
    source: 'spec: What the service does 10, States and transitions (MsgCheckpointNoAck)',
    guard: {
      oracle: 'liveness-after-heal',
      compares: 'the first checkpoint ack after the last fault healed against its bound',
    },
  },
  {
    id: 'bridge.span.proposes-in-window',
    rule: "A bridge proposes the next span while its sidechain head is inside the current span's proposal window, so each span is recorded in time to be committed.",
    source: 'spec: What the service does 7; reference: heimdall.md §2.3 (bridge)',
    guard: {
      oracle: 'span-window-and-continuity',
      compares:
        'the yes votes on each span proposal against the window the voter saw (a bridge outside it wins no yes)',
    },
  },
] as const satisfies readonly Rule[];
