/**
 * The yargs commands of the devnet: `lockstep node init|start|status|pause|resume|step|snapshot|
 * revert|fault|report|show-account|unsafe-reset-all` and `lockstep console`.
 */
import { type Argv } from 'yargs';
import { InputError } from '../../src/core/errors';
import { FAULT_KINDS } from '../../sim/scenario/scenario';
import { DEFAULT_PORTS, resolveHome, paths } from './home';
import {
  nodeFault,
  nodePause,
  nodeReport,
  nodeResume,
  nodeRevert,
  nodeSnapshot,
  nodeStatus,
  nodeStep,
} from './nodeSteer';
import { nodeInit, showAccount, unsafeResetAll } from './nodeInit';
import { nodeStart } from './nodeStart';
import { runConsole } from '../../src/rpc/console/consoleClient';

const HOME = { type: 'string', describe: 'the devnet home folder (default $LOCKSTEP_HOME or ~/.lockstep)' } as const;
const JSON_OUT = { type: 'boolean', default: false, describe: 'print the answer as one JSON object' } as const;

const STEER_EPILOGUE =
  'These commands talk to the running devnet of the home (`lockstep node start`) through its admin JSON-RPC namespace (lockstep_*) on the JSON-RPC port it bound (data/ports.json), served on 127.0.0.1 like every port. Every action that changes the run is journaled: a restart replays it.';

const out = (text: string) => void process.stdout.write(text);

/** The examples `lockstep node fault --help` shows (each one runs: faultExamples.test.ts). */
export const NODE_FAULT_EXAMPLES: ReadonlyArray<[string, string]> = [
  ['node fault crash svc-3 --for 30s --home ./dn', 'crash a service node for 30 s'],
  [
    'node fault partition --groups svc-1,sc-1 svc-2,sc-2,svc-3,sc-3,svc-4,sc-4 --for 20s --home ./dn',
    'cut validator 1 off',
  ],
  ['node fault offlineProducer inTurn --for 40s --home ./dn', 'silence whoever is in turn'],
  [
    `node fault --json '{"kind":"clockSkew","node":"sc-2","skew":"3s","for":"1m"}' --home ./dn`,
    'any fault as JSON (no kind argument then)',
  ],
];

export function registerDevnetCommands<T>(y: Argv<T>, setExit: (code: number) => void): Argv<T> {
  return y
    .command(
      'node <command>',
      'Run a devnet: the simulated network with the service REST API, node status RPC, sidechain JSON-RPC (HTTP and WebSocket), consoles, and an admin namespace to pause, step, rewind and fault it',
      (n) =>
        n
          .command(
            'init',
            'Write a new devnet home folder: genesis, config files, seeds list and keys (a fresh network, a scenario at a time, or a report’s run before its violation)',
            (c) =>
              c
                .option('home', HOME)
                .option('scenario', {
                  type: 'string',
                  describe: 'the network: a scenario name (under scenarios/) or a JSON file (default devnet)',
                })
                .option('seed', {
                  type: 'number',
                  describe:
                    "the run seed (keys and every random choice derive from it; default the scenario's, else 1)",
                })
                .option('from-report', {
                  type: 'string',
                  describe:
                    'open the run of a report folder (`lockstep run`, `lockstep node report`): its scenario, seed and crypto; a planted bug stays planted',
                })
                .option('at', {
                  type: 'string',
                  describe:
                    'the first start replays the run unpaced and pauses at the last window barrier at or before this virtual time (e.g. 30s)',
                })
                .option('before-violation', {
                  type: 'boolean',
                  describe:
                    "with --from-report: pause at the last window barrier before the run's first oracle violation",
                })
                .option('genesis-time', {
                  type: 'string',
                  describe:
                    'the genesis time: `now` or a date (2024-05-01T12:00:00Z); written into genesis, so replays stay deterministic',
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
                  describe: 'replace an existing devnet in the home folder (its chain data too)',
                })
                .conflicts('at', 'before-violation')
                .example('$0 node init --home ./devnet', 'the default devnet (4 validators, real crypto)')
                .example(
                  '$0 node init --home ./dn --scenario default --seed 3 --genesis-time now',
                  'the default scenario, block times from now on',
                )
                .example(
                  '$0 run --scenario scenarios/regressions/planted-sticky-head-fork-choice.json --out ./bug && $0 node init --home ./dn --from-report ./bug --before-violation',
                  'open a failing run live, paused just before its violation',
                )
                .example(
                  '$0 node init --home ./dn --scenario default --seed 3 --at 2m',
                  'the default scenario, paused at 2 minutes',
                ),
            async (a) => {
              out(
                await nodeInit({
                  home: resolveHome(a.home),
                  ...(a.scenario !== undefined ? { scenario: a.scenario } : {}),
                  ...(a.seed !== undefined ? { seed: a.seed } : {}),
                  ...(a['from-report'] !== undefined ? { fromReport: a['from-report'] } : {}),
                  ...(a.at !== undefined ? { at: a.at } : {}),
                  ...(a['before-violation'] ? { beforeViolation: true } : {}),
                  ...(a['genesis-time'] !== undefined ? { genesisTime: a['genesis-time'] } : {}),
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
            'Run the devnet paced to the wall clock (or paused) and serve its APIs until Ctrl-C; replays the journal first',
            (c) =>
              c
                .option('home', HOME)
                .option('speed', { type: 'number', default: 1, describe: 'simulated seconds per wall second' })
                .example(
                  '$0 node start --home ./devnet',
                  'serve on 1317 (REST), 26657 (status), 8545 (JSON-RPC), 8546 (WebSocket); /node/N for node N',
                )
                .example('$0 node start --home ./devnet --speed 10', 'ten times faster than real time'),
            async (a) => setExit(await nodeStart({ home: resolveHome(a.home), speed: a.speed })),
          )
          .command(
            'status',
            'Show where the running devnet is: state, time, every node, oracle violations, faults, snapshots',
            (c) =>
              c
                .option('home', HOME)
                .option('json', JSON_OUT)
                .example('$0 node status --home ./devnet', 'state, nodes, violations')
                .epilogue(STEER_EPILOGUE),
            async (a) => out(await nodeStatus(resolveHome(a.home), a.json)),
          )
          .command(
            'pause',
            'Pause the running devnet at the next window barrier (reads still answer)',
            (c) => c.option('home', HOME).option('json', JSON_OUT).epilogue(STEER_EPILOGUE),
            async (a) => out(await nodePause(resolveHome(a.home), a.json)),
          )
          .command(
            'resume',
            'Run the devnet paced to the wall clock again',
            (c) => c.option('home', HOME).option('json', JSON_OUT).epilogue(STEER_EPILOGUE),
            async (a) => out(await nodeResume(resolveHome(a.home), a.json)),
          )
          .command(
            'step',
            'Run the devnet as fast as it can by window barriers, then pause: --events N, --until TIME or --blocks N (default: one window)',
            (c) =>
              c
                .option('home', HOME)
                .option('events', { type: 'number', describe: 'run until at least N more events were delivered' })
                .option('until', {
                  type: 'string',
                  describe: 'run every window that ends at or before this virtual time (e.g. 31s)',
                })
                .option('blocks', {
                  type: 'number',
                  describe: "run until the node's sidechain head is N blocks higher",
                })
                .option('node', { type: 'number', describe: 'whose blocks --blocks counts (default: node_index)' })
                .option('json', JSON_OUT)
                .conflicts('events', ['until', 'blocks'])
                .conflicts('until', 'blocks')
                .example('$0 node step --home ./dn --blocks 1 --node 2', "until sc-2's next block")
                .example('$0 node step --home ./dn --until 32s', 'to just before 32 s')
                .epilogue(STEER_EPILOGUE),
            async (a) =>
              out(
                await nodeStep(
                  resolveHome(a.home),
                  {
                    ...(a.events !== undefined ? { events: a.events } : {}),
                    ...(a.until !== undefined ? { until: a.until } : {}),
                    ...(a.blocks !== undefined ? { blocks: a.blocks } : {}),
                    ...(a.node !== undefined ? { node: a.node } : {}),
                  },
                  a.json,
                ),
              ),
          )
          .command(
            'snapshot <name>',
            'Take a snapshot: remember this position of the journal under a name (taking a name again moves it)',
            (c) =>
              c
                .positional('name', { type: 'string', describe: 'letters, digits, dots, dashes, underscores' })
                .option('home', HOME)
                .option('json', JSON_OUT)
                .example('$0 node snapshot before-transfer --home ./devnet', '')
                .epilogue(STEER_EPILOGUE),
            async (a) => out(await nodeSnapshot(resolveHome(a.home), String(a.name), a.json)),
          )
          .command(
            'revert <name>',
            'Rewind the devnet to a snapshot: the journal is cut there (the tail kept in data/journal.reverted-N.jsonl) and the network rebuilt by replaying it',
            (c) =>
              c
                .positional('name', { type: 'string', describe: 'a snapshot name or id' })
                .option('home', HOME)
                .option('json', JSON_OUT)
                .example(
                  '$0 node revert before-transfer --home ./devnet',
                  'the snapshot stays: revert to it again later',
                )
                .epilogue(STEER_EPILOGUE),
            async (a) => out(await nodeRevert(resolveHome(a.home), String(a.name), a.json)),
          )
          .command(
            'fault [kind] [target]',
            `Inject a fault into the running network at the next window barrier, in the scenario's fault vocabulary (${FAULT_KINDS.join(', ')})`,
            (c) =>
              c
                .positional('kind', { type: 'string', describe: 'the fault kind' })
                .positional('target', {
                  type: 'string',
                  describe:
                    'crash, pause, clockSkew: a node id (svc-3, sc-2, parent); producer and validator faults: a validator (3 or inTurn)',
                })
                .option('home', HOME)
                .option('for', { type: 'string', describe: 'how long (30s, 2m); without it, until the end' })
                .option('groups', {
                  type: 'string',
                  array: true,
                  describe: 'partition: the groups, each a comma list (svc-1,sc-1 svc-2,sc-2)',
                })
                .option('from', { type: 'string', describe: 'oneWayPartition, link: senders (comma list)' })
                .option('to', { type: 'string', describe: 'oneWayPartition, link: receivers (comma list)' })
                .option('validator', {
                  type: 'string',
                  describe: 'producer and validator faults: a validator index or inTurn',
                })
                .option('validators', {
                  type: 'string',
                  describe: 'byzantineValidators: the coalition (comma list of indexes)',
                })
                .option('skew', {
                  type: 'string',
                  describe: 'clockSkew: the skew (500ms; a negative one as --skew=-2s)',
                })
                .option('delay-s', { type: 'number', describe: 'slowProducer: extra seconds' })
                .option('link', { type: 'string', describe: 'link: the link model as JSON ({"loss":0.5})' })
                .option('json', {
                  type: 'string',
                  describe: 'the whole fault as JSON instead: {"kind":"crash","node":"svc-3","for":"30s"}',
                })
                .example(NODE_FAULT_EXAMPLES.map(([cmd, what]) => [`$0 ${cmd}`, what]))
                .epilogue(
                  `${STEER_EPILOGUE} The fault shows in the daemon log, \`lockstep node status\` and the report.`,
                ),
            async (a) => {
              if (a.kind === undefined && a.json === undefined)
                throw new InputError('<kind>', `name the fault kind (${FAULT_KINDS.join(', ')}) or give --json`);
              if (a.kind !== undefined && a.json !== undefined)
                throw new InputError('--json', 'give the fault either as arguments or as --json, not both');
              const args = {
                kind: String(a.kind),
                ...(a.target !== undefined ? { target: a.target } : {}),
                ...(a.for !== undefined ? { for: a.for } : {}),
                ...(a.groups !== undefined ? { groups: a.groups.map(String) } : {}),
                ...(a.from !== undefined ? { from: a.from } : {}),
                ...(a.to !== undefined ? { to: a.to } : {}),
                ...(a.validator !== undefined ? { validator: a.validator } : {}),
                ...(a.validators !== undefined ? { validators: a.validators } : {}),
                ...(a.skew !== undefined ? { skew: a.skew } : {}),
                ...(a['delay-s'] !== undefined ? { delayS: a['delay-s'] } : {}),
                ...(a.link !== undefined ? { link: a.link } : {}),
                ...(a.json !== undefined ? { json: a.json } : {}),
              };
              out(await nodeFault(resolveHome(a.home), args, false));
            },
          )
          .command(
            'report',
            "Write the report folder of the devnet's run so far (summary.json, summary.md, report.html, scenario.json, journal.jsonl); `node start` also writes one at every stop",
            (c) =>
              c
                .option('home', HOME)
                .option('out', { type: 'string', describe: 'the report folder (default <home>/report)' })
                .example(
                  '$0 node report --home ./devnet --out ./devnet-report',
                  'the run so far, injected faults included',
                )
                .epilogue(
                  'The journal is replayed in this process (the running devnet only says how far it is), up to where the devnet is, or was when it stopped.',
                ),
            async (a) =>
              out(await nodeReport(resolveHome(a.home), a.out, (line) => void process.stderr.write(`${line}\n`))),
          )
          .command(
            'show-account',
            "Print the validator's signer address and public key",
            (c) => c.option('home', HOME),
            (a) => void out(showAccount(resolveHome(a.home))),
          )
          .command(
            'unsafe-reset-all',
            'Delete the chain data (the journal, served marks, revert backups); keep the config and keys',
            (c) => c.option('home', HOME),
            (a) => void out(unsafeResetAll(resolveHome(a.home))),
          )
          .demandCommand(
            1,
            'Name a node command: init, start, status, pause, resume, step, snapshot, revert, fault, report, show-account or unsafe-reset-all',
          ),
      () => {},
    )
    .command(
      'console',
      "Attach to a sidechain node's console (admin.peers.length, eth.syncing, eth.blockNumber, debug.setHead('0x…'), …)",
      (c) =>
        c
          .option('home', HOME)
          .option('node', { type: 'number', describe: "which validator's sidechain node (default: node_index)" })
          .option('exec', { type: 'string', describe: 'evaluate one expression, print it and exit' })
          .example('$0 console --exec eth.blockNumber', 'the latest block number')
          .example('$0 console --node 3 --exec eth.blockNumber', "validator 3's sidechain node")
          .example('$0 console --exec "debug.setHead(\'0x10\')"', "rewind the node's chain to block 16"),
      async (a) => {
        const home = resolveHome(a.home);
        if (a.node !== undefined && (!Number.isInteger(a.node) || a.node < 1))
          throw new InputError('--node', `expected a validator number (1, 2, …), got ${a.node}`);
        setExit(
          await runConsole({
            socketPath: a.node === undefined ? paths(home).consoleSocket : paths(home).consoleSocketOf(a.node),
            input: process.stdin,
            output: process.stdout,
            ...(a.exec !== undefined ? { exec: a.exec } : {}),
          }),
        );
      },
    );
}
