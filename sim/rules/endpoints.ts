/**
 * Rules of the endpoints: the service REST API, the node status RPC, the sidechain JSON-RPC, the
 * operator console and the client and daemon commands. Their shapes and formats are invisible to a
 * simulation (no client reads them during a run), so unit tests pin them; what a REST answer says
 * about the state, and what the sidechain's JSON-RPC transaction reads say about a node's chain,
 * are compared by oracles (a simulated client reads both in every run).
 */
import { type Rule } from './rule';

const RQ = 'src/rpc/rest/restQueries.test.ts';
const RS = 'src/rpc/rest/restServer.test.ts';
const ST = 'src/rpc/status/statusServer.test.ts';
const JS = 'src/rpc/jsonrpc/jsonRpcServer.test.ts';
const JM = 'src/rpc/jsonrpc/methods.test.ts';
const JT = 'src/rpc/jsonrpc/transactionMethods.test.ts';
const CE = 'src/rpc/console/consoleEval.test.ts';
const CL = 'src/client/commands.test.ts';
const SHAPE = 'a response shape; no client reads it during a simulated run';
const FORMAT = 'an output format; no client reads it during a simulated run';

export const ENDPOINT_RULES = [
  // --- REST
  {
    id: 'rest.query.state-agrees',
    rule: 'Every REST query answers from the committed state: spans, validators, accounts, checkpoints, buffer, counts and the overview say what the state holds.',
    source: 'spec: Endpoints (REST endpoints)',
    guard: { oracle: 'query-answers', compares: "each REST query answer against the model's state at that height" },
  },
  {
    id: 'rest.query.envelope',
    rule: 'Every GET of the REST table answers 200 with {"height": "<string>", "result": …}.',
    source: 'spec: Endpoints (Query format); reference: README section I, heimdall.md §6.4',
    guard: {
      unit: RQ,
      test: "every GET path of the spec's REST table and every extra route answers 200 with the envelope",
      why: SHAPE,
    },
  },
  {
    id: 'rest.error.shape',
    rule: 'Errors answer {"error": "<message>"}, the message being the ABCI log for query errors; an unknown path is 404.',
    source: 'reference: README section I, heimdall.md §6.4',
    guard: {
      unit: RQ,
      test: 'unknown paths (including the POST-only /checkpoint/* routes) are 404 {"error": …}',
      why: SHAPE,
    },
  },
  {
    id: 'rest.span.shape',
    rule: '/sidechain/span/{id} and /sidechain/latest-span answer the Span resource, validators in the span form (last_updated an empty string).',
    source: 'spec: Resources (Span, Validator), REST endpoints; reference: README items 1 and 19',
    guard: {
      oracle: 'query-answers',
      compares:
        "each simulated client's read of a span against the model's span (frozen set, producers, span-form validators)",
    },
  },
  {
    id: 'rest.span.errors',
    rule: 'A malformed span id is 400, a missing span 500 with the double-encoded ABCI log, a list without page and limit 400.',
    source: 'reference: heimdall.md §2.4',
    guard: {
      unit: RQ,
      test: 'errors: bad span id 400, missing span 500 with the double-encoded ABCI log, list without page/limit 400',
      why: SHAPE,
    },
  },
  {
    id: 'rest.sidechain.params',
    rule: '/sidechain/params answers sprint_duration, span_duration and producer_count.',
    source: 'spec: REST endpoints (/sidechain/params)',
    guard: {
      oracle: 'query-answers',
      compares: "the client's read of the sidechain params against the genesis parameters",
    },
  },
  {
    id: 'rest.auth.account',
    rule: '/auth/accounts/{address} answers {type: "auth/Account", value: {address, coins, public_key, account_number, sequence}} with coins as {denom, amount: {i}}.',
    source: 'spec: Resources (Account); reference: README items 22-23',
    guard: {
      oracle: 'query-answers',
      compares: "each client read of an account against the model's account (coins, public key, number, sequence)",
    },
  },
  {
    id: 'rest.auth.fresh-account',
    rule: 'An unknown account answers an empty account (empty public key, account number 0, sequence 0), not an error.',
    source: 'spec: Resources (Account: a fresh account); reference: heimdall.md §6.5',
    guard: { oracle: 'query-answers', compares: 'reads of accounts the model does not hold against the empty account' },
  },
  {
    id: 'rest.auth.sequence',
    rule: '/auth/accounts/{address}/sequence answers {address, account_number, sequence}.',
    source: 'spec: REST endpoints; reference: README item 23',
    guard: { oracle: 'query-answers', compares: "each client read of an account's sequence against the model's" },
  },
  {
    id: 'rest.auth.params',
    rule: '/auth/params answers the seven auth parameters with their defaults (256, 7, 10, 590, 1000, 1000000, "1000000000000000").',
    source: 'spec: Module parameters (auth), Limits; reference: README item 24',
    guard: { oracle: 'query-answers', compares: "the client's read of the auth params against the genesis parameters" },
  },
  {
    id: 'rest.staking.validator-set',
    rule: "/staking/validator-set answers {validators, proposer}, each validator with the spec's eight fields in order and last_updated an integer.",
    source: 'spec: Resources (ValidatorSet, Validator); reference: README items 18-19',
    guard: {
      oracle: 'query-answers',
      compares: "each client read of the validator set against the model's set, priorities and stored proposer",
    },
  },
  {
    id: 'rest.staking.validator',
    rule: '/staking/validator/{id} answers one Validator, the same as in the set.',
    source: 'spec: REST endpoints (/staking/validator/{validator_id})',
    guard: {
      oracle: 'query-answers',
      compares: "each client read of one validator against the model's record and set priority",
    },
  },
  {
    id: 'rest.checkpoint.numbered',
    rule: '/checkpoints/{number}, /checkpoints/latest and /checkpoints/list answer checkpoints with the spec fields and their id.',
    source: 'spec: Resources (Checkpoint block header), REST endpoints; reference: README item 9',
    guard: {
      oracle: 'query-answers',
      compares: "each client read of numbered checkpoints against the model's acked checkpoints",
    },
  },
  {
    id: 'rest.checkpoint.buffer',
    rule: '/checkpoints/buffer answers the buffered checkpoint without an id.',
    source: 'spec: REST endpoints; reference: README item 9',
    guard: { oracle: 'query-answers', compares: "each client read of the buffer against the model's buffer" },
  },
  {
    id: 'rest.checkpoint.count',
    rule: '/checkpoints/count and /checkpoints/last-no-ack answer {result: N} inside the envelope.',
    source: 'spec: REST endpoints; reference: heimdall.md §3.8',
    guard: {
      oracle: 'query-answers',
      compares: "each client read of the ack count and last no-ack against the model's",
    },
  },
  {
    id: 'rest.checkpoint.parama',
    rule: 'The checkpoint parameters are served at /checkpoints/parama, spelled so, with /checkpoints/params as an alias.',
    source: 'spec: REST endpoints ("the path is spelled exactly so"); reference: README item 14',
    guard: {
      oracle: 'query-answers',
      compares: "the client's read of the checkpoint params against the genesis parameters",
    },
  },
  {
    id: 'rest.checkpoint.prepare',
    rule: '/checkpoints/prepare?start=&end= answers {proposer, rootHash, startBlock, endBlock}.',
    source: 'spec: REST endpoints; reference: heimdall.md §3.8',
    guard: {
      unit: RQ,
      test: '/checkpoints/prepare?start=&end= (with observers): {proposer, rootHash, startBlock, endBlock}',
      why: SHAPE,
    },
  },
  {
    id: 'rest.overview.fields',
    rule: '/overview answers the ack count, the buffer, the validator count, the validator set and the last no-ack time.',
    source: 'spec: REST endpoints (/overview); reference: heimdall.md §3.8',
    guard: {
      oracle: 'query-answers',
      compares: "each client read of the overview against the model's count, buffer, set and last no-ack time",
    },
  },
  {
    id: 'rest.checkpoint.fresh-chain',
    rule: 'Before any checkpoint: latest is 400, the buffer 500, count and last-no-ack 0, the list null.',
    source: 'reference: heimdall.md §3.8',
    guard: {
      unit: RQ,
      test: 'on a fresh chain: latest 400, buffer 500, count and last-no-ack 0, list null, overview empty',
      why: SHAPE,
    },
  },
  {
    id: 'rest.checkpoint.prepare-messages',
    rule: 'POST /checkpoint/new, /checkpoint/ack and /checkpoint/no-ack return the prepared unsigned message with the spec field names; they broadcast nothing.',
    source: 'spec: REST endpoints (POST /checkpoint/*); reference: README items 8 and 10, heimdall.md §3.8',
    guard: {
      unit: RS,
      test: '/checkpoint/new: MsgCheckpoint with the spec names, integers as strings; root_Hash or root_hash',
      why: SHAPE,
    },
  },
  {
    id: 'rest.topup.prepare-messages',
    rule: 'POST /topup/fee and /topup/withdraw return the prepared message (from_address from base_req.from; an empty amount means 0).',
    source: 'spec: REST endpoints (topup fee endpoint not shown); reference: README section I, heimdall.md §5',
    guard: {
      unit: RS,
      test: '/topup/fee: from_address is base_req.from; /topup/withdraw: amount, empty meaning 0',
      why: SHAPE,
    },
  },
  {
    id: 'rest.txs.broadcast',
    rule: 'A signed transaction is submitted with POST /txs {tx, mode}; mode block answers after the commit with the height and result.',
    source: 'reference: README section I, heimdall.md §6.5',
    guard: {
      unit: RS,
      test: 'block: answers after the commit with the height, gas and the tx events; coins moved, sequence +1',
      why: SHAPE,
    },
  },
  {
    id: 'rest.post.base-req',
    rule: 'A POST without chain-id (unless simulate) or a usable from is 401; fees with gas prices is 400.',
    source: 'reference: heimdall.md §3.8 (BaseReq)',
    guard: {
      unit: RS,
      test: 'BaseReq: 401 without chain-id (unless simulate) or a usable from; 400 for fees with gas prices or a mistyped member',
      why: SHAPE,
    },
  },
  {
    id: 'rest.topup.dividend-account',
    rule: '/topup/dividend-account/{id} answers {ID, feeAmount, slashedAmount}; /topup/dividend-account-root the account root.',
    source: 'spec: Resources (DividendAccount); reference: README item 11',
    guard: {
      oracle: 'query-answers',
      compares: "each client read of a dividend account and the account root against the model's",
    },
  },
  {
    id: 'rest.clerk.record',
    rule: '/clerk/event-record/{id} answers the record with the keys id, contract, data, tx_hash, log_index, sidechain_chain_id, record_time.',
    source: 'reference: README item 1 (renamed chain id field), heimdall.md §7',
    guard: { oracle: 'query-answers', compares: "each client read of a state-sync record against the model's record" },
  },
  {
    id: 'rest.events.isoldtx',
    rule: '/staking, /topup and /clerk isoldtx?txhash=&logindex= answer whether that module has already processed the parent-chain event (true or false); both arguments are required, the hash is 32 bytes.',
    source: 'reference: heimdall.md §4.7, §6, §7 (REST), §9 (the bridge asks before relaying)',
    guard: {
      oracle: 'query-answers',
      compares: "each client read against the model's record of the events each module processed",
    },
  },
  // --- node status RPC
  {
    id: 'status.status.height',
    rule: '/status gives result.sync_info.latest_block_height (and catching_up) in Tendermint shapes.',
    source: 'spec: Node status endpoints (/status)',
    guard: {
      unit: ST,
      test: '/status: Tendermint shapes, numbers as strings, hashes and address as upper-case bare hex',
      why: SHAPE,
    },
  },
  {
    id: 'status.status.catching-up',
    rule: '/status follows the chain and says whether the node is still catching up.',
    source: 'spec: Node status endpoints (/status)',
    guard: { unit: ST, test: '/status follows the chain; catching_up is reported', why: SHAPE },
  },
  {
    id: 'status.net-info.peers',
    rule: '/net_info gives result.n_peers and a moniker per peer.',
    source: 'spec: Node status endpoints (/net_info)',
    guard: { unit: ST, test: '/net_info: n_peers as a string and a moniker per peer', why: SHAPE },
  },
  // --- sidechain JSON-RPC
  {
    id: 'jsonrpc.envelope.call',
    rule: 'A JSON-RPC 2.0 POST with Content-Type application/json is answered 200 with the same id and a result or an error.',
    source: 'spec: Sidechain JSON-RPC; reference: README item 31, sidechain.md §4.4',
    guard: { unit: JS, test: 'answers a call with HTTP 200, application/json and the request id', why: FORMAT },
  },
  {
    id: 'jsonrpc.envelope.batch',
    rule: 'A JSON array is a batch, answered in order without entries for notifications.',
    source: 'reference: README item 31, sidechain.md §4.4, §5',
    guard: { unit: JS, test: 'a batch is answered in order, without entries for notifications', why: FORMAT },
  },
  {
    id: 'jsonrpc.envelope.params-optional',
    rule: 'params may be omitted or null.',
    source: 'reference: README item 31, sidechain.md §4.4',
    guard: { unit: JS, test: 'params may be omitted or null', why: FORMAT },
  },
  {
    id: 'jsonrpc.errors.codes',
    rule: 'Errors use geth codes and wording: -32700 parse error, -32600 invalid request, -32601 "the method … does not exist/is not available", -32602 invalid params, -32000 handler errors.',
    source: 'reference: sidechain.md §4.4, §5 item 9',
    guard: {
      unit: JS,
      test: '-32601 with the wording ethers recognises; subscriptions are not available over HTTP',
      why: FORMAT,
    },
  },
  {
    id: 'jsonrpc.http.post-json-only',
    rule: 'Methods other than POST are 405 and a non-JSON content type 415.',
    source: 'spec: Sidechain JSON-RPC (POST, application/json); reference: sidechain.md §4.4',
    guard: { unit: JS, test: '405 for every method but POST', why: FORMAT },
  },
  {
    id: 'jsonrpc.methods.spec-set',
    rule: 'net_peerCount, eth_syncing, eth_blockNumber and eth_chainId answer in geth formats: minimal hex quantities, eth_syncing false or an object.',
    source: 'spec: Sidechain JSON-RPC (methods); reference: README item 31, sidechain.md §4.3',
    guard: { unit: JM, test: 'eth_blockNumber, eth_chainId, net_version, net_peerCount, net_listening', why: FORMAT },
  },
  {
    id: 'jsonrpc.methods.syncing',
    rule: 'eth_syncing answers false when synced, else an object of hex quantities.',
    source: 'spec: Sidechain JSON-RPC (eth_syncing); reference: sidechain.md §4.3',
    guard: { unit: JM, test: 'eth_syncing: false, or an object of hex quantities', why: FORMAT },
  },
  {
    id: 'jsonrpc.methods.get-signers',
    rule: 'sidechain_getSigners [block] answers the address-sorted producers of the snapshot at that block.',
    source: 'spec: Sidechain JSON-RPC (sidechain_getSigners); reference: README item 1, sidechain.md §4.1',
    guard: {
      unit: JM,
      test: 'sidechain_getSigners: address-sorted producers of the snapshot at that block, default latest',
      why: FORMAT,
    },
  },
  {
    id: 'jsonrpc.methods.root-hash',
    rule: "sidechain_getRootHash(start, end) takes JSON numbers and answers the checkpoint root as hex without 0x, with Bor's errors and limits.",
    source: 'reference: README items 13 and 31, sidechain.md §4.2',
    guard: {
      unit: JM,
      test: 'sidechain_getRootHash: Bor errors with -32000, including the uint64 wrap quirk',
      why: FORMAT,
    },
  },
  {
    id: 'jsonrpc.tx.by-hash',
    rule: 'eth_getTransactionByHash answers a transaction of the canonical chain with its block hash, block number, index and sender; a hash no canonical block carries answers a pending transaction of the pool (without block) or null, never an error.',
    source: 'spec: Sidechain JSON-RPC; reference: sidechain.md §4.3, §5 item 6',
    guard: {
      oracle: 'rpc-answers',
      compares:
        "a simulated client's reads of a canonical transfer and of a hash nobody sent against the node's canonical chain as its imports reported it",
    },
  },
  {
    id: 'jsonrpc.tx.receipt',
    rule: 'eth_getTransactionReceipt answers the receipt of a canonical transaction (its block, index, sender, status 1, its logs placed in it), null for any other hash, never an error.',
    source: 'spec: Sidechain JSON-RPC; reference: sidechain.md §4.3, §5 items 7-8',
    guard: {
      oracle: 'rpc-answers',
      compares: "the client's receipt reads against the node's canonical chain as its imports reported it",
    },
  },
  {
    id: 'jsonrpc.block.transactions',
    rule: 'eth_getBlockByNumber(n, full) answers the canonical block at n (null above the head) with its transactions in block order, each placed in it, the state-sync pseudo-transaction last.',
    source: 'reference: sidechain.md §2.8, §4.3, §5 item 5',
    guard: {
      oracle: 'rpc-answers',
      compares: "the client's full-block reads of blocks with state syncs against the block the node imported at n",
    },
  },
  {
    id: 'jsonrpc.block.receipts',
    rule: 'eth_getBlockReceipts(n) answers every receipt of the canonical block at n in block order, the state-sync receipt last (null for an unknown block).',
    source: 'reference: sidechain.md §2.8 (eth_getTransactionReceiptsByBlock appends the bor receipt)',
    guard: {
      oracle: 'rpc-answers',
      compares: "the client's block-receipts reads against the block's transactions and state syncs as imported",
    },
  },
  {
    id: 'jsonrpc.logs.range',
    rule: 'eth_getLogs over a range of block numbers answers the matching logs of the canonical blocks in the range, in block then log-index order, the state-sync logs included.',
    source: 'reference: sidechain.md §2.8 (MergeBorLogs), §5 item 4',
    guard: {
      oracle: 'rpc-answers',
      compares:
        "the client's StateReceiver log reads of a block against one StateCommitted log per state sync it imported",
    },
  },
  {
    id: 'jsonrpc.state-sync.pseudo-tx',
    rule: 'A block with state syncs lists the state-sync pseudo-transaction last, by its derived hash, and its receipt carries one StateCommitted log per record.',
    source: 'reference: README item 30, sidechain.md §2.8',
    guard: {
      oracle: 'rpc-answers',
      compares:
        "the client's reads of the pseudo-transaction, its receipt, the block and its receipts against the hash derived from the block and its imported state syncs",
    },
  },
  {
    id: 'jsonrpc.block-tags.finalized',
    rule: 'The finalized and safe tags answer the last block a verified checkpoint made final.',
    source: 'reference: sidechain.md §3.2 (finalized block tag)',
    guard: { unit: JT, test: 'finalized and safe bounds once a checkpoint made a block final', why: FORMAT },
  },
  {
    id: 'jsonrpc.clients.ethers',
    rule: 'An ethers v6 JsonRpcProvider detects the network and reads block numbers and blocks by number, tag and hash, batched.',
    source: 'reference: sidechain.md §5',
    guard: {
      unit: JS,
      test: 'detects the network, reads the block number and blocks by number, tag and hash, batched',
      why: FORMAT,
    },
  },
  // --- operator console
  {
    id: 'console.eval.peers-and-blocks',
    rule: "The console answers admin.peers.length, eth.blockNumber and eth.getBlock('latest').number.",
    source: 'spec: Operator console',
    guard: { unit: CE, test: 'peers, block number, latest block', why: FORMAT },
  },
  {
    id: 'console.eval.node-info',
    rule: 'The console answers admin.nodeInfo and admin.nodeInfo.enode.',
    source: 'spec: Operator console',
    guard: { unit: CE, test: 'node info and enode', why: FORMAT },
  },
  {
    id: 'console.eval.syncing',
    rule: 'The console answers eth.syncing, blocks behind (highestBlock − currentBlock) and the progress percentage.',
    source: 'spec: Operator console',
    guard: { unit: CE, test: 'syncing state, blocks behind and progress', why: FORMAT },
  },
  {
    id: 'console.set-head.rewinds',
    rule: 'debug.setHead(<hex number>) rewinds the node to that block: the head becomes it and every block above is forgotten.',
    source: 'spec: Operator console (debug.setHead)',
    guard: {
      oracle: 'fork-choice',
      compares:
        "each node's head after a setHead against the rewound-to block of its own view, and the blocks it reports removed against those it held above it",
    },
  },
  // --- client and daemon commands
  {
    id: 'cli.query.span',
    rule: 'query sidechain span latest-span and query sidechain span --span-id print a Span in the same format.',
    source: 'spec: Transaction and query commands',
    guard: { unit: CL, test: 'query sidechain span latest-span / --span-id', why: FORMAT },
  },
  {
    id: 'cli.query.sidechain-params',
    rule: 'query sidechain params prints sprint_duration, span_duration and producer_count.',
    source: 'spec: Transaction and query commands',
    guard: { unit: CL, test: 'query sidechain params', why: FORMAT },
  },
  {
    id: 'cli.query.account',
    rule: 'query auth account prints address, coins, pubkey, accountnumber and sequence.',
    source: 'spec: Resources (Account query output), Transaction and query commands; reference: README item 23',
    guard: { unit: 'src/client/units.test.ts', test: 'account view: the spec keys, pubkey as 0x hex', why: FORMAT },
  },
  {
    id: 'cli.query.auth-params',
    rule: 'query auth params prints the auth parameters.',
    source: 'spec: Transaction and query commands',
    guard: { unit: CL, test: 'query auth params', why: FORMAT },
  },
  {
    id: 'cli.query.validator-info',
    rule: 'query staking validator-info --validator=<signer> or --id=<id> prints a Validator.',
    source: 'spec: Transaction and query commands',
    guard: { unit: CL, test: 'query staking validator-info --validator / --id', why: FORMAT },
  },
  {
    id: 'cli.query.checkpoint-params',
    rule: 'query checkpoint params prints checkpoint_buffer_time as a Go duration (16m40s).',
    source: 'spec: Module parameters (checkpoint), Transaction and query commands; reference: README item 14',
    guard: { unit: CL, test: 'query checkpoint params prints checkpoint_buffer_time as 16m40s', why: FORMAT },
  },
  {
    id: 'cli.tx.send',
    rule: 'tx bank send <address> <amount><denom> sends MsgSend, signed for the service chain id.',
    source: 'spec: Transaction and query commands',
    guard: {
      unit: CL,
      test: 'moves coins, raises the sender sequence by one, and the account query shows it',
      why: FORMAT,
    },
  },
  {
    id: 'cli.tx.chain-id',
    rule: 'Transaction commands sign for the --chain-id given; a wrong one is refused by the signature check.',
    source: 'spec: Transaction and query commands ("--chain-id expects the chain identifier of the service chain")',
    guard: { unit: CL, test: 'a wrong --chain-id is rejected by the signature check', why: FORMAT },
  },
  {
    id: 'cli.tx.topup',
    rule: 'tx topup fee sends MsgTopup (credited once; a replay answers 1401 "Older invalid tx found"); tx topup withdraw sends MsgWithdrawFee.',
    source: 'spec: Transaction and query commands, Errors',
    guard: {
      unit: CL,
      test: 'tx topup fee credits once; the replay answers 1401 "Older invalid tx found" in codespace topup',
      why: FORMAT,
    },
  },
  {
    id: 'cli.tx.propose-span',
    rule: 'tx sidechain propose-span --start-block sends MsgProposeSpan.',
    source: 'spec: Transaction and query commands',
    guard: {
      unit: CL,
      test: 'tx sidechain propose-span derives span id, end block and sidechain chain id',
      why: FORMAT,
    },
  },
  {
    id: 'cli.tx.validator-join',
    rule: 'tx staking validator-join --signer-pubkey --tx-hash --log-index sends MsgValidatorJoin for the Staked event at that transaction and index.',
    source: 'spec: Transaction and query commands',
    guard: {
      unit: CL,
      test: 'tx staking validator-join: --id defaults to the first id the service does not know',
      why: FORMAT,
    },
  },
  {
    id: 'cli.tx.checkpoint',
    rule: 'tx checkpoint send-checkpoint, send-ack (--header = the checkpoint number) and send-noack send their messages.',
    source: 'spec: Transaction and query commands; reference: README item 10',
    guard: {
      unit: CL,
      test: 'tx checkpoint send-checkpoint (hashes and proposer key from the node), send-ack, send-noack',
      why: FORMAT,
    },
  },
  {
    id: 'cli.daemon.show-account',
    rule: "The daemon's show-account prints the node's address and pub_key.",
    source: 'spec: Transaction and query commands (<daemon> show-account)',
    guard: {
      unit: 'cli/devnet/nodeInit.test.ts',
      test: 'show-account prints the address and pub_key of the node key',
      why: FORMAT,
    },
  },
  {
    id: 'cli.daemon.operator-files',
    rule: "A node's home holds the spec's operator files: the service genesis and its two config files under config/, the seeds list, the sidechain genesis under sidechain/.",
    source: 'spec: Operator files and services',
    guard: {
      unit: 'cli/devnet/nodeInit.test.ts',
      test: 'node init lays out the operator files: genesis, the two config files, the seeds list, the sidechain genesis',
      why: 'files on disk, written before any run',
    },
  },
  {
    id: 'cli.daemon.unsafe-reset-all',
    rule: "The daemon's unsafe-reset-all resets the service chain's data and keeps the configuration and keys.",
    source: 'spec: Operator files and services (reset service-chain database)',
    guard: {
      unit: 'cli/devnet/nodeInit.test.ts',
      test: 'unsafe-reset-all removes the chain data and keeps config and keys',
      why: 'an operator command on files; no simulated run calls it',
    },
  },
] as const satisfies readonly Rule[];
