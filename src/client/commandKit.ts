/**
 * What every client command shares: the flags of a query and of a transaction (node, home,
 * output, timeout; signer, chain id, broadcast mode, memo, sequence, wait), reading them back,
 * and the command's context (its output and exit code). Each module's commands (modules/*.ts)
 * are built from these.
 */
import { type Argv } from 'yargs';
import { type BroadcastMode } from '../rpc/ports';
import { type ClientIO, type CommonArgs, type TxArgs, DEFAULT_USER_KEY, DEFAULT_VALIDATOR_KEY } from './actions';
import { DEFAULT_NODE, normalizeNodeUrl } from './http';
import { resolveHome } from './keys';
import { resolveTarget } from './target';
import { checkAll, parseHashFlag, parseTimeoutFlag, parseUint64Flag } from './flags';

/** What a module's command builder gets: where its output goes, and the wrapper that runs an action and sets the exit code. */
export interface CommandKit {
  io: ClientIO;
  run: (fn: (a: A) => Promise<number>) => (argv: unknown) => Promise<void>;
}

/** A module's commands under `lockstep tx <group>` and `lockstep query <group>`. */
export interface ModuleCommands {
  tx?: CommandGroup;
  query?: CommandGroup;
}

export interface CommandGroup {
  /** The group's name on the command line (`sidechain` for the span module). */
  group: string;
  describe: string;
  /** Its commands, each ending the group with a `demandCommand`. */
  commands<U>(m: Argv<U>, kit: CommandKit): Argv<U>;
}

export type A = Record<string, unknown>;

const TRUST_NODE_HELP =
  'accepted for compatibility with the Heimdall CLI; a no-op: this client does not verify query proofs, it always trusts the node it asks';
const QUERY_CHAIN_ID_HELP = 'accepted for compatibility (the spec lists it); queries do not need it';

const NODE_HELP = `the node to ask: a validator number N (validator N's node of the home's devnet: <REST URL>/node/N), or a REST API URL; default: the devnet running in the home (its data/ports.json), else ${DEFAULT_NODE}`;

export const TX_EPILOGUE = `Signing: the key --from names in <home>/keys (default ${DEFAULT_VALIDATOR_KEY} for validator messages, ${DEFAULT_USER_KEY} for bank send; send-checkpoint and send-noack default to the key of the current / next checkpoint proposer when the home folder holds it). The account number and sequence come from GET /auth/accounts/<from>/sequence unless --account-number and --sequence are given.
--chain-id defaults to the chain_id of <home>/config/genesis.json.
Output: txhash, height, code, codespace (if any), raw_log, gas_wanted, gas_used, logs (--json: the node's TxResponse as JSON).
Messages the validators vote on (propose-span, validator-join, send-checkpoint, send-ack, topup fee) take effect two blocks after delivery, once more than 2/3 of the voting power agreed; code 0 means the transaction was delivered.
A transaction that was sent but not answered (the connection closed, the node restarted, the answer timed out) is reported with its hash and a command that looks it up: the node journals a tx before it answers, so it may be applied; never send it again. --wait waits (up to --timeout) until the tx is committed, looking it up (GET /txs/{hash}) when its answer is lost, also across a restart.
Exit codes: 0 accepted (code 0); 1 rejected by the node (raw_log on stderr), an outcome still unknown, bad input, unknown key or unreachable node.`;

export const QUERY_EPILOGUE =
  'Output: YAML (--json: one JSON object with the same keys). Exit codes: 0 success; 1 bad input, an error answer or an unreachable node.';

export function str(a: A, k: string): string | undefined {
  const v = a[k];
  if (v === undefined || v === null) return undefined;
  return String(v);
}

export function commonOptions<U>(y: Argv<U>) {
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

export function queryOptions<U>(y: Argv<U>) {
  return commonOptions(y)
    .option('trust-node', { type: 'boolean', default: false, describe: TRUST_NODE_HELP })
    .option('chain-id', { type: 'string', describe: QUERY_CHAIN_ID_HELP })
    .epilogue(QUERY_EPILOGUE);
}

export function txOptions<U>(y: Argv<U>, defaultFrom: string) {
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

export function commonArgs(a: A, env: NodeJS.ProcessEnv): CommonArgs {
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

export function txArgs(a: A, env: NodeJS.ProcessEnv): TxArgs {
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

export const optU64 = (a: A, k: string) => (a[k] === undefined ? undefined : parseUint64Flag(a[k], `--${k}`));
export const optHash = (a: A, k: string) => (a[k] === undefined ? undefined : parseHashFlag(a[k], `--${k}`));
