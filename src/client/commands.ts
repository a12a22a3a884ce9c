/**
 * The client command groups `lockstep tx …` and `lockstep query …` (the spec's <cli> table),
 * talking to a running devnet's REST API and signing with the keys of the home folder.
 *
 * Wire them into a yargs parser with `registerClientCommands(parser, { setExitCode })`. Exit codes:
 * 0 success; 1 bad input (usage errors, unknown key, unreachable node, an error answer) or a
 * transaction the node rejected (non-zero code; its raw_log goes to stderr).
 */
import { type Argv } from 'yargs';
import { type BroadcastMode } from '../rpc/ports';
import {
  type ClientIO,
  type CommonArgs,
  type TxArgs,
  DEFAULT_USER_KEY,
  DEFAULT_VALIDATOR_KEY,
  bankSend,
  proposeSpan,
  queryAccount,
  queryAuthParams,
  queryCheckpointParams,
  querySidechainParams,
  querySpan,
  queryTx,
  queryValidatorInfo,
  sendAck,
  sendCheckpoint,
  sendNoAck,
  topupFee,
  topupWithdraw,
  validatorJoin,
} from './actions';
import { DEFAULT_NODE, normalizeNodeUrl } from './http';
import { KEY_NAME, addressOrKeyName, resolveHome } from './keys';
import { resolveTarget } from './target';
import { ParseUsageError, UsageError, isClientError } from './errors';
import {
  checkAll,
  parseAddressFlag,
  parseCoinsArg,
  parseHashFlag,
  parsePubKeyFlag,
  parseTimeoutFlag,
  parseUint64Flag,
  parseUintFlag,
} from './flags';

export interface ClientCommandOptions {
  /** Receives each command's exit code (default: sets process.exitCode). */
  setExitCode?: (code: number) => void;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  /** Environment for LOCKSTEP_HOME (default process.env). */
  env?: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
}

type A = Record<string, unknown>;

const TRUST_NODE_HELP =
  'accepted for compatibility with the Heimdall CLI; a no-op: this client does not verify query proofs, it always trusts the node it asks';
const QUERY_CHAIN_ID_HELP = 'accepted for compatibility (the spec lists it); queries do not need it';

const NODE_HELP = `the node to ask: a validator number N (validator N's node of the home's devnet: <REST URL>/node/N), or a REST API URL; default: the devnet running in the home (its data/ports.json), else ${DEFAULT_NODE}`;

const TX_EPILOGUE = `Signing: the key --from names in <home>/keys (default ${DEFAULT_VALIDATOR_KEY} for validator messages, ${DEFAULT_USER_KEY} for bank send; send-checkpoint and send-noack default to the key of the current / next checkpoint proposer when the home folder holds it). The account number and sequence come from GET /auth/accounts/<from>/sequence unless --account-number and --sequence are given.
--chain-id defaults to the chain_id of <home>/config/genesis.json.
Output: txhash, height, code, codespace (if any), raw_log, gas_wanted, gas_used, logs (--json: the node's TxResponse as JSON).
Messages the validators vote on (propose-span, validator-join, send-checkpoint, send-ack, topup fee) take effect two blocks after delivery, once more than 2/3 of the voting power agreed; code 0 means the transaction was delivered.
A transaction that was sent but not answered (the connection closed, the node restarted, the answer timed out) is reported with its hash and a command that looks it up: the node journals a tx before it answers, so it may be applied; never send it again. --wait waits (up to --timeout) until the tx is committed, looking it up (GET /txs/{hash}) when its answer is lost, also across a restart.
Exit codes: 0 accepted (code 0); 1 rejected by the node (raw_log on stderr), an outcome still unknown, bad input, unknown key or unreachable node.`;

const QUERY_EPILOGUE =
  'Output: YAML (--json: one JSON object with the same keys). Exit codes: 0 success; 1 bad input, an error answer or an unreachable node.';

function str(a: A, k: string): string | undefined {
  const v = a[k];
  if (v === undefined || v === null) return undefined;
  return String(v);
}

function commonOptions<U>(y: Argv<U>) {
  return y
    .option('node', { type: 'string', describe: NODE_HELP })
    .option('home', {
      type: 'string',
      describe: 'home folder with config/genesis.json and keys/ (default: $LOCKSTEP_HOME, else ~/.lockstep)',
    })
    .option('json', { type: 'boolean', default: false, describe: 'print one JSON object instead of YAML' })
    .option('timeout', {
      type: 'string',
      default: '60s',
      describe: 'give up on the node after this long (a block-mode broadcast waits for the commit)',
    })
    .check((a) =>
      checkAll(
        () => a.node === undefined || /^[1-9]\d*$/.test(String(a.node)) || normalizeNodeUrl(String(a.node)),
        () => parseTimeoutFlag(a.timeout),
      ),
    );
}

function queryOptions<U>(y: Argv<U>) {
  return commonOptions(y)
    .option('trust-node', { type: 'boolean', default: false, describe: TRUST_NODE_HELP })
    .option('chain-id', { type: 'string', describe: QUERY_CHAIN_ID_HELP })
    .epilogue(QUERY_EPILOGUE);
}

function txOptions<U>(y: Argv<U>, defaultFrom: string) {
  return commonOptions(y)
    .option('from', {
      type: 'string',
      describe: `name of the signing key in <home>/keys, or its address (default: ${defaultFrom})`,
    })
    .option('chain-id', {
      type: 'string',
      describe: 'service chain id (default: chain_id of <home>/config/genesis.json)',
    })
    .option('broadcast-mode', {
      type: 'string',
      choices: ['sync', 'async', 'block'],
      default: 'block',
      describe: 'block: wait for the commit; sync: wait for CheckTx; async: return at once',
    })
    .option('memo', { type: 'string', default: '', describe: 'transaction memo (at most max_memo_characters)' })
    .option('account-number', { type: 'string', describe: 'sign with this account number instead of asking the node' })
    .option('sequence', {
      type: 'string',
      describe: 'sign with this sequence instead of asking the node (several txs per block)',
    })
    .option('wait', {
      type: 'boolean',
      default: false,
      describe: 'wait until the tx is committed (up to --timeout), looking it up if its answer is lost',
    })
    .option('trust-node', { type: 'boolean', default: false, hidden: true, describe: TRUST_NODE_HELP })
    .check((a) =>
      checkAll(
        () => a['account-number'] === undefined || parseUint64Flag(a['account-number'], '--account-number'),
        () => a.sequence === undefined || parseUint64Flag(a.sequence, '--sequence'),
      ),
    )
    .epilogue(TX_EPILOGUE);
}

function commonArgs(a: A, env: NodeJS.ProcessEnv): CommonArgs {
  const home = str(a, 'home');
  const node = str(a, 'node');
  const target = [home !== undefined ? `--home ${home}` : '', node !== undefined ? `--node ${node}` : '']
    .filter((x) => x !== '')
    .join(' ');
  const homeNamed = home !== undefined || (env.LOCKSTEP_HOME !== undefined && env.LOCKSTEP_HOME !== '');
  // Read again before every request: a devnet restarted on new ports is followed (target.ts).
  const nodeTarget = resolveTarget(node, resolveHome(home, env), homeNamed);
  return {
    node: () => nodeTarget.rest(),
    status: () => nodeTarget.status(),
    ...(home !== undefined ? { home } : {}),
    json: a.json === true,
    timeoutMs: parseTimeoutFlag(a.timeout ?? '60s'),
    ...(target ? { target } : {}),
  };
}

function txArgs(a: A, env: NodeJS.ProcessEnv): TxArgs {
  const out: TxArgs = {
    ...commonArgs(a, env),
    mode: (str(a, 'broadcast-mode') ?? 'block') as BroadcastMode,
    memo: str(a, 'memo') ?? '',
    wait: a.wait === true,
  };
  const from = str(a, 'from');
  if (from !== undefined) out.from = from;
  const chainId = str(a, 'chain-id');
  if (chainId !== undefined) out.chainId = chainId;
  if (a['account-number'] !== undefined) out.accountNumber = parseUint64Flag(a['account-number'], '--account-number');
  if (a.sequence !== undefined) out.sequence = parseUint64Flag(a.sequence, '--sequence');
  return out;
}

const optU64 = (a: A, k: string) => (a[k] === undefined ? undefined : parseUint64Flag(a[k], `--${k}`));
const optHash = (a: A, k: string) => (a[k] === undefined ? undefined : parseHashFlag(a[k], `--${k}`));

/**
 * Add the `tx` and `query` command groups to a yargs parser. The second argument is the exit-code
 * sink (as `registerDevnetCommands` takes it) or the full options.
 */
export function registerClientCommands<T>(
  y: Argv<T>,
  optsOrSetExit: ClientCommandOptions | ((code: number) => void) = {},
): Argv<T> {
  const opts: ClientCommandOptions =
    typeof optsOrSetExit === 'function' ? { setExitCode: optsOrSetExit } : optsOrSetExit;
  const io: ClientIO = {
    out: opts.stdout ?? ((t) => void process.stdout.write(t)),
    err: opts.stderr ?? ((t) => void process.stderr.write(t)),
    env: opts.env ?? process.env,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  };
  const setExitCode =
    opts.setExitCode ??
    ((c: number) => {
      process.exitCode = c;
    });

  /**
   * yargs calls every registered fail handler; a handler that only prints (as a top-level one may)
   * lets yargs go on to run the command. Throwing here stops a command whose flags failed
   * validation before it signs or sends anything.
   */
  const fail = (msg: string | undefined, error: unknown): never => {
    if (error) throw error;
    throw new ParseUsageError(msg ?? 'invalid arguments');
  };

  const run = (fn: (a: A) => Promise<number>) => async (argv: unknown) => {
    let code: number;
    try {
      code = await fn(argv as A);
    } catch (e) {
      if (e instanceof UsageError) {
        io.err(`lockstep: ${e.message}\nRun with --help for usage.\n`);
        code = 1;
      } else if (isClientError(e)) {
        io.err(`lockstep: ${e.message}\n`);
        code = 1;
      } else throw e;
    }
    setExitCode(code);
  };

  return y
    .command('tx', 'Sign a transaction with a key of the home folder and send it to a running node', (t) =>
      t
        .fail(fail)
        .command('sidechain', 'Span transactions', (m) =>
          m
            .command(
              'propose-span',
              'Send MsgProposeSpan for the next span',
              (c) =>
                txOptions(c, DEFAULT_VALIDATOR_KEY)
                  .option('start-block', {
                    type: 'string',
                    describe: 'first sidechain block of the new span (default: end_block of the latest span + 1)',
                  })
                  .option('span-id', { type: 'string', describe: 'id of the new span (default: latest span id + 1)' })
                  .option('sidechain-chain-id', {
                    type: 'string',
                    describe: "sidechain chain id (default: the node's, from /chain/params)",
                  })
                  .check((a) =>
                    checkAll(
                      () => optU64(a, 'start-block'),
                      () => optU64(a, 'span-id'),
                    ),
                  )
                  .example(
                    '$0 tx sidechain propose-span --start-block 256 --home ./devnet',
                    'propose span 1 (end block = start + span_duration - 1)',
                  ),
              run(async (a) => {
                const sb = optU64(a, 'start-block');
                const sid = optU64(a, 'span-id');
                const scid = str(a, 'sidechain-chain-id');
                return proposeSpan(
                  {
                    ...txArgs(a, io.env),
                    ...(sb !== undefined ? { startBlock: sb } : {}),
                    ...(sid !== undefined ? { spanId: sid } : {}),
                    ...(scid !== undefined ? { sidechainChainId: scid } : {}),
                  },
                  io,
                );
              }),
            )
            .demandCommand(1, 'Name a command: lockstep tx sidechain propose-span --help'),
        )
        .command('bank', 'Balance transfers', (m) =>
          m
            .command(
              'send <to_address> <amount>',
              'Send MsgSend: move coins from --from to <to_address>',
              (c) =>
                txOptions(c, DEFAULT_USER_KEY)
                  .positional('to_address', {
                    type: 'string',
                    describe: 'recipient address (0x + 40 hex), or the name of a key in <home>/keys (user-2)',
                  })
                  .positional('amount', {
                    type: 'string',
                    describe: '<amount><denom>, e.g. 1000matic (several: 5matic,7stake)',
                  })
                  .check((a) =>
                    checkAll(
                      () => KEY_NAME.test(String(a.to_address)) || parseAddressFlag(a.to_address, '<to_address>'),
                      () => parseCoinsArg(a.amount, '<amount>'),
                    ),
                  )
                  .example('$0 tx bank send user-2 1000matic --home ./devnet', 'send 1000 matic from user-1 to user-2')
                  .example(
                    '$0 tx bank send user-2 1000matic --from validator-2 --json --home ./devnet',
                    'from another key, JSON output',
                  )
                  .example(
                    '$0 tx bank send 0x<address> 5matic --node 3 --wait --home ./devnet',
                    "through validator 3's node, waiting for the commit",
                  ),
              run((a) =>
                bankSend(
                  {
                    ...txArgs(a, io.env),
                    to: addressOrKeyName(String(a.to_address), resolveHome(str(a, 'home'), io.env), '<to_address>'),
                    amount: parseCoinsArg(a.amount, '<amount>'),
                  },
                  io,
                ),
              ),
            )
            .demandCommand(1, 'Name a command: lockstep tx bank send --help'),
        )
        .command('staking', 'Validator transactions', (m) =>
          m
            .command(
              'validator-join',
              'Send MsgValidatorJoin for a Staked event on the parent chain',
              (c) =>
                txOptions(c, DEFAULT_VALIDATOR_KEY)
                  .option('signer-pubkey', {
                    type: 'string',
                    demandOption: true,
                    describe: "the new validator's signer public key (0x04 + 128 hex; the 64-byte form is accepted)",
                  })
                  .option('tx-hash', {
                    type: 'string',
                    demandOption: true,
                    describe: 'parent-chain transaction hash that emitted Staked',
                  })
                  .option('log-index', {
                    type: 'string',
                    demandOption: true,
                    describe: "the Staked event's log index in that transaction",
                  })
                  .option('id', {
                    type: 'string',
                    describe:
                      'validator id from the Staked event (default: the first id the service does not know; the parent chain is not readable over REST)',
                  })
                  .check((a) =>
                    checkAll(
                      () => parsePubKeyFlag(a['signer-pubkey'], '--signer-pubkey'),
                      () => parseHashFlag(a['tx-hash'], '--tx-hash'),
                      () => parseUint64Flag(a['log-index'], '--log-index'),
                      () => optU64(a, 'id'),
                    ),
                  )
                  .example(
                    '$0 tx staking validator-join --signer-pubkey 0x04ab… --tx-hash 0x5f2e… --log-index 1 --id 5 --home ./devnet',
                    'acknowledge validator 5 joining',
                  ),
              run((a) => {
                const id = optU64(a, 'id');
                return validatorJoin(
                  {
                    ...txArgs(a, io.env),
                    signerPubkey: parsePubKeyFlag(a['signer-pubkey'], '--signer-pubkey'),
                    txHash: parseHashFlag(a['tx-hash'], '--tx-hash'),
                    logIndex: parseUint64Flag(a['log-index'], '--log-index'),
                    ...(id !== undefined ? { id } : {}),
                  },
                  io,
                );
              }),
            )
            .demandCommand(1, 'Name a command: lockstep tx staking validator-join --help'),
        )
        .command('checkpoint', 'Checkpoint transactions', (m) =>
          m
            .command(
              'send-checkpoint',
              'Send MsgCheckpoint for sidechain blocks start..end',
              (c) =>
                txOptions(c, 'the key of the current checkpoint proposer, else validator-1')
                  .option('start-block', {
                    type: 'string',
                    demandOption: true,
                    describe: 'first sidechain block of the checkpoint',
                  })
                  .option('end-block', {
                    type: 'string',
                    demandOption: true,
                    describe: 'last sidechain block of the checkpoint',
                  })
                  .option('root-hash', {
                    type: 'string',
                    describe: 'Merkle root of the block hashes (default: from /checkpoints/prepare)',
                  })
                  .option('account-root-hash', {
                    type: 'string',
                    describe: 'dividend-account root (default: from /topup/dividend-account-root)',
                  })
                  .check((a) =>
                    checkAll(
                      () => parseUint64Flag(a['start-block'], '--start-block'),
                      () => parseUint64Flag(a['end-block'], '--end-block'),
                      () => optHash(a, 'root-hash'),
                      () => optHash(a, 'account-root-hash'),
                    ),
                  )
                  .example(
                    '$0 tx checkpoint send-checkpoint --start-block 0 --end-block 255 --root-hash 0x9c1e… --account-root-hash 0x0d7a… --home ./devnet',
                    'propose a checkpoint',
                  )
                  .example(
                    '$0 tx checkpoint send-checkpoint --start-block 0 --end-block 255',
                    'hashes and chain id filled in from the node and the home folder',
                  ),
              run((a) => {
                const rootHash = optHash(a, 'root-hash');
                const accountRootHash = optHash(a, 'account-root-hash');
                return sendCheckpoint(
                  {
                    ...txArgs(a, io.env),
                    startBlock: parseUint64Flag(a['start-block'], '--start-block'),
                    endBlock: parseUint64Flag(a['end-block'], '--end-block'),
                    ...(rootHash !== undefined ? { rootHash } : {}),
                    ...(accountRootHash !== undefined ? { accountRootHash } : {}),
                  },
                  io,
                );
              }),
            )
            .command(
              'send-ack',
              'Send MsgCheckpointAck after the checkpoint landed on the parent chain',
              (c) =>
                txOptions(c, DEFAULT_VALIDATOR_KEY)
                  .option('tx-hash', {
                    type: 'string',
                    demandOption: true,
                    describe: 'parent-chain transaction hash of the checkpoint submission',
                  })
                  .option('log-index', {
                    type: 'string',
                    demandOption: true,
                    describe: "the checkpoint event's log index in that transaction",
                  })
                  .option('header', {
                    type: 'string',
                    demandOption: true,
                    describe: 'checkpoint number (header block index) on the parent chain',
                  })
                  .check((a) =>
                    checkAll(
                      () => parseHashFlag(a['tx-hash'], '--tx-hash'),
                      () => parseUint64Flag(a['log-index'], '--log-index'),
                      () => parseUint64Flag(a.header, '--header'),
                    ),
                  )
                  .example(
                    '$0 tx checkpoint send-ack --tx-hash 0x77b0… --log-index 0 --header 1 --home ./devnet',
                    'acknowledge checkpoint 1',
                  ),
              run((a) =>
                sendAck(
                  {
                    ...txArgs(a, io.env),
                    txHash: parseHashFlag(a['tx-hash'], '--tx-hash'),
                    logIndex: parseUint64Flag(a['log-index'], '--log-index'),
                    header: parseUint64Flag(a.header, '--header'),
                  },
                  io,
                ),
              ),
            )
            .command(
              'send-noack',
              'Send MsgCheckpointNoAck (the checkpoint was not acknowledged within checkpoint_buffer_time)',
              (c) =>
                txOptions(c, 'the key of the next checkpoint proposer, else validator-1').example(
                  '$0 tx checkpoint send-noack --home ./devnet',
                  'time out the current proposer',
                ),
              run((a) => sendNoAck(txArgs(a, io.env), io)),
            )
            .demandCommand(1, 'Name a command: lockstep tx checkpoint send-checkpoint|send-ack|send-noack --help'),
        )
        .command('topup', 'Fee top-ups and withdrawals', (m) =>
          m
            .command(
              'fee',
              'Send MsgTopup for a TopUpFee event on the parent chain',
              (c) =>
                txOptions(c, DEFAULT_VALIDATOR_KEY)
                  .option('tx-hash', {
                    type: 'string',
                    demandOption: true,
                    describe: 'parent-chain transaction hash of the top-up',
                  })
                  .option('log-index', {
                    type: 'string',
                    demandOption: true,
                    describe: "the top-up event's log index in that transaction",
                  })
                  .option('validator-id', {
                    type: 'string',
                    describe: 'id of the validator topped up (default: the validator whose signer is --from)',
                  })
                  .check((a) =>
                    checkAll(
                      () => parseHashFlag(a['tx-hash'], '--tx-hash'),
                      () => parseUint64Flag(a['log-index'], '--log-index'),
                      () => optU64(a, 'validator-id'),
                    ),
                  )
                  .example(
                    '$0 tx topup fee --tx-hash 0x3c41… --log-index 0 --validator-id 1 --home ./devnet',
                    'credit the top-up of validator 1',
                  ),
              run((a) => {
                const vid = optU64(a, 'validator-id');
                return topupFee(
                  {
                    ...txArgs(a, io.env),
                    txHash: parseHashFlag(a['tx-hash'], '--tx-hash'),
                    logIndex: parseUint64Flag(a['log-index'], '--log-index'),
                    ...(vid !== undefined ? { validatorId: vid } : {}),
                  },
                  io,
                );
              }),
            )
            .command(
              'withdraw',
              "Send MsgWithdrawFee: move the signer's balance into its dividend account for the next checkpoint",
              (c) =>
                txOptions(c, DEFAULT_VALIDATOR_KEY)
                  .option('amount', {
                    type: 'string',
                    describe: 'amount in the smallest unit (default 0: the whole matic balance)',
                  })
                  .check((a) => checkAll(() => a.amount === undefined || parseUintFlag(a.amount, '--amount')))
                  .example('$0 tx topup withdraw --home ./devnet', 'withdraw the whole balance of validator-1')
                  .example('$0 query auth account validator-1 --home ./devnet', 'then check the balance'),
              run((a) =>
                topupWithdraw(
                  {
                    ...txArgs(a, io.env),
                    ...(a.amount !== undefined ? { amount: parseUintFlag(a.amount, '--amount') } : {}),
                  },
                  io,
                ),
              ),
            )
            .demandCommand(1, 'Name a command: lockstep tx topup fee|withdraw --help'),
        )
        .demandCommand(1, 'Name a module: lockstep tx sidechain|bank|staking|checkpoint|topup --help')
        .epilogue(TX_EPILOGUE),
    )
    .command('query', 'Query the state of a running node over its REST API', (q) =>
      q
        .fail(fail)
        .command('sidechain', 'Spans and sidechain parameters', (m) =>
          m
            .command(
              'span',
              'Print a span (--span-id N, or `span latest-span`)',
              (c) =>
                queryOptions(c)
                  .option('span-id', { type: 'string', describe: 'the span to print' })
                  .check((a) => checkAll(() => optU64(a, 'span-id')))
                  .command(
                    'latest-span',
                    'Print the latest span',
                    (l) => queryOptions(l).example('$0 query sidechain span latest-span', 'the current span'),
                    run((a) => querySpan(commonArgs(a, io.env), io)),
                  )
                  .example('$0 query sidechain span --span-id 1', 'span 1')
                  .example('$0 query sidechain span latest-span --json', 'the latest span as JSON'),
              run((a) => {
                const spanId = optU64(a, 'span-id');
                if (spanId === undefined)
                  throw new UsageError(
                    '--span-id',
                    'name the span with --span-id <span_id>, or use `query sidechain span latest-span`',
                  );
                return querySpan({ ...commonArgs(a, io.env), spanId }, io);
              }),
            )
            .command(
              'params',
              'Print sprint_duration, span_duration, producer_count',
              (c) => queryOptions(c).example('$0 query sidechain params', 'the sidechain module parameters'),
              run((a) => querySidechainParams(commonArgs(a, io.env), io)),
            )
            .demandCommand(1, 'Name a command: lockstep query sidechain span|params --help'),
        )
        .command('auth', 'Accounts and auth parameters', (m) =>
          m
            .command(
              'account <address>',
              'Print an account: address, coins, pubkey, accountnumber, sequence',
              (c) =>
                queryOptions(c)
                  .positional('address', {
                    type: 'string',
                    describe: 'account address (0x + 40 hex), or the name of a key in <home>/keys (user-1)',
                  })
                  .check((a) =>
                    checkAll(() => KEY_NAME.test(String(a.address)) || parseAddressFlag(a.address, '<address>')),
                  )
                  .example('$0 query auth account user-1 --home ./devnet', 'balance, account number and sequence')
                  .example('$0 query auth account user-1 --node 3 --home ./devnet', "as validator 3's node sees it"),
              run((a) =>
                queryAccount(
                  {
                    ...commonArgs(a, io.env),
                    address: addressOrKeyName(String(a.address), resolveHome(str(a, 'home'), io.env), '<address>'),
                  },
                  io,
                ),
              ),
            )
            .command(
              'params',
              'Print the auth parameters',
              (c) => queryOptions(c).example('$0 query auth params', 'max_memo_characters, tx_sig_limit, …, tx_fees'),
              run((a) => queryAuthParams(commonArgs(a, io.env), io)),
            )
            .demandCommand(1, 'Name a command: lockstep query auth account|params --help'),
        )
        .command('staking', 'Validators', (m) =>
          m
            .command(
              'validator-info',
              'Print a validator by signer address or id',
              (c) =>
                queryOptions(c)
                  .option('validator', {
                    type: 'string',
                    describe: 'signer address of the validator, or the name of its key in <home>/keys',
                  })
                  .option('id', { type: 'string', describe: 'validator id' })
                  .conflicts('validator', 'id')
                  .check((a) =>
                    checkAll(
                      () => {
                        if (a.validator === undefined && a.id === undefined)
                          throw new UsageError(
                            '--validator',
                            'name the validator with --validator=<signer address> or --id=<validator id>',
                          );
                      },
                      () =>
                        a.validator === undefined ||
                        KEY_NAME.test(String(a.validator)) ||
                        parseAddressFlag(a.validator, '--validator'),
                      () => optU64(a, 'id'),
                    ),
                  )
                  .example(
                    '$0 query staking validator-info --validator validator-2 --home ./devnet',
                    'by the signer of a key',
                  )
                  .example('$0 query staking validator-info --id=1 --json', 'by id, as JSON'),
              run((a) => {
                const id = optU64(a, 'id');
                return queryValidatorInfo(
                  {
                    ...commonArgs(a, io.env),
                    ...(a.validator !== undefined
                      ? {
                          validator: addressOrKeyName(
                            String(a.validator),
                            resolveHome(str(a, 'home'), io.env),
                            '--validator',
                          ),
                        }
                      : {}),
                    ...(id !== undefined ? { id } : {}),
                  },
                  io,
                );
              }),
            )
            .demandCommand(1, 'Name a command: lockstep query staking validator-info --help'),
        )
        .command('checkpoint', 'Checkpoint parameters', (m) =>
          m
            .command(
              'params',
              'Print checkpoint_buffer_time (as 16m40s) and the other checkpoint parameters',
              (c) =>
                queryOptions(c).example('$0 query checkpoint params --trust-node', 'checkpoint_buffer_time: 16m40s, …'),
              run((a) => queryCheckpointParams(commonArgs(a, io.env), io)),
            )
            .demandCommand(1, 'Name a command: lockstep query checkpoint params --help'),
        )
        .command(
          'tx <hash>',
          'Look a transaction up (GET /txs/{hash}): its result once committed; --wait waits for that',
          (c) =>
            queryOptions(c)
              .positional('hash', { type: 'string', describe: 'the tx hash (64 hex digits, as tx commands print it)' })
              .option('wait', {
                type: 'boolean',
                default: false,
                describe: 'wait (up to --timeout) until the node has committed it, also across a restart',
              })
              .check((a) => checkAll(() => parseHashFlag(a.hash, '<hash>')))
              .example('$0 query tx 5F2E…C1A0 --wait --home ./devnet', 'the outcome of a tx whose answer was lost'),
          run((a) => queryTx({ ...commonArgs(a, io.env), hash: String(a.hash), wait: a.wait === true }, io)),
        )
        .demandCommand(1, 'Name a module: lockstep query sidechain|auth|staking|checkpoint|tx --help')
        .epilogue(QUERY_EPILOGUE),
    );
}
