/**
 * The yargs commands of the devnet: `lockstep node init|start|show-account|unsafe-reset-all` and
 * `lockstep console`.
 */
import { type Argv } from 'yargs';
import { DEFAULT_PORTS, resolveHome, paths } from './home';
import { nodeInit, nodeStart, showAccount, unsafeResetAll } from './nodeCommand';
import { runConsole } from '../../rpc/console/consoleClient';

const HOME = { type: 'string', describe: 'the devnet home folder (default $LOCKSTEP_HOME or ~/.lockstep)' } as const;

export function registerDevnetCommands<T>(y: Argv<T>, setExit: (code: number) => void): Argv<T> {
  return y
    .command(
      'node <command>',
      'Run a devnet: the simulated network with the service REST API, node status RPC, sidechain JSON-RPC (HTTP and WebSocket) and console',
      (n) =>
        n
          .command(
            'init',
            'Write a new devnet home folder: genesis, config files, seeds list and keys',
            (c) =>
              c
                .option('home', HOME)
                .option('scenario', {
                  type: 'string',
                  default: 'devnet',
                  describe: 'the network: a scenario name (under scenarios/) or a JSON file',
                })
                .option('seed', {
                  type: 'number',
                  default: 1,
                  describe: 'the run seed (keys and every random choice derive from it)',
                })
                .option('host', { type: 'string', default: '127.0.0.1', describe: 'address the servers bind to' })
                .option('rest-port', {
                  type: 'number',
                  default: DEFAULT_PORTS.rest,
                  describe: 'service REST API port (0: any free port)',
                })
                .option('rpc-port', {
                  type: 'number',
                  default: DEFAULT_PORTS.status,
                  describe: 'node status RPC port (0: any free port)',
                })
                .option('jsonrpc-port', {
                  type: 'number',
                  default: DEFAULT_PORTS.jsonRpc,
                  describe: 'sidechain JSON-RPC port (0: any free port)',
                })
                .option('ws-port', {
                  type: 'number',
                  default: DEFAULT_PORTS.ws,
                  describe: 'sidechain WebSocket JSON-RPC port, eth_subscribe included (0: any free port)',
                })
                .option('overwrite', {
                  type: 'boolean',
                  default: false,
                  describe: 'replace an existing devnet in the home folder',
                })
                .example('$0 node init --home ./devnet', 'the default devnet (4 validators, real crypto)')
                .example('$0 node init --home ./dn --scenario default --seed 3', 'the default scenario as a devnet'),
            (a) => {
              process.stdout.write(
                nodeInit({
                  home: resolveHome(a.home),
                  scenario: a.scenario,
                  seed: a.seed,
                  host: a.host,
                  restPort: a['rest-port'],
                  rpcPort: a['rpc-port'],
                  jsonRpcPort: a['jsonrpc-port'],
                  wsPort: a['ws-port'],
                  overwrite: a.overwrite,
                }),
              );
            },
          )
          .command(
            'start',
            'Run the devnet paced to the wall clock and serve its APIs until Ctrl-C (resumes from the journal)',
            (c) =>
              c
                .option('home', HOME)
                .option('speed', { type: 'number', default: 1, describe: 'simulated seconds per wall second' })
                .example(
                  '$0 node start --home ./devnet',
                  'serve on 1317 (REST), 26657 (status), 8545 (JSON-RPC), 8546 (WebSocket)',
                )
                .example('$0 node start --home ./devnet --speed 10', 'ten times faster than real time'),
            async (a) => setExit(await nodeStart({ home: resolveHome(a.home), speed: a.speed })),
          )
          .command(
            'show-account',
            "Print the validator's signer address and public key",
            (c) => c.option('home', HOME),
            (a) => void process.stdout.write(showAccount(resolveHome(a.home))),
          )
          .command(
            'unsafe-reset-all',
            'Delete the chain data (the journal); keep the config and keys',
            (c) => c.option('home', HOME),
            (a) => void process.stdout.write(unsafeResetAll(resolveHome(a.home))),
          )
          .demandCommand(1, 'Name a node command: init, start, show-account or unsafe-reset-all'),
      () => {},
    )
    .command(
      'console',
      "Attach to the sidechain node's console (admin.peers.length, eth.syncing, eth.blockNumber, debug.setHead('0x…'), …)",
      (c) =>
        c
          .option('home', HOME)
          .option('exec', { type: 'string', describe: 'evaluate one expression, print it and exit' })
          .example('$0 console --exec eth.blockNumber', 'the latest block number')
          .example('$0 console --exec "debug.setHead(\'0x10\')"', "rewind the node's chain to block 16"),
      async (a) => {
        const home = resolveHome(a.home);
        setExit(
          await runConsole({
            socketPath: paths(home).consoleSocket,
            input: process.stdin,
            output: process.stdout,
            ...(a.exec !== undefined ? { exec: a.exec } : {}),
          }),
        );
      },
    );
}
