/** Rules of the auth module: the transaction envelope, the ante handler, gas and fees. */
import { type Rule } from './rule';

const ANTE = 'src/modules/auth/ante.test.ts';

export const AUTH_RULES = [
  {
    id: 'auth.ante.signature-required',
    rule: 'A transaction without a signature is refused before anything else is looked at (sdk code 17, "No signers").',
    source: 'spec: Authentication 1; reference: README item 24, heimdall.md §6.2 step 4',
    guard: { oracle: 'tx-results', compares: "each delivered tx's result code against the model's ante handler" },
  },
  {
    id: 'auth.ante.memo-limit',
    rule: 'A memo longer than MaxMemoCharacters (256 characters) is refused with sdk code 13; a memo of exactly 256 characters passes.',
    source: 'spec: Authentication 4, Limits (MaxMemoCharacters); reference: heimdall.md §6.2 step 5',
    guard: { oracle: 'tx-results', compares: "each delivered tx's result code against the model's memo check" },
  },
  {
    id: 'auth.ante.unknown-account',
    rule: 'The signer of a transaction must already have an account on the service; otherwise sdk code 9.',
    source: 'reference: README item 24, heimdall.md §6.2 step 6',
    guard: { oracle: 'tx-results', compares: "each delivered tx's result code against the model's accounts" },
  },
  {
    id: 'auth.ante.fee-balance',
    rule: 'A transaction whose signer holds less than the fixed fee is refused with sdk code 5; a balance of exactly the fee is enough.',
    source:
      'spec: Authentication 1, Errors (insufficient fee balance); reference: README item 24, heimdall.md §6.2 step 7',
    guard: { oracle: 'tx-results', compares: "each delivered tx's result code against the model's balances" },
  },
  {
    id: 'auth.ante.fixed-fee',
    rule: 'Every successful transaction costs its signer exactly the fixed fee DefaultTxFees (10^15 of the fee denomination), whatever its size or kind.',
    source: 'spec: Authentication 1 and 5, Limits (DefaultTxFees)',
    guard: {
      oracle: 'accounts-and-fees',
      compares: "each touched account's balance after the block against the oracle's ledger",
    },
  },
  {
    id: 'auth.ante.sequence-increments',
    rule: "Each successful transaction raises its signer's sequence by exactly one.",
    source: 'spec: Authentication 3, States and transitions (any successful transaction)',
    guard: {
      oracle: 'accounts-and-fees',
      compares: "each touched account's sequence after the block against the oracle's ledger",
    },
  },
  {
    id: 'auth.ante.rejected-untouched',
    rule: 'A transaction refused by the ante handler changes nothing: no fee is taken and the sequence stays.',
    source: 'spec: Errors (rejected by the ante handler); reference: heimdall.md §6.2',
    guard: {
      oracle: 'accounts-and-fees',
      compares: 'every account a block wrote against the ledger, in which a rejected tx does nothing',
    },
  },
  {
    id: 'auth.tx.handler-failure-rolls-back',
    rule: 'When a message handler refuses a transaction that passed the ante handler, the fee and the sequence bump are rolled back with the rest: a refused transaction leaves the state as it was.',
    source: 'spec: Authentication 1 ("the fee is deducted for a successful transaction")',
    guard: {
      oracle: 'accounts-and-fees',
      compares: 'every account a block wrote against the ledger, in which a failed tx does nothing',
    },
  },
  {
    id: 'auth.ante.signature-binds-chain-id',
    rule: "The signature covers the service chain's id: a transaction signed for another chain id fails the signature check (sdk code 4).",
    source: 'spec: Authentication 2; reference: README item 24, heimdall.md §6.1',
    guard: {
      oracle: 'tx-results',
      compares: "each delivered tx's result code, the model verifying the signature over its own sign document",
    },
  },
  {
    id: 'auth.ante.signature-binds-sequence',
    rule: "The signature covers the account's current sequence: a sequence ahead or behind, and so any replay, fails with sdk code 4 and the same message (no separate sequence error).",
    source: 'spec: Authentication 2 and 3; reference: README item 24, heimdall.md §6.2 step 8',
    guard: { oracle: 'tx-results', compares: "each delivered tx's result code against the model's sequences" },
  },
  {
    id: 'auth.ante.signature-recovers-signer',
    rule: "The key recovered from the signature must be the message's signer; a signature by any other key fails with sdk code 4.",
    source: 'spec: Authentication 2; reference: heimdall.md §6.1 (verification)',
    guard: {
      oracle: 'tx-results',
      compares: "each delivered tx's result code, the model recovering the signer itself",
    },
  },
  {
    id: 'auth.sign-doc.fields',
    rule: 'A signature covers keccak256 of the sign document: the sorted JSON of account_number, chain_id, memo, the message as {type, value} and sequence, integers as decimal strings.',
    source:
      'spec: Transaction envelope (StdTx) and signing document (StdSignDoc), Authentication 2; reference: heimdall.md §6.1',
    guard: {
      unit: 'src/modules/auth/stdTx.test.ts',
      test: 'is keccak256 of the sorted JSON {account_number, chain_id, memo, msg: {type, value}, sequence}, integers as strings',
      why: 'the byte layout of what is signed; that a signature for another chain id or sequence fails is guarded by tx-results',
    },
  },
  {
    id: 'auth.ante.signature-format',
    rule: 'A signature is 65 bytes r ‖ s ‖ v with v 0 or 1 over keccak256 of the sign bytes; v = 27 or 28, or any other length, fails with sdk code 4.',
    source: 'reference: heimdall.md §6.1 (signature)',
    guard: {
      unit: ANTE,
      test: 'signature with v = 27 (or 28), or of the wrong length: sdk 4',
      why: 'simulations mostly run the fast signature scheme, so the byte format of secp256k1 signatures is pinned where the real scheme runs',
    },
  },
  {
    id: 'auth.ante.decode-errors',
    rule: 'Bytes that do not decode, an unknown message type or a malformed field are refused with sdk code 2, the message naming the field.',
    source: 'reference: heimdall.md §6.3 (code 2, tx decode)',
    guard: {
      oracle: 'tx-results',
      compares:
        "each delivered transaction's decode result (sdk code 2) against the model's own decoder of the wire format",
    },
  },
  {
    id: 'auth.ante.check-order',
    rule: "The ante checks run in the reference order (a signature present and the message's stateless checks, then memo, account, fee, gas, signature): a transaction that breaks several gets the code of the first.",
    source: 'reference: heimdall.md §6.2',
    guard: { oracle: 'tx-results', compares: "each refused tx's code against the first check the model finds broken" },
  },
  {
    id: 'auth.gas.tx-limit',
    rule: 'A transaction whose gas (size × TxSizeCostPerByte plus the signature cost) exceeds DefaultMaxTxGas (1,000,000) is refused with sdk code 12 and leaves no trace.',
    source: 'spec: Authentication 6, Errors (gas above the limit), Limits; reference: heimdall.md §6.2',
    guard: {
      oracle: 'tx-results',
      compares: "each delivered tx's result code against the model's gas count of its bytes",
    },
  },
  {
    id: 'auth.gas.formula',
    rule: 'Gas used is the byte size × 10 plus 1,000 for the secp256k1 signature; gas wanted is the max tx gas.',
    source: 'spec: Limits (TxSizeCostPerByte, SigVerifyCostSecp256k1, DefaultMaxTxGas)',
    guard: {
      oracle: 'tx-results',
      compares:
        "each accepted transaction's gas used against the model's size × TxSizeCostPerByte + SigVerifyCostSecp256k1 (the checkpoint gas for a checkpoint)",
    },
  },
  {
    id: 'auth.account.pubkey-recorded',
    rule: "An account's first successful transaction records its public key on the account.",
    source: 'reference: heimdall.md §6.2 step 9',
    guard: {
      oracle: 'service-state',
      compares: "each written account's public key against the model's (recorded by its first successful transaction)",
    },
  },
] as const satisfies readonly Rule[];
