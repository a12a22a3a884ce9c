/**
 * A devnet's home folder, laid out like the spec's operator files (spec "Operator files and
 * services"), under one root instead of /etc and /var/log:
 *
 *   config/genesis.json            service-chain genesis
 *   config/lockstep-config.toml    the daemon's config: REST server, bridge, sidechain RPC and WebSocket, run seed
 *   config/config.toml             the consensus node's config: moniker, status RPC address, peers
 *   config/scenario.json           the network the simulation runs (validators, params, workload)
 *   lockstep-seeds.txt             the seeds list (the simulated peers)
 *   sidechain/genesis.json         sidechain genesis (chain id, producers, clique/bor parameters, funded accounts)
 *   sidechain/lockstep-sidechain.ipc  the operator console's socket (while running), and
 *   sidechain/lockstep-sidechain-N.ipc  one per sidechain node N
 *   keys/<name>.json               validator signer keys (validator-N) and user keys (user-N)
 *   data/journal.jsonl             every external input and action, in order (see journal.ts)
 *   data/journal.reverted-N.jsonl  the tails a revert dropped
 *   data/served.json               how far the state clients have read goes (servedMark.ts)
 *   data/ports.json                the addresses `start` bound
 *   logs/{daemon,bridge,sidechain}.log  the nodes' records (virtual time)
 *   logs/{rest-server,status,jsonrpc}.log  one pino (JSON) log per server: time, request, status, latency
 *   report/                        the run so far (`node report`, and at every stop)
 *
 * Everything is derived from the scenario and the seed, so `init` twice with the same arguments
 * writes the same files.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { InputError } from '../../src/core/errors';
import { type Hex, toHex } from '../../src/core/bytes';
import { publicKeyBytesFromPrivateKey } from '../../src/core/secp256k1';
import { type Address } from '../../src/core/address';
import { type Scenario } from '../../sim/scenario/scenario';
import { decodeScenario } from '../../sim/scenario/decodeScenario';
import { encodeScenario } from '../../sim/scenario/encodeScenario';
import { runSetup } from '../../sim/domain/runSetup';

/** The devnet's default ports: geth's 8545 (HTTP) and 8546 (WebSocket) for the sidechain, as Bor. */
export const DEFAULT_PORTS = { rest: 1317, status: 26657, jsonRpc: 8545, ws: 8546 } as const;

export interface DevnetPorts {
  rest: number;
  status: number;
  jsonRpc: number;
  /** The sidechain's WebSocket JSON-RPC endpoint. */
  ws: number;
}

/** A devnet runs "forever": the scenario's duration is replaced by this bound (100 years). */
export const DEVNET_DURATION_MS = 100 * 365 * 86_400_000;

export interface KeyFile {
  name: string;
  address: Address;
  pub_key: Hex;
  private_key: Hex;
}

/**
 * Where the first `node start` stops: a home that opens a run at a time (`node init --at`, or
 * `--from-report DIR --before-violation`) replays it unpaced to the last window barrier before
 * `pauseBeforeMs` and serves it paused.
 */
export interface StartSpec {
  pauseBeforeMs: number;
  /** What the time means, for the banner ("the first violation: fork-choice at 31.200 s"). */
  note: string;
  /** The report folder the run came from. */
  fromReport?: string;
  /** The first violation of that run, when the home opens it before it. */
  violation?: { oracle: string; atMs: number; message: string };
}

export interface DevnetConfig {
  home: string;
  seed: number;
  host: string;
  ports: DevnetPorts;
  /** The index (1-based) of the validator whose nodes this devnet's servers speak for. */
  nodeIndex: number;
  moniker: string;
  scenario: Scenario;
  chainId: string;
  start?: StartSpec;
}

export function defaultHome(): string {
  return process.env.LOCKSTEP_HOME ?? join(homedir(), '.lockstep');
}

export const paths = (home: string) => ({
  genesis: join(home, 'config', 'genesis.json'),
  daemonConfig: join(home, 'config', 'lockstep-config.toml'),
  nodeConfig: join(home, 'config', 'config.toml'),
  scenario: join(home, 'config', 'scenario.json'),
  seeds: join(home, 'lockstep-seeds.txt'),
  sidechainGenesis: join(home, 'sidechain', 'genesis.json'),
  consoleSocket: join(home, 'sidechain', 'lockstep-sidechain.ipc'),
  /** Sidechain node n's console socket. */
  consoleSocketOf: (n: number) => join(home, 'sidechain', `lockstep-sidechain-${n}.ipc`),
  keys: join(home, 'keys'),
  data: join(home, 'data'),
  journal: join(home, 'data', 'journal.jsonl'),
  /** The tail the n-th revert dropped from the journal. */
  revertedJournal: (n: number) => join(home, 'data', `journal.reverted-${n}.jsonl`),
  served: join(home, 'data', 'served.json'),
  report: join(home, 'report'),
  lock: join(home, 'data', 'LOCK'),
  /** The addresses `start` bound (with port 0 in the config, the ports the OS chose). */
  ports: join(home, 'data', 'ports.json'),
  logs: join(home, 'logs'),
  log: (service: LogName) => join(home, 'logs', `${service}.log`),
});

export type LogName = 'daemon' | 'bridge' | 'sidechain' | 'rest-server' | 'status' | 'jsonrpc';

/** The scenario as a devnet runs it: no time or event bound. */
export function devnetScenario(s: Scenario): Scenario {
  return { ...s, durationMs: DEVNET_DURATION_MS, maxEvents: Number.MAX_SAFE_INTEGER };
}

export interface InitOptions {
  home: string;
  scenario: Scenario;
  seed: number;
  host: string;
  ports: DevnetPorts;
  overwrite: boolean;
  start?: StartSpec;
}

/** Write a new home folder; refuses to overwrite one unless asked. Returns the files written. */
export function initHome(o: InitOptions): string[] {
  const p = paths(o.home);
  if (existsSync(p.genesis) && !o.overwrite)
    throw new InputError(
      '--home',
      `${o.home} already holds a devnet (config/genesis.json exists); pass --overwrite to replace it`,
    );
  const setup = runSetup(o.scenario, o.seed);
  const written: string[] = [];
  const write = (file: string, text: string) => {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, text);
    written.push(file);
  };
  write(p.genesis, JSON.stringify(setup.genesis, null, 2) + '\n');
  write(p.scenario, JSON.stringify(encodeScenario(o.scenario), null, 2) + '\n');
  write(
    p.daemonConfig,
    '# The lockstep daemon (the service node, its REST server and bridge, the simulated network).\n' +
      stringifyToml({
        seed: o.seed,
        // Which validator's nodes the servers speak for (REST, status, JSON-RPC, console).
        node_index: 1,
        rest_server: { laddr: `tcp://${o.host}:${o.ports.rest}` },
        sidechain: {
          rpc_laddr: `tcp://${o.host}:${o.ports.jsonRpc}`,
          ws_laddr: `tcp://${o.host}:${o.ports.ws}`,
          ipc_path: 'sidechain/lockstep-sidechain.ipc',
        },
        bridge: { parent_chain: 'simulated', relay_delay_per_rank_ms: o.scenario.params.relayDelayPerRankMs },
        ...(o.start
          ? {
              start: {
                pause_before_ms: o.start.pauseBeforeMs,
                note: o.start.note,
                ...(o.start.fromReport !== undefined ? { from_report: o.start.fromReport } : {}),
                ...(o.start.violation
                  ? {
                      violation_oracle: o.start.violation.oracle,
                      violation_ms: o.start.violation.atMs,
                      violation_message: o.start.violation.message,
                    }
                  : {}),
              },
            }
          : {}),
      }) +
      '\n',
  );
  write(
    p.nodeConfig,
    '# The consensus node of validator 1 (the node this devnet speaks for).\n' +
      stringifyToml({
        moniker: 'validator-1',
        rpc: { laddr: `tcp://${o.host}:${o.ports.status}` },
        p2p: { seeds_file: 'lockstep-seeds.txt', persistent_peers: setup.svcIds.slice(1).join(',') },
        consensus: { timeout_commit: `${o.scenario.params.commitTimeoutMs}ms` },
      }) +
      '\n',
  );
  write(p.seeds, setup.svcIds.map((id, i) => `${id}@validator-${i + 1}.sim:26656`).join('\n') + '\n');
  write(
    p.sidechainGenesis,
    JSON.stringify(
      {
        config: {
          chainId: setup.sidechainChainId,
          bor: {
            period: setup.scCfg.periodS,
            producerDelay: setup.scCfg.producerDelayS,
            sprint: setup.scCfg.sprint,
            backupMultiplier: setup.scCfg.backupMultiplierS,
          },
        },
        timestamp: Math.floor(o.scenario.epochMs / 1000),
        // geth's genesis alloc: the dev accounts (the users' keys, keys/user-N.json, then the
        // scenario's own dev accounts, their keys in the banner), balances in wei.
        alloc: Object.fromEntries(
          setup.sidechainAlloc.map((a) => [a.address, { balance: `0x${a.balance.toString(16)}` }]),
        ),
        producers: setup.producers.map((pr) => ({
          id: Number(pr.id),
          address: pr.address,
          power: pr.power.toString(),
        })),
      },
      null,
      2,
    ) + '\n',
  );
  for (const [i, k] of setup.keys.entries())
    write(
      join(p.keys, `validator-${i + 1}.json`),
      JSON.stringify(
        {
          name: `validator-${i + 1}`,
          address: k.signer,
          pub_key: k.pubKey,
          private_key: k.signerKey,
        } satisfies KeyFile,
        null,
        2,
      ) + '\n',
    );
  for (const [i, u] of setup.users.entries())
    write(
      join(p.keys, `user-${i + 1}.json`),
      JSON.stringify(
        {
          name: `user-${i + 1}`,
          address: u.address,
          pub_key: toHex(publicKeyBytesFromPrivateKey(u.key)),
          private_key: u.key,
        } satisfies KeyFile,
        null,
        2,
      ) + '\n',
    );
  mkdirSync(p.data, { recursive: true });
  mkdirSync(p.logs, { recursive: true });
  return written;
}

function readToml(file: string): Record<string, unknown> {
  try {
    return parseToml(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    throw new InputError(file, `not valid TOML: ${(e as Error).message}`);
  }
}

function laddr(value: unknown, field: string): { host: string; port: number } {
  const m = typeof value === 'string' ? /^tcp:\/\/([^:]+):(\d{1,5})$/.exec(value) : null;
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) throw new InputError(field, `expected "tcp://HOST:PORT", got ${JSON.stringify(value)}`);
  return { host: m[1]!, port };
}

/** Read a home folder written by `init`; every error names the file and field. */
export function loadHome(home: string): DevnetConfig {
  const p = paths(home);
  if (!existsSync(p.genesis))
    throw new InputError(
      '--home',
      `no devnet in ${home} (config/genesis.json is missing): run \`lockstep node init --home ${home}\` first`,
    );
  const daemon = readToml(p.daemonConfig);
  const node = readToml(p.nodeConfig);
  const seed = daemon.seed;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0)
    throw new InputError(`${p.daemonConfig}: seed`, 'expected a non-negative integer');
  const rest = laddr(
    (daemon.rest_server as Record<string, unknown> | undefined)?.laddr,
    `${p.daemonConfig}: rest_server.laddr`,
  );
  const sidechain = daemon.sidechain as Record<string, unknown> | undefined;
  const jsonRpc = laddr(sidechain?.rpc_laddr, `${p.daemonConfig}: sidechain.rpc_laddr`);
  // A home written before the WebSocket endpoint existed has no ws_laddr: any free port then.
  const ws =
    sidechain?.ws_laddr === undefined
      ? { host: jsonRpc.host, port: 0 }
      : laddr(sidechain.ws_laddr, `${p.daemonConfig}: sidechain.ws_laddr`);
  const status = laddr((node.rpc as Record<string, unknown> | undefined)?.laddr, `${p.nodeConfig}: rpc.laddr`);
  let scenario: Scenario;
  try {
    scenario = decodeScenario(JSON.parse(readFileSync(p.scenario, 'utf8')));
  } catch (e) {
    if (e instanceof InputError) throw new InputError(`${p.scenario}: ${e.field}`, e.message.slice(e.field.length + 2));
    throw new InputError(p.scenario, (e as Error).message);
  }
  const nodeIndex = daemon.node_index ?? 1;
  if (
    typeof nodeIndex !== 'number' ||
    !Number.isInteger(nodeIndex) ||
    nodeIndex < 1 ||
    nodeIndex > scenario.validators.length
  ) {
    throw new InputError(
      `${p.daemonConfig}: node_index`,
      `expected a validator number 1-${scenario.validators.length}, got ${JSON.stringify(nodeIndex)}`,
    );
  }
  const genesis = JSON.parse(readFileSync(p.genesis, 'utf8')) as { chain_id?: unknown };
  if (typeof genesis.chain_id !== 'string') throw new InputError(`${p.genesis}: chain_id`, 'missing');
  const start = readStart(daemon.start, p.daemonConfig);
  return {
    ...(start ? { start } : {}),
    home,
    seed,
    host: rest.host,
    ports: { rest: rest.port, status: status.port, jsonRpc: jsonRpc.port, ws: ws.port },
    nodeIndex,
    moniker: typeof node.moniker === 'string' ? node.moniker : `validator-${nodeIndex}`,
    scenario,
    chainId: genesis.chain_id,
  };
}

function readStart(value: unknown, file: string): StartSpec | undefined {
  if (value === undefined) return undefined;
  const o = value as Record<string, unknown>;
  const ms = o.pause_before_ms;
  if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0)
    throw new InputError(`${file}: start.pause_before_ms`, 'expected a non-negative integer (virtual ms)');
  const start: StartSpec = { pauseBeforeMs: ms, note: typeof o.note === 'string' ? o.note : '' };
  if (typeof o.from_report === 'string') start.fromReport = o.from_report;
  if (typeof o.violation_oracle === 'string' && typeof o.violation_ms === 'number')
    start.violation = {
      oracle: o.violation_oracle,
      atMs: o.violation_ms,
      message: typeof o.violation_message === 'string' ? o.violation_message : '',
    };
  return start;
}

export function loadKey(home: string, name: string): KeyFile {
  const file = join(paths(home).keys, `${name}.json`);
  if (!/^[A-Za-z0-9._-]+$/.test(name) || !existsSync(file)) {
    const names = listKeys(home);
    throw new InputError(
      '--from',
      `no key ${JSON.stringify(name)} in ${paths(home).keys}; keys: ${names.length ? names.join(', ') : '(none: run `lockstep node init`)'}`,
    );
  }
  return JSON.parse(readFileSync(file, 'utf8')) as KeyFile;
}

export function listKeys(home: string): string[] {
  const dir = paths(home).keys;
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

/** `unsafe-reset-all`: drop the chain data (the journal), keep config and keys. */
export function resetData(home: string): string[] {
  const p = paths(home);
  if (!existsSync(p.genesis)) throw new InputError('--home', `no devnet in ${home}`);
  const removed: string[] = [];
  const backups = existsSync(p.data)
    ? readdirSync(p.data)
        .filter((f) => /^journal\.reverted-\d+\.jsonl$/.test(f))
        .map((f) => join(p.data, f))
    : [];
  for (const f of [p.journal, p.served, p.consoleSocket, ...backups]) {
    if (existsSync(f)) {
      rmSync(f);
      removed.push(f);
    }
  }
  mkdirSync(p.data, { recursive: true });
  return removed;
}

export function resolveHome(flag: string | undefined): string {
  return resolve(flag ?? defaultHome());
}
