/**
 * The client command groups `lockstep tx …` and `lockstep query …` (the spec's <cli> table),
 * talking to a running devnet's REST API and signing with the keys of the home folder.
 *
 * Wire them into a yargs parser with `registerClientCommands(parser, { setExitCode })`. Exit codes:
 * 0 success; 1 bad input (usage errors, unknown key, unreachable node, an error answer) or a
 * transaction the node rejected (non-zero code; its raw_log goes to stderr).
 */
import { type Argv } from 'yargs';
import {
  type A,
  type CommandKit,
  type ModuleCommands,
  QUERY_EPILOGUE,
  TX_EPILOGUE,
  commonArgs,
  queryOptions,
} from './commandKit';
import { authCommands } from './modules/auth';
import { bankCommands } from './modules/bank';
import { checkpointCommands } from './modules/checkpoint';
import { spanCommands } from './modules/span';
import { stakingCommands } from './modules/staking';
import { topupCommands } from './modules/topup';
import { type ClientIO, queryTx } from './actions';
import { ParseUsageError, UsageError, isClientError } from './errors';
import { checkAll, parseHashFlag } from './flags';

/**
 * Every module's client commands, in the order `--help` lists them. A module's messages and reads
 * get their commands in its file under modules/; adding a module's commands is one line here.
 */
const CLIENT_COMMANDS: readonly ModuleCommands[] = [
  spanCommands,
  bankCommands,
  stakingCommands,
  checkpointCommands,
  topupCommands,
  authCommands,
];

export interface ClientCommandOptions {
  /** Receives each command's exit code (default: sets process.exitCode). */
  setExitCode?: (code: number) => void;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  /** Environment for LOCKSTEP_HOME (default process.env). */
  env?: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
}

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

  const kit: CommandKit = { io, run };
  const txGroups = CLIENT_COMMANDS.flatMap((m) => (m.tx ? [m.tx] : []));
  const queryGroups = CLIENT_COMMANDS.flatMap((m) => (m.query ? [m.query] : []));
  return y
    .command('tx', 'Sign a transaction with a key of the home folder and send it to a running node', (t) =>
      txGroups
        .reduce((g, m) => g.command(m.group, m.describe, (c) => m.commands(c, kit)), t.fail(fail))
        .demandCommand(1, `Name a module: lockstep tx ${txGroups.map((m) => m.group).join('|')} --help`)
        .epilogue(TX_EPILOGUE),
    )
    .command('query', 'Query the state of a running node over its REST API', (q) =>
      queryGroups
        .reduce((g, m) => g.command(m.group, m.describe, (c) => m.commands(c, kit)), q.fail(fail))
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
        .demandCommand(
          1,
          `Name a module: lockstep query ${[...queryGroups.map((m) => m.group), 'tx'].join('|')} --help`,
        )
        .epilogue(QUERY_EPILOGUE),
    );
}
