/** Rules of the bank module (MsgSend, MsgMultiSend, sendenabled) and of the chain parameters module. */
import { type Rule } from './rule';

export const BANK_RULES = [
  {
    id: 'bank.send.moves-exact',
    rule: 'A successful MsgSend moves exactly its amount, per denomination, from the sender to the recipient (sending to oneself changes nothing but the fee).',
    source: 'spec: What the service does 1, Transaction messages (MsgSend)',
    guard: {
      oracle: 'accounts-and-fees',
      compares: "sender's and recipient's balances after the block against the oracle's ledger",
    },
  },
  {
    id: 'bank.send.insufficient',
    rule: 'A send of more than the sender holds (after the fee), or of a denomination it does not hold, is refused with sdk code 10 and leaves no trace.',
    source: 'reference: heimdall.md §6.3 (code 10, insufficient coins)',
    guard: { oracle: 'tx-results', compares: "each MsgSend's result code against the model's balances" },
  },
  {
    id: 'bank.send.amount-valid',
    rule: 'An empty amount list is refused with sdk code 11; zero, negative or malformed amounts and bad denominations are refused at decode (sdk code 2).',
    source: 'reference: heimdall.md §6.3 (codes 2 and 11)',
    guard: {
      oracle: 'tx-results',
      compares: "each MsgSend's result code against the model's validation of its amount",
    },
  },
  {
    id: 'bank.send.disabled',
    rule: 'When sendenabled is false, MsgSend and MsgMultiSend are refused (bank code 101) and leave no trace.',
    source: 'spec: Module parameters (sendenabled), Limits',
    guard: {
      oracle: 'tx-results',
      compares:
        "each send's and multi-send's DeliverTx code against the model's, which reads sendenabled from the genesis (the send-disabled scenario switches it off)",
    },
  },
  {
    id: 'bank.multisend.balanced',
    rule: 'The inputs of a MsgMultiSend must add up to its outputs in every denomination; otherwise bank code 102 and no trace.',
    source: 'reference: README section I (MultiSend records decided)',
    guard: { oracle: 'tx-results', compares: "each MsgMultiSend's result code against the model's sums" },
  },
  {
    id: 'bank.multisend.signer-is-input',
    rule: 'The input of a MsgMultiSend is the signer: an input naming another address is refused with sdk code 4.',
    source: 'reference: README section I (MultiSend records decided)',
    guard: { oracle: 'tx-results', compares: "each MsgMultiSend's result code against the model's signer" },
  },
  {
    id: 'bank.multisend.nonempty',
    rule: 'A MsgMultiSend without inputs, or without outputs, is refused with bank code 102.',
    source: 'reference: README section I (MultiSend records decided)',
    guard: { oracle: 'tx-results', compares: "each MsgMultiSend's result code against the model's validation" },
  },
  {
    id: 'bank.multisend.moves-exact',
    rule: 'A successful MsgMultiSend takes each input from its address and credits each output to its address, exactly.',
    source: 'spec: Transaction messages (MsgMultiSend); reference: README section I',
    guard: {
      oracle: 'accounts-and-fees',
      compares: "every input and output address's balance against the oracle's ledger",
    },
  },
  {
    id: 'bank.supply.conserved',
    rule: 'Balances plus dividend accounts change in total only by what top-ups mint: sends, fees and withdrawals move coins, never make or burn them.',
    source: 'spec: What the service does 11, States and transitions (MsgTopup mints)',
    guard: {
      oracle: 'supply-conservation',
      compares: 'the sum of all balances and dividend accounts against the genesis supply plus top-up mints',
    },
  },
  {
    id: 'chain.params.confirmations',
    rule: 'The chain parameters hold the parent-chain confirmation depth (6), the sidechain confirmation depth (10) and the sidechain chain id.',
    source: 'reference: heimdall.md §3.1 (chainmanager params)',
    guard: {
      unit: 'src/rpc/rest/restQueries.test.ts',
      test: '/chain/params: confirmations and the sidechain chain id',
      why: 'a constant of the genesis document; what the depths govern is guarded by bridge-confirmations and the checkpoint rules',
    },
  },
] as const satisfies readonly Rule[];
