/** Rules of the sidechain (Bor with Clique seals): seal, difficulty, delays, sprints, span and state-sync commits, fork choice, finality. */
import { type Rule } from './rule';

const HEADER = 'src/sidechain/header.test.ts';

export const SIDECHAIN_RULES = [
  {
    id: 'sidechain.seal.signer-in-snapshot',
    rule: "A block must be sealed by a producer of its parent's snapshot; a block by anyone else is refused.",
    source: 'spec: What the service does 4; reference: sidechain.md §2.6 (UnauthorizedSignerError)',
    guard: {
      oracle: 'producer-schedule',
      compares: "each block's recovered signer against its own snapshot of the parent",
    },
  },
  {
    id: 'sidechain.difficulty.n-minus-succession',
    rule: "A block's difficulty is N − succession, N the producers of the parent's snapshot: in turn N, first backup N − 1, …, the last 1; the exact value is required.",
    source: 'spec: What the service does 4 (in turn weighs more); reference: README item 26, sidechain.md §2.4',
    guard: {
      oracle: 'producer-schedule',
      compares: "each block's difficulty against N − succession from its own snapshot",
    },
  },
  {
    id: 'sidechain.succession.from-proposer',
    rule: "A signer's succession is its distance after the sprint's in-turn proposer, walking the address-sorted producers cyclically.",
    source: 'reference: sidechain.md §2.2, §2.4',
    guard: {
      oracle: 'producer-schedule',
      compares: "each block's difficulty, which encodes the succession, against its own snapshot",
    },
  },
  {
    id: 'sidechain.delay.producer-delay',
    rule: "A block's time is at least its parent's time plus the delay for its number and succession: the period (2 s), or producerDelay (4 s) at a sprint start, plus succession × backupMultiplier (2 s); no random wiggle.",
    source:
      'spec: What the service does 4 (wiggle time), Module parameters (2 s blocks); reference: README item 25, sidechain.md §2.5',
    guard: { oracle: 'producer-schedule', compares: "each block's time against parent time + its own delay formula" },
  },
  {
    id: 'sidechain.sprint.rotation',
    rule: 'The in-turn producer changes exactly once per sprint, by one proposer-priority round applied with the sprint-end header, and stays for every block of the next sprint.',
    source: 'spec: What the service does 5; reference: README item 27, sidechain.md §2.3',
    guard: {
      oracle: 'producer-schedule',
      compares: "each block's difficulty against its own snapshot rotated once per sprint end",
    },
  },
  {
    id: 'sidechain.sprint.announce',
    rule: 'A sprint-end header (n > 0, (n + 1) % sprint = 0) announces the producers of block n + 1 sorted by address (20-byte address ‖ 20-byte power each); no other header announces any.',
    source: 'reference: sidechain.md §2.6',
    guard: {
      oracle: 'producer-schedule',
      compares: "each header's announced list against the producers its own model expects for the next block",
    },
  },
  {
    id: 'sidechain.snapshot.genesis',
    rule: "The sidechain's first snapshot is a fresh validator set of span 0's producers: the highest power is in turn first, ties to the smaller address.",
    source: 'reference: sidechain.md §2.3 (Genesis)',
    guard: { oracle: 'producer-schedule', compares: "the first blocks' difficulties against its own genesis snapshot" },
  },
  {
    id: 'sidechain.span.genesis-producers',
    rule: "The sidechain's genesis producers are the service's span 0 producers.",
    source: 'reference: README item 7, sidechain.md §2.1 (first span)',
    guard: {
      oracle: 'producer-schedule',
      compares: "the sidechain genesis producers against the service's stored span 0",
    },
  },
  {
    id: 'sidechain.span.commit-matches',
    rule: "A span committed on the sidechain is the span the service recorded: same id, range and selected producers with their powers, and the next id after the chain's current span.",
    source: 'spec: What the service does 6; reference: sidechain.md §2.7 (commitSpan)',
    guard: {
      oracle: 'producer-schedule',
      compares: "each block's span commit against the service's stored span and the chain's current span",
    },
  },
  {
    id: 'sidechain.span.commit-at-sprint-start',
    rule: 'Spans are committed only by the system call of a sprint-start block (n % sprint = 0).',
    source: 'reference: sidechain.md §2.7',
    guard: { oracle: 'producer-schedule', compares: 'the number of each block that carries a span commit' },
  },
  {
    id: 'sidechain.span.commit-block',
    rule: 'The next span is committed at the first block of the last sprint of the current span (end − sprint + 1); span 1 at the first sprint start, block 16; the new producers govern from end + 1.',
    source:
      'spec: What the service does 6 ("at the end of each span"); reference: README item 29, sidechain.md §2.7, §6',
    guard: {
      oracle: 'span-commit',
      compares: 'the block at which each span is committed against the block the reference gives',
    },
  },
  {
    id: 'sidechain.state-sync.sprint-start',
    rule: 'State-sync records are committed only by the system calls of sprint-start blocks.',
    source: 'spec: What the service does 9; reference: sidechain.md §2.7',
    guard: { oracle: 'state-sync', compares: 'the number of each block that commits state syncs' },
  },
  {
    id: 'sidechain.state-sync.sequential',
    rule: 'State-sync records are committed in id order, each id once on a chain, continuing from the last id its parent chain committed.',
    source: 'reference: sidechain.md §2.7 (commitState: "StateIds are not sequential")',
    guard: { oracle: 'state-sync', compares: "each committed id against the last id on the block's parent chain" },
  },
  {
    id: 'sidechain.state-sync.confirmation-delay',
    rule: 'A block commits only records older than its time minus the state-sync confirmation delay (128 s).',
    source: 'reference: sidechain.md §2.1 (stateSyncConfirmationDelay), §2.7',
    guard: { oracle: 'state-sync', compares: "each committed record's time against the block time minus the delay" },
  },
  {
    id: 'sidechain.state-sync.latency',
    rule: 'A record the parent chain emitted while the network was calm reaches the canonical sidechain within a bound (confirmations, relay, vote, poll, delay, a sprint).',
    source: 'spec: What the service does 9',
    guard: {
      oracle: 'state-sync-latency',
      compares: "each StateSynced event's time against when its record landed on the final canonical chain",
    },
  },
  {
    id: 'sidechain.state-sync.tx-hash',
    rule: 'The extra state-sync transaction of a block has hash keccak256("matic-bor-receipt-" ‖ u64be(number) ‖ blockHash).',
    source:
      'spec: What the service does 9 (hash from block number and block hash); reference: README item 30, sidechain.md §2.8, §7',
    guard: {
      unit: 'src/sidechain/index.test.ts',
      test: 'they answer the public vectors',
      why: 'receipts are not reported to the oracles; the hash is a pure function pinned by the public vectors',
    },
  },
  {
    id: 'sidechain.state-sync.receipt-only-with-logs',
    rule: 'A block gets the extra state-sync transaction and receipt only when its state-sync calls emitted logs.',
    source: 'reference: README item 30, sidechain.md §2.8',
    guard: {
      unit: 'src/sidechain/readPort.test.ts',
      test: 'blocks without state syncs have no state-sync transaction',
      why: 'receipts are not reported to the oracles',
    },
  },
  {
    id: 'sidechain.fork-choice.total-difficulty',
    rule: "Every node's head is the block with the highest total difficulty among the blocks it holds.",
    source: 'spec: What the service does 4; reference: README item 28, sidechain.md §3.1',
    guard: {
      oracle: 'fork-choice',
      compares: "each node's reported head after every import against the heaviest block of its own block tree",
    },
  },
  {
    id: 'sidechain.fork-choice.tie-breaks',
    rule: 'On equal total difficulty the lower number wins, then the lexicographically larger hash; a node never prefers its own head.',
    source: 'reference: README item 28, sidechain.md §3.1; project decision (docs/ARCHITECTURE.md: no self-preference)',
    guard: { oracle: 'fork-choice', compares: "each node's reported head against its own tie-break order" },
  },
  {
    id: 'sidechain.finality.whitelist',
    rule: 'A node never adopts a chain that rewrites the block at its finality floor (the end of the last checkpoint it verified), however heavy.',
    source: 'reference: README item 28, sidechain.md §3.2 (isValidChain)',
    guard: {
      oracle: 'fork-choice',
      compares: "each node's head against the heaviest chain that keeps its finality floor",
    },
  },
  {
    id: 'sidechain.finality.floor-after-ack',
    rule: 'Once a checkpoint is acked and a node had time to fetch it (100 s), the node never reorgs below its end block.',
    source: 'reference: sidechain.md §3.2 (fetch loops, whitelisting)',
    guard: {
      oracle: 'finality-floor',
      compares: "every reorg's common ancestor against the floor of each acked checkpoint once fetchable",
    },
  },
  {
    id: 'sidechain.finality.floor-is-acked-end',
    rule: "A node's finality floor is the end block of a checkpoint its service acked, on the node's own chain and with that checkpoint's root over its range; it never goes down.",
    source: 'reference: sidechain.md §3.2 (borVerify, whitelisting)',
    guard: {
      oracle: 'finality-floor',
      compares: "each floor a node reports against the acked checkpoints, its own chain and the oracle's own root",
    },
  },
  {
    id: 'sidechain.finality.no-reorg-below-floor',
    rule: 'No node ever reorgs below its finality floor (the floor it had before the reorg).',
    source: 'reference: sidechain.md §3.2-§3.3 (checkpoint whitelisting in fork choice)',
    guard: { oracle: 'finality-floor', compares: "every reorg's common ancestor against the node's floor before it" },
  },
  {
    id: 'sidechain.convergence.after-heal',
    rule: 'Once faults heal and the network settles, every live node is on the same canonical chain, within a few blocks of the best.',
    source: 'spec: What the service does 4 (forks are resolved)',
    guard: {
      oracle: 'sidechain-convergence',
      compares: "every live node's head and its canonical hash at a common height",
    },
  },
  {
    id: 'sidechain.backup.stamp-delay',
    rule: "A backup's block is stamped at its parent's time plus its own delay (period, or the producer delay at a sprint start, plus succession x wiggle), unless a fault delayed the producer.",
    source: 'spec: What the service does 4 (wiggle time); reference: README item 25',
    guard: {
      oracle: 'backup-step-in',
      compares: "each backup block's time against its parent's plus its delay and the latency, outside delaying faults",
    },
  },
  {
    id: 'sidechain.backup.step-in',
    rule: "When the in-turn producer is silent a backup produces after its delay: no gap on the canonical chain exceeds the last backup's delay, unless every producer was silenced.",
    source: 'spec: What the service does 4 (backup producers)',
    guard: { oracle: 'backup-step-in', compares: 'every gap between canonical blocks against the last backup delay' },
  },
  {
    id: 'sidechain.liveness.after-heal',
    rule: 'Once every fault has healed, sidechain blocks are produced again within a bound.',
    source: 'spec: What the service does 4',
    guard: {
      oracle: 'liveness-after-heal',
      compares: 'the first sidechain import after the last fault healed against its bound',
    },
  },
  {
    id: 'sidechain.header.validity',
    rule: "A block is imported only when its header is valid on its parent: its number follows the parent's, its hash is its header's, its seal recovers to the signer it claims, its difficulty is N − succession, its time is at least the period and the signer's delay after the parent's, its extra holds the 32-byte vanity and the 65-byte seal (a producer list only at a sprint end, and there the span's), its base fee, gas limit, gas used, transaction and receipt roots, bloom and state root are what the parent and its body give. A block from the future is held until its time.",
    source:
      'reference: sidechain.md §1.4, §2.4-§2.6; Bor consensus/bor verifyHeader, verifyCascadingFields, verifySeal; geth core/block_validator.go',
    guard: {
      oracle: 'sidechain-refused',
      compares:
        "every node's imports against the blocks the byzantineBlocks fault crafted to break one rule each (none imported, the one from the future not before its time)",
    },
  },
  {
    id: 'sidechain.seal.hash',
    rule: "The seal hash is keccak256 of the RLP header fields without the seal (Clique's encodeSigHeader, baseFee only when present); the block hash covers the seal.",
    source: 'reference: sidechain.md §1.2, §2.6, §7',
    guard: { unit: HEADER, test: 'geth TestSealHash vector', why: 'a byte encoding, pinned by the public vector' },
  },
  {
    id: 'sidechain.extra.producer-bytes',
    rule: "A sprint-end header's producer list is laid out in extraData between the vanity and the seal, sorted by address, 20-byte address ‖ 20-byte big-endian power each.",
    source: 'reference: sidechain.md §2.6',
    guard: {
      unit: HEADER,
      test: 'sorted by address, 20-byte address ‖ 20-byte big-endian power',
      why: 'a byte layout; the announced list itself is judged by producer-schedule',
    },
  },
  {
    id: 'sidechain.base-fee.eip1559',
    rule: "A block's base fee follows from its parent's header (EIP-1559, London from genesis): the parent's fee when the parent used exactly its gas target (half its gas limit); above it, the fee rises by fee × (used − target) / target / 16, at least 1 wei; below it, it falls by fee × (target − used) / target / 16. The denominator is Bor's 16 (geth: 8); the genesis fee is 1 gwei.",
    source: 'reference: sidechain.md §2.1 (Delhi: BaseFeeChangeDenominator 8→16); geth eip1559.CalcBaseFee',
    guard: {
      oracle: 'sidechain-accounts',
      compares: "each imported block's base fee against its own computation from the parent header it recorded",
    },
  },
  {
    id: 'sidechain.tx.chain-id',
    rule: "A sidechain transaction carries the sidechain's chain id (EIP-155 replay protection); one signed for another chain is not in any block.",
    source: 'EIP-155; geth London signer (invalid chain id for signer)',
    guard: { oracle: 'sidechain-accounts', compares: "each block transaction's chain id against the genesis chain id" },
  },
  {
    id: 'sidechain.tx.sender-recovery',
    rule: "A transaction's sender is the address whose secp256k1 key made its signature (r, s, yParity) over its signing digest (EIP-155 legacy or EIP-1559): ECDSA public-key recovery, the address the low 20 bytes of the key's keccak256. A signature that recovers no key is refused (invalid sender); a transaction is never taken as another account's, whatever else its signature's bytes look like. (A fast-crypto simulation's keyed-hash signatures stand in for this only on a fast-crypto network.)",
    source:
      'yellow paper Appendix F (the sender is ECDSARECOVER of the signing hash); EIP-155, EIP-1559 (the signing payloads); geth types.Sender (invalid sender); reference: sidechain.md §5 (a transaction carries r, s and v or yParity)',
    guard: {
      oracle: 'sidechain-accounts',
      compares:
        "each block transaction's sender against its own recovery (ethers) of the signature over the transaction's fields, on real-crypto runs",
    },
  },
  {
    id: 'sidechain.tx.nonce',
    rule: "A transaction's nonce is its sender's nonce in the state it runs on (the parent's, after the block's earlier transactions); running it raises the sender's nonce by one, and nothing else moves a nonce.",
    source: 'geth state transition preCheck (nonce too low / too high)',
    guard: {
      oracle: 'sidechain-accounts',
      compares: "each transaction's nonce and every account nonce a block reports against its own accounts",
    },
  },
  {
    id: 'sidechain.tx.fee-cap',
    rule: "A transaction's tip is at most its fee cap and its fee cap at least the block's base fee (a legacy transaction's gas price is both); it pays the effective price min(baseFee + tip, feeCap) per gas.",
    source: 'EIP-1559; geth state transition preCheck (ErrTipAboveFeeCap, ErrFeeCapTooLow)',
    guard: {
      oracle: 'sidechain-accounts',
      compares: "each transaction's caps against the base fee, and the effective gas price the node reports",
    },
  },
  {
    id: 'sidechain.tx.funds',
    rule: "The sender holds at least gas limit × fee cap + value before the transaction runs (geth's buyGas: insufficient funds for gas * price + value).",
    source: 'geth state transition buyGas (ErrInsufficientFunds)',
    guard: {
      oracle: 'sidechain-accounts',
      compares: "each sender's balance in its own accounts against the transaction's cost",
    },
  },
  {
    id: 'sidechain.tx.gas',
    rule: "A transaction offers at least 21,000 gas and no more than the block has left; a transfer uses exactly 21,000 gas, and a header's gas used is the sum of its transactions'.",
    source: 'geth intrinsic gas (TxGas) and gas pool (ErrGasLimitReached); yellow paper header gasUsed',
    guard: {
      oracle: 'sidechain-accounts',
      compares: "each transaction's gas limit and gas used, and each header's gas used, against its own sums",
    },
  },
  {
    id: 'sidechain.tx.transfer',
    rule: 'A transfer debits its sender the value plus gas used × effective price and credits its recipient the value; no other account changes but the block author (the tip) and overridden balances.',
    source: 'geth state transition (buyGas, Transfer, refundGas) for an account without code',
    guard: {
      oracle: 'sidechain-accounts',
      compares:
        'every account balance a block reports, and every account it should have changed, against its own accounts',
    },
  },
  {
    id: 'sidechain.tx.tip-to-author',
    rule: "The block's author (its signer: Bor's coinbase is zero) is credited gas used × (effective price − base fee) per transaction; the base fee part is burnt.",
    source:
      'EIP-1559; reference: sidechain.md §2.1 (Bor sends the base fee to a burnt contract; here it is burnt: docs/DEVNET.md)',
    guard: {
      oracle: 'sidechain-accounts',
      compares: "the author's balance after each block against its own sum of tips",
    },
  },
  {
    id: 'sidechain.pool.admission',
    rule: "A node's pool answers a client's transaction with geth's checks, in geth's order, against its head: already known; the chain id; at least 21,000 gas and no more than the head's gas limit; a tip no higher than the fee cap and at least 1 wei, a fee cap no lower than the lowest base fee the chain reaches; a nonce not below the sender's; a cost (gas × fee cap + value) the balance covers, alone and with the sender's other pooled transactions. A refusal names the first check that fails; a transaction that passes them all is admitted unless a pool limit refuses it.",
    source:
      'reference: sidechain.md §5 items 8-9 (a wallet sends, then reads the refusal by its words); geth core/txpool/validation.go ValidateTransaction, ValidateTransactionWithState, legacypool.add',
    guard: {
      oracle: 'sidechain-pool',
      compares:
        "each client transaction's answer against its own admission checks on the transaction, the head's gas limit, the sender's account and pooled transactions the node reported",
    },
  },
  {
    id: 'sidechain.pool.replacement',
    rule: 'A transaction with the nonce of one the pool holds for its sender replaces it only when both its fee cap and its tip are strictly higher and at least 10% higher; otherwise it is refused as an underpriced replacement.',
    source: 'reference: sidechain.md §5 item 9 (REPLACEMENT_UNDERPRICED); geth legacypool list.Add (PriceBump 10%)',
    guard: {
      oracle: 'sidechain-pool',
      compares: "each same-nonce client transaction's answer against the pooled one's fees, bumped by 10%",
    },
  },
  {
    id: 'sidechain.pool.included',
    rule: "A client's transfer that a pool admitted as next in line for its sender (its nonce the account's, or right after the sender's other pooled ones) is on a chain within a few blocks, or another transfer of the sender takes its nonce; in calm weather (no fault in force, a lossless network), a pool that answered yes does not sit on it.",
    source:
      "reference: sidechain.md §5 item 8 (a wallet waits for the answered hash's receipt); geth's miner takes the pool's pending transactions",
    guard: {
      oracle: 'sidechain-inclusion',
      compares:
        'each transfer admitted as next in line against the blocks every node imports, within 8 blocks of the highest seen at admission',
    },
  },
  {
    id: 'sidechain.pool.answer-kept',
    rule: "A pool's answer is what it did: a refused transaction leaves the pool as it was; an admitted one is held afterwards, in place of the one it replaced, and the sender's other pooled transactions stay (but for evictions from a full pool).",
    source:
      'reference: sidechain.md §5 item 8 (a wallet waits on the answered hash); geth legacypool.add (a refusal returns before the pool changes)',
    guard: {
      oracle: 'sidechain-pool',
      compares: "the sender's pooled transactions the node reported just before and just after each answer",
    },
  },
  {
    id: 'sidechain.accounts.balance-override',
    rule: "A block's balance overrides (a devnet operator's anvil_setBalance, carried in the body) set those balances before the block's transactions run; nonces stay.",
    source: 'docs/DEVNET.md (anvil_setBalance is carried by a block)',
    guard: {
      oracle: 'sidechain-accounts',
      compares: 'the overridden accounts after the block against its own accounts',
    },
  },
  {
    id: 'sidechain.header.bloom',
    rule: "A header's logs bloom is the 2048-bit bloom of its transactions' logs: each log's address and each of its topics sets three bits, the low 11 bits of the first three byte pairs of its keccak256, the 256 bytes written most significant first. A transfer of a positive value logs Bor's LogTransfer from the fee-token contract 0x…1010 (topics: the event, the token, the sender, the recipient); a transfer of 0 logs nothing. The state-sync logs are in no header bloom, and a block without logs carries the empty bloom (256 zero bytes).",
    source:
      "yellow paper §4.3.1 (the bloom function); geth types.CreateBloom (bloom9); Bor core/bor_fee_log.go AddTransferLog; reference: sidechain.md §1.2 (the header's bloom field), §2.8 (the state-sync logs are not in the header's logsBloom)",
    guard: {
      oracle: 'sidechain-accounts',
      compares:
        "each imported header's bloom against its own bloom over the logs its model of the block's transfers emits, naming the first byte that differs",
    },
  },
] as const satisfies readonly Rule[];
